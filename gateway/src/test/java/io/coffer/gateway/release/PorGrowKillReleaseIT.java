package io.coffer.gateway.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * kill -9 during the PoR store's grows, as users run it (the launcher's jar and lib/, separate processes): objects
 * put through {@code ./coffer serve} into a store that starts at 2^6 blocks of 16 KiB and grows to 2^10, with SIGKILL
 * to {@code ./coffer por-server} (the remote server, restarted on the same data and port while the gateway stays up
 * and reconnects) or to the gateway itself ({@code --por embedded}, restarted on the same data) during grows and
 * during a plain put ({@link GrowKills}). Every put is acknowledged in the end (retried as an S3 client retries),
 * every acknowledged object reads back byte-exact, {@code ./coffer audit} passes, and the server's k is the grown one.
 */
class PorGrowKillReleaseIT {
    private static final int INITIAL_K = 6;
    private static final int BLOCK_BYTES = 16384;
    /** 16 objects of 512 KiB: 8 MiB, 2^10 blocks of 16 KiB hold them (four grows from 2^6). */
    private static final int OBJECTS = 16;
    private static final int OBJECT_BYTES = 512 << 10;
    private static final int GROWN_K = 10;
    /** Grows killed, after the first (measured), at most one per capacity. */
    private static final int GROW_KILLS = 3;
    private static final int PLAIN_KILL = OBJECTS - 2;

    @TempDir
    Path work;

    @Test
    void aRemotePorServerKilledDuringItsGrowsLosesNoAcknowledgedObjectAndTheGatewayReconnects() throws Exception {
        try (KillTargets.PorServer server = new KillTargets.PorServer(work, INITIAL_K, BLOCK_BYTES)) {
            assertThat(server.process().info().command().orElse(""))
                    .as("the launcher execs the JVM: SIGKILL reaches java").endsWith("java");
            Path gatewayDir = Files.createDirectories(work.resolve("gateway"));
            List<String> remote = server.attach();
            List<Path> files = files();
            try (ShippedGateway gateway = ShippedGateway.start(gatewayDir, remote, Map.of())) {
                GrowKills kills = new GrowKills(server.under(gateway), GrowKills.seed());
                createBucket(gateway.endpoint());
                kills.putAll("grows", files, GROW_KILLS, PLAIN_KILL);
                kills.assertReadBack("grows", files);
                assertThat(kills.kills()).hasSizeGreaterThanOrEqualTo(2);
                auditLive(gatewayDir, remote, gateway);
            }
            assertGrownAndAudited(gatewayDir, remote, work.resolve("por/parameters"));
        }
    }

    @Test
    void anEmbeddedGatewayKilledDuringItsGrowsLosesNoAcknowledgedObject() throws Exception {
        Path gatewayDir = Files.createDirectories(work.resolve("gateway"));
        List<String> serve = List.of("--por", "embedded", "--por-k", Integer.toString(INITIAL_K), "--por-block-size",
                Integer.toString(BLOCK_BYTES));
        List<Path> files = files();
        try (KillTargets.EmbeddedGateway target = new KillTargets.EmbeddedGateway(gatewayDir, serve)) {
            assertThat(target.gateway().jvmArguments()).as("the launcher execs the JVM: SIGKILL reaches java")
                    .contains("io.coffer.gateway.cli.CofferCommand");
            GrowKills kills = new GrowKills(target, GrowKills.seed());
            createBucket(target.endpoint());
            kills.putAll("grows", files, GROW_KILLS, PLAIN_KILL);
            kills.assertReadBack("grows", files);
            assertThat(kills.kills()).hasSizeGreaterThanOrEqualTo(2);
            auditLive(gatewayDir, List.of("--por", "embedded"), target.gateway());
        }
        assertGrownAndAudited(gatewayDir, List.of("--por", "embedded"),
                gatewayDir.resolve("data/por/server/parameters"));
    }

    private List<Path> files() throws Exception {
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < OBJECTS; i++) {
            files.add(ReleaseChecks.randomFile(work.resolve("in/object-" + i + ".bin"), 300 + i, OBJECT_BYTES + i));
        }
        return files;
    }

    private static void createBucket(URI endpoint) {
        try (S3Client s3 = SoakClients.client(endpoint, 2)) {
            s3.createBucket(b -> b.bucket("grows"));
        }
    }

    static void auditLive(Path gatewayDir, List<String> store, ShippedGateway gateway) throws Exception {
        StockClients.Result live = ShippedGateway.launcher(gatewayDir, Map.of(), PorRepairReleaseIT.verb("audit",
                store, "--admin", gateway.adminEndpoint().toString(), "--json"));
        assertThat(live.exitCode()).as("live audit: %s%s", live.stdout(), live.stderr()).isZero();
        assertThat(live.stdout()).contains("\"passed\"");
    }

    /** The server's k is the grown one, and the offline audit (the gateway stopped) passes. */
    private static void assertGrownAndAudited(Path gatewayDir, List<String> store, Path parametersFile)
            throws Exception {
        Properties parameters = new Properties();
        try (var in = Files.newBufferedReader(parametersFile)) {
            parameters.load(in);
        }
        assertThat(Integer.parseInt(parameters.getProperty("k"))).as("the server's k").isEqualTo(GROWN_K);
        StockClients.Result offline = ShippedGateway.launcher(gatewayDir, Map.of(), PorRepairReleaseIT.verb("audit",
                store));
        assertThat(offline.exitCode()).as("audit: %s%s", offline.stdout(), offline.stderr()).isZero();
    }
}
