package io.coffer.gateway.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PoR store grows (appendix A.3) as a user sees it: {@code ./coffer serve --por embedded} with a small initial
 * capacity ({@code --por-k 6}: 64 blocks of 16 KiB, 1 MiB) takes 6 MiB of objects put with aws-cli instead of failing
 * "PoR store full"; the server's parameters then record the larger k, {@code ./coffer audit --json} passes, and every
 * object reads back byte-exact from a restarted gateway; and the same with {@code ./coffer por-server --k 6} as the
 * remote server, which the gateway grows over the protocol's GROW.
 */
class PorGrowReleaseIT {
    private static final int INITIAL_K = 6;
    private static final int BLOCK_BYTES = 16384;

    @TempDir
    Path work;

    @Test
    void aSmallEmbeddedStoreGrowsToHoldEveryObjectAndAuditsPass() throws Exception {
        Path gatewayDir = Files.createDirectories(work.resolve("gateway"));
        // the verbs open the store as it is: the first-start flags are serve's
        scenario(gatewayDir, List.of("--por", "embedded", "--por-k", Integer.toString(INITIAL_K), "--por-block-size",
                Integer.toString(BLOCK_BYTES)), List.of("--por", "embedded"),
                gatewayDir.resolve("data/por/server/parameters"));
    }

    /** The same with {@code ./coffer por-server --k 6} as the remote server: the gateway grows it with GROW. */
    @Test
    void aSmallRemotePorServerGrowsToHoldEveryObjectAndAuditsPass() throws Exception {
        Path log = work.resolve("por-server.log");
        ProcessBuilder pb = new ProcessBuilder(ShippedGateway.REPOSITORY.resolve("coffer").toString(), "por-server",
                "--data", "por", "--port", "0", "--k", Integer.toString(INITIAL_K), "--block-size",
                Integer.toString(BLOCK_BYTES)).directory(work.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("COFFER_"));
        Process process = pb.start();
        try {
            int port = PorServerReleaseIT.awaitListening(process, log);
            Path gatewayDir = Files.createDirectories(work.resolve("gateway"));
            List<String> remote = List.of("--por", "127.0.0.1:" + port, "--por-key-file",
                    work.resolve("por/session.key").toString());
            scenario(gatewayDir, remote, remote, work.resolve("por/parameters"));
        } finally {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** 6 MiB put with aws-cli, audits (live and offline), the grown k, every object read back after a restart. */
    private void scenario(Path gatewayDir, List<String> serve, List<String> store, Path parametersFile)
            throws Exception {
        Map<String, String> env = Map.of();
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            files.add(ReleaseChecks.randomFile(work.resolve("in/object-" + i + ".bin"), 200 + i, (1L << 20) + i));
        }
        try (ShippedGateway gateway = ShippedGateway.start(gatewayDir, serve, env)) {
            StockClients.awsCli(gateway.endpoint(), work, "s3", "mb", "s3://grows").requireSuccess();
            for (Path f : files) {
                StockClients.awsCli(gateway.endpoint(), work, "s3", "cp", f.toString(),
                        "s3://grows/" + f.getFileName()).requireSuccess();
            }
            StockClients.Result live = ShippedGateway.launcher(gatewayDir, env, PorRepairReleaseIT.verb("audit", store,
                    "--admin", gateway.adminEndpoint().toString(), "--json"));
            assertThat(live.exitCode()).as("audit of the grown store: %s%s", live.stdout(), live.stderr()).isZero();
            assertThat(live.stdout()).contains("\"passed\"");
        }

        Properties parameters = new Properties();
        try (var in = Files.newBufferedReader(parametersFile)) {
            parameters.load(in);
        }
        int k = Integer.parseInt(parameters.getProperty("k"));
        System.out.println("PorGrowReleaseIT: the store grew from 2^" + INITIAL_K + " to 2^" + k + " blocks");
        assertThat(1L << k).as("2^k blocks of %d bytes hold the 6 MiB put", BLOCK_BYTES)
                .isGreaterThanOrEqualTo((6L << 20) / BLOCK_BYTES);

        StockClients.Result offline = ShippedGateway.launcher(gatewayDir, env, PorRepairReleaseIT.verb("audit", store));
        assertThat(offline.exitCode()).as("audit: %s%s", offline.stdout(), offline.stderr()).isZero();
        try (ShippedGateway gateway = ShippedGateway.start(gatewayDir, serve, env)) {
            for (Path f : files) {
                Path back = work.resolve("back-" + f.getFileName());
                StockClients.awsCli(gateway.endpoint(), work, "s3", "cp", "s3://grows/" + f.getFileName(),
                        back.toString()).requireSuccess();
                assertThat(Files.mismatch(back, f)).as("%s read back", f.getFileName()).isEqualTo(-1L);
            }
        }
    }
}
