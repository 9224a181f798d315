package io.coffer.gateway.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PoR store shrinks (appendix A.3, consolidation) as an operator sees it: {@code ./coffer serve --por embedded
 * --por-k 6} (64 blocks of 16 KiB) grows to hold 6 MiB put with aws-cli; five of the six objects are deleted with
 * aws-cli, gc passes on the admin port free their packs (gc-grace 1s; until {@code coffer_por_blocks_used} is at
 * most a quarter of the capacity), and {@code ./coffer por-consolidate
 * --admin URL --json} shrinks the store; the server's parameters then record the smaller k, the log says so,
 * {@code ./coffer audit} passes, and the remaining object reads back byte-exact, also from a restarted gateway.
 */
class PorShrinkReleaseIT {
    private static final int INITIAL_K = 6;
    private static final int BLOCK_BYTES = 16384;

    @TempDir
    Path work;

    @Test
    void aGrownEmbeddedStoreWhoseObjectsAreMostlyDeletedShrinksAndAuditsPass() throws Exception {
        Path gatewayDir = Files.createDirectories(work.resolve("gateway"));
        List<String> serve = List.of("--por", "embedded", "--por-k", Integer.toString(INITIAL_K), "--por-block-size",
                Integer.toString(BLOCK_BYTES), "--gc-grace", "1s", "--gc-interval", "0");
        List<String> store = List.of("--por", "embedded"); // the verbs open the store as it is
        Map<String, String> env = Map.of();
        Path parametersFile = gatewayDir.resolve("data/por/server/parameters");
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            files.add(ReleaseChecks.randomFile(work.resolve("in/object-" + i + ".bin"), 300 + i, (1L << 20) + i));
        }
        Path kept = files.get(2);
        int grownK;
        try (ShippedGateway gateway = ShippedGateway.start(gatewayDir, serve, env)) {
            StockClients.awsCli(gateway.endpoint(), work, "s3", "mb", "s3://shrinks").requireSuccess();
            for (Path f : files) {
                StockClients.awsCli(gateway.endpoint(), work, "s3", "cp", f.toString(),
                        "s3://shrinks/" + f.getFileName()).requireSuccess();
            }
            grownK = k(parametersFile);
            assertThat(grownK).isGreaterThan(INITIAL_K + 1);
            for (Path f : files) {
                if (!f.equals(kept)) {
                    StockClients.awsCli(gateway.endpoint(), work, "s3", "rm", "s3://shrinks/" + f.getFileName())
                            .requireSuccess();
                }
            }
            collect(gateway.adminEndpoint(), 128);
            StockClients.Result consolidate = ShippedGateway.launcher(gatewayDir, env, PorRepairReleaseIT.verb(
                    "por-consolidate", store, "--admin", gateway.adminEndpoint().toString(), "--json"));
            assertThat(consolidate.exitCode()).as("%s%s", consolidate.stdout(), consolidate.stderr()).isZero();
            assertThat(consolidate.stdout()).contains("\"verdict\":\"shrunk\"");
            StockClients.Result live = ShippedGateway.launcher(gatewayDir, env, PorRepairReleaseIT.verb("audit", store,
                    "--admin", gateway.adminEndpoint().toString(), "--json"));
            assertThat(live.exitCode()).as("audit of the shrunk store: %s%s", live.stdout(), live.stderr()).isZero();
            Path back = work.resolve("back-live.bin");
            StockClients.awsCli(gateway.endpoint(), work, "s3", "cp", "s3://shrinks/" + kept.getFileName(),
                    back.toString()).requireSuccess();
            assertThat(Files.mismatch(back, kept)).isEqualTo(-1L);
        }
        int k = k(parametersFile);
        System.out.println("PorShrinkReleaseIT: the store grew from 2^" + INITIAL_K + " to 2^" + grownK
                + " blocks and shrank to 2^" + k);
        assertThat(k).isLessThan(grownK).isGreaterThanOrEqualTo(INITIAL_K);

        StockClients.Result offline = ShippedGateway.launcher(gatewayDir, env, PorRepairReleaseIT.verb("audit", store));
        assertThat(offline.exitCode()).as("audit: %s%s", offline.stdout(), offline.stderr()).isZero();
        try (ShippedGateway gateway = ShippedGateway.start(gatewayDir, serve, env)) {
            Path back = work.resolve("back-restarted.bin");
            StockClients.awsCli(gateway.endpoint(), work, "s3", "cp", "s3://shrinks/" + kept.getFileName(),
                    back.toString()).requireSuccess();
            assertThat(Files.mismatch(back, kept)).as("%s read back", kept.getFileName()).isEqualTo(-1L);
        }
    }

    /**
     * gc passes on the admin port (gc-grace 1s) until the dead packs are gone, one retiring them and one after the
     * grace period deleting them, and {@code coffer_por_blocks_used} is at most {@code blocks}.
     */
    static void collect(URI admin, double blocks) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        double used = Double.MAX_VALUE;
        for (int pass = 0; pass < 8 && used > blocks; pass++) {
            Thread.sleep(pass == 0 ? 0 : 1500);
            HttpResponse<String> gc = http.send(HttpRequest.newBuilder(URI.create(admin + "/admin/gc"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(gc.statusCode()).as(gc.body()).isEqualTo(200);
            used = metric(http, admin, "coffer_por_blocks_used");
        }
        assertThat(used).as("blocks in use after gc").isLessThanOrEqualTo(blocks);
    }

    private static double metric(HttpClient http, URI admin, String name) throws Exception {
        String body = http.send(HttpRequest.newBuilder(URI.create(admin + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        return body.lines().filter(l -> l.startsWith(name + " ")).mapToDouble(l -> Double.parseDouble(
                l.substring(name.length() + 1).trim())).findFirst().orElseThrow();
    }

    static int k(Path parametersFile) throws Exception {
        Properties parameters = new Properties();
        try (var in = Files.newBufferedReader(parametersFile)) {
            parameters.load(in);
        }
        return Integer.parseInt(parameters.getProperty("k"));
    }
}
