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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PoR store that grows and shrinks as an operator sees it, over whichever PoR server {@code serve} names: five
 * fillers and then the kept object (so that its packs lie high in U) put with aws-cli grow the store; the fillers are
 * deleted with aws-cli and gc passes on the admin port free their packs (the gateway runs with {@link #GC_OPTIONS});
 * {@code POST /admin/por/consolidate} moves the kept object's packs below the smaller capacity and shrinks the store
 * while aws-cli downloads the kept object back to back, each download exiting 0 and byte-exact; the
 * live audit passes and the server's parameters record the smaller k.
 */
final class PorShrinkScenario {
    static final int INITIAL_K = 6;
    /**
     * gc only when asked, with a grace short enough for the test and long enough that a put on a loaded machine stays
     * within three quarters of it (a 4 MiB put took over 750 ms at load 7: refused as too slow, 500, at 1s).
     */
    static final List<String> GC_OPTIONS = List.of("--gc-grace", "3s", "--gc-interval", "0");
    static final int BLOCK_BYTES = 16384;
    private static final int FILLERS = 5;
    /** Downloads at most, back to back while the consolidation runs (each of a few MiB). */
    private static final int MAX_DOWNLOADS = 40;
    private static final Pattern PACKS_MOVED = Pattern.compile("\"packsMoved\":(\\d+)");

    private final Path work;
    private final Path gatewayDir;
    private final Path parametersFile;
    private final List<Path> fillers = new ArrayList<>();
    private final Path kept;
    private int grownK;

    /**
     * Fillers of {@code fillerBytes} and a kept object of {@code keptBytes} under {@code work/in}; the gateway in
     * {@code gatewayDir}, its PoR server's parameters in {@code parametersFile}.
     */
    PorShrinkScenario(Path work, Path gatewayDir, Path parametersFile, long fillerBytes, long keptBytes)
            throws Exception {
        this.work = work;
        this.gatewayDir = gatewayDir;
        this.parametersFile = parametersFile;
        for (int i = 0; i < FILLERS; i++) {
            fillers.add(ReleaseChecks.randomFile(work.resolve("in/filler-" + i + ".bin"), 300 + i, fillerBytes + i));
        }
        kept = ReleaseChecks.randomFile(work.resolve("in/kept.bin"), 399, keptBytes);
    }

    /**
     * With a gateway started with {@code serve} (its verbs given {@code store}): grows, deletes, consolidates while
     * downloading, audits live; the gateway is stopped at the end. Returns the k the store shrank to.
     */
    int growDeleteAndConsolidateWhileDownloading(List<String> serve, List<String> store, Map<String, String> env)
            throws Exception {
        try (ShippedGateway gateway = ShippedGateway.start(gatewayDir, serve, env)) {
            StockClients.awsCli(gateway.endpoint(), work, "s3", "mb", "s3://shrinks").requireSuccess();
            for (Path f : fillers) {
                put(gateway, f);
            }
            put(gateway, kept);
            grownK = k(parametersFile);
            assertThat(grownK).isGreaterThan(INITIAL_K + 1);
            for (Path f : fillers) {
                StockClients.awsCli(gateway.endpoint(), work, "s3", "rm", "s3://shrinks/" + f.getFileName())
                        .requireSuccess();
            }
            collect(gateway.adminEndpoint(), (1 << grownK) / 4.0);

            String report = consolidateWhileDownloading(gateway);
            assertThat(report).contains("\"verdict\":\"shrunk\"");
            Matcher moved = PACKS_MOVED.matcher(report);
            assertThat(moved.find()).as(report).isTrue();
            assertThat(Integer.parseInt(moved.group(1))).as("packs of the kept object moved: %s", report)
                    .isPositive();

            StockClients.Result live = ShippedGateway.launcher(gatewayDir, env, PorRepairReleaseIT.verb("audit", store,
                    "--admin", gateway.adminEndpoint().toString(), "--json"));
            assertThat(live.exitCode()).as("audit of the shrunk store: %s%s", live.stdout(), live.stderr()).isZero();
            readBack(gateway, "back-live.bin");
        }
        int k = k(parametersFile);
        System.out.println("PorShrinkScenario: the store grew from 2^" + INITIAL_K + " to 2^" + grownK
                + " blocks and shrank to 2^" + k);
        assertThat(k).isLessThan(grownK).isGreaterThanOrEqualTo(INITIAL_K);
        return k;
    }

    int grownK() {
        return grownK;
    }

    /** The offline audit ({@code store} the verbs' options) passes; a gateway started again reads the kept object. */
    void auditOfflineAndReadBackAfterARestart(List<String> serve, List<String> store, Map<String, String> env)
            throws Exception {
        StockClients.Result offline = ShippedGateway.launcher(gatewayDir, env, PorRepairReleaseIT.verb("audit", store));
        assertThat(offline.exitCode()).as("audit: %s%s", offline.stdout(), offline.stderr()).isZero();
        try (ShippedGateway gateway = ShippedGateway.start(gatewayDir, serve, env)) {
            readBack(gateway, "back-restarted.bin");
        }
    }

    private void put(ShippedGateway gateway, Path f) {
        StockClients.awsCli(gateway.endpoint(), work, "s3", "cp", f.toString(), "s3://shrinks/" + f.getFileName())
                .requireSuccess();
    }

    private void readBack(ShippedGateway gateway, String as) throws Exception {
        Path back = work.resolve(as);
        StockClients.awsCli(gateway.endpoint(), work, "s3", "cp", "s3://shrinks/" + kept.getFileName(),
                back.toString()).requireSuccess();
        assertThat(Files.mismatch(back, kept)).as("%s read back", kept.getFileName()).isEqualTo(-1L);
    }

    /**
     * {@code POST /admin/por/consolidate} while aws-cli downloads the kept object back to back (from before the POST
     * until it is answered): every download exits 0 and is byte-exact, and one at least ran across the start or the
     * whole of the consolidation. Returns the consolidation's JSON report.
     */
    private String consolidateWhileDownloading(ShippedGateway gateway) throws Exception {
        AtomicBoolean consolidated = new AtomicBoolean();
        List<long[]> spans = new ArrayList<>();
        ExecutorService downloader = Executors.newSingleThreadExecutor();
        try {
            Future<?> downloads = downloader.submit(() -> {
                for (int i = 0; i < MAX_DOWNLOADS && !consolidated.get(); i++) {
                    Path back = work.resolve("back-during-" + i + ".bin");
                    long start = System.nanoTime();
                    StockClients.awsCli(gateway.endpoint(), work, "s3", "cp", "s3://shrinks/" + kept.getFileName(),
                            back.toString()).requireSuccess();
                    long end = System.nanoTime();
                    assertThat(Files.mismatch(back, kept)).as("download %d during the consolidation", i)
                            .isEqualTo(-1L);
                    Files.delete(back);
                    synchronized (spans) {
                        spans.add(new long[] {start, end});
                    }
                }
                return null;
            });
            Thread.sleep(300); // the first download under way: aws-cli starts in about that
            long start = System.nanoTime();
            HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(gateway.adminEndpoint() + "/admin/por/consolidate"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            long end = System.nanoTime();
            consolidated.set(true);
            downloads.get(5, TimeUnit.MINUTES);
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            synchronized (spans) {
                System.out.println("PorShrinkScenario: " + spans.size() + " downloads of " + Files.size(kept)
                        + " bytes during a consolidation of " + TimeUnit.NANOSECONDS.toMillis(end - start) + " ms");
                assertThat(spans).as("a download running while the consolidation ran")
                        .anyMatch(s -> s[0] < end && s[1] > start);
            }
            return answer.body();
        } finally {
            consolidated.set(true);
            downloader.shutdownNow();
        }
    }

    /**
     * gc passes on the admin port (gc-grace 3s) until the dead packs are gone, one retiring them and one after the
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

    /** The k of a PoR server's parameters file. */
    static int k(Path parametersFile) throws Exception {
        Properties parameters = new Properties();
        try (var in = Files.newBufferedReader(parametersFile)) {
            parameters.load(in);
        }
        return Integer.parseInt(parameters.getProperty("k"));
    }
}
