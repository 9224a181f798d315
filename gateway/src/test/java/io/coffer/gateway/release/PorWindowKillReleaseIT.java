package io.coffer.gateway.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * kill -9 of the shipped launcher's gateway ({@code ./coffer serve --por embedded}) inside C's paced rebuild windows
 * and during a consolidation, restarted on the same data each time.
 *
 * <p>Windows: a store of 2^6 blocks of 16 KiB (an epoch every 64 block writes) takes 256 KiB puts with aws-cli over
 * a few keys, overwritten in turn, while gc (interval and grace 1s) frees the packs they replace, so epochs end every
 * few puts and their windows open and switch. Kills come at seeded instants within a put; most wait for the window
 * record ({@code data/por/server/window}) to exist, and the test counts those that found it there. Only a put a kill
 * cut may fail, its retry succeeds; the objects never overwritten and each key's last acknowledged put read back
 * byte-exact and the live and offline audits pass.
 *
 * <p>Consolidation: the store grows to hold 6 MiB, five objects are deleted and collected, and {@code ./coffer
 * por-consolidate --admin} is cut twice by a SIGKILL a seeded delay after the gateway logs that it consolidates
 * (sampled over twice the time a read of the kept object takes, what a move reads and writes); after each restart the
 * kept object reads back and audits pass, and a last consolidation leaves the store smaller than it grew.
 */
class PorWindowKillReleaseIT {
    private static final int BLOCK_BYTES = 16384;
    private static final int WINDOW_K = 6;
    private static final int KEYS = 3;
    private static final int PUTS = 18;
    private static final int PUT_BYTES = 256 << 10;
    /** Kills that wait for the window record, then kills at their instant whatever the state. */
    private static final int WINDOW_KILLS = 3;
    private static final int PLAIN_KILLS = 1;
    /** Consolidations cut, each kill sampled over twice the span of the one before. */
    private static final int CONSOLIDATION_KILLS = 3;
    private static final String CONSOLIDATING = "PoR store consolidating:";

    @TempDir
    Path work;

    @Test
    void anEmbeddedGatewayKilledInsidePacedRebuildWindowsLosesNoAcknowledgedObject() throws Exception {
        Path gatewayDir = Files.createDirectories(work.resolve("gateway"));
        List<String> serve = List.of("--por", "embedded", "--por-k", Integer.toString(WINDOW_K), "--por-block-size",
                Integer.toString(BLOCK_BYTES), "--gc-grace", "1s", "--gc-interval", "1s");
        List<String> store = List.of("--por", "embedded");
        ShippedGateway[] gateway = {ShippedGateway.start(gatewayDir, serve, Map.of())};
        int[] starts = {0};
        try {
            putThroughKills(new GrowKills.Target() {
                @Override
                public URI endpoint() {
                    return gateway[0].endpoint();
                }

                @Override
                public String gatewayLog() {
                    return gateway[0].output();
                }

                @Override
                public void kill() throws Exception {
                    gateway[0].kill();
                }

                @Override
                public void restart() throws Exception {
                    gateway[0] = restartGateway(gatewayDir, serve, ++starts[0]);
                }

                @Override
                public String restartedLog() {
                    return gateway[0].output();
                }
            }, gatewayDir.resolve("data/por/server/window"));
            PorGrowKillReleaseIT.auditLive(gatewayDir, store, gateway[0]);
        } finally {
            gateway[0].close();
        }
        auditOffline(gatewayDir, store);
    }

    @Test
    void aPorServerKilledInsidePacedRebuildWindowsUnderARunningGatewayLosesNoAcknowledgedObject() throws Exception {
        Path gatewayDir = Files.createDirectories(work.resolve("gateway"));
        Process[] server = {null};
        int[] starts = {0};
        Path[] log = {work.resolve("por-server-0.log")};
        server[0] = PorGrowKillReleaseIT.launchPorServer(work, log[0], 0, WINDOW_K, BLOCK_BYTES);
        int port = PorServerReleaseIT.awaitListening(server[0], log[0]);
        List<String> remote = List.of("--por", "127.0.0.1:" + port, "--por-key-file",
                work.resolve("por/session.key").toString());
        try (ShippedGateway gateway = ShippedGateway.start(gatewayDir, concat(remote, "--gc-grace", "1s",
                "--gc-interval", "1s"), Map.of())) {
            putThroughKills(new GrowKills.Target() {
                @Override
                public URI endpoint() {
                    return gateway.endpoint();
                }

                @Override
                public String gatewayLog() {
                    return gateway.output();
                }

                @Override
                public void kill() throws Exception {
                    server[0].destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }

                @Override
                public void restart() throws Exception {
                    log[0] = work.resolve("por-server-" + ++starts[0] + ".log");
                    server[0] = PorGrowKillReleaseIT.launchPorServer(work, log[0], port, WINDOW_K, BLOCK_BYTES);
                    PorServerReleaseIT.awaitListening(server[0], log[0]);
                }

                @Override
                public String restartedLog() {
                    return GrowKills.read(log[0]);
                }
            }, work.resolve("por/window"));
            PorGrowKillReleaseIT.auditLive(gatewayDir, remote, gateway);
        } finally {
            server[0].destroy();
            if (!server[0].waitFor(60, TimeUnit.SECONDS)) {
                server[0].destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * Puts with aws-cli through the target's gateway, overwriting {@link #KEYS} keys in turn, and kills the target
     * during puts: each kill at an instant sampled after aws-cli's own start (measured with a head-bucket) over the
     * rest of the last uncut put's time; the first {@link #WINDOW_KILLS} wait from there for the window record
     * {@code window} (or pass to a later put). The put a kill cut is retried after the restart and must succeed then;
     * the objects never overwritten and each key's last put read back byte-exact.
     */
    private void putThroughKills(GrowKills.Target target, Path window) throws Exception {
        Random random = new Random(GrowKills.seed());
        List<Path> kept = List.of(
                ReleaseChecks.randomFile(work.resolve("in/kept-0.bin"), 100, PUT_BYTES),
                ReleaseChecks.randomFile(work.resolve("in/kept-1.bin"), 101, 3 * BLOCK_BYTES + 7));
        StockClients.awsCli(target.endpoint(), work, "s3", "mb", "s3://windows").requireSuccess();
        for (Path f : kept) {
            StockClients.awsCli(target.endpoint(), work, "s3", "cp", f.toString(), "s3://windows/"
                    + f.getFileName()).requireSuccess();
        }
        long overhead = System.nanoTime();
        StockClients.awsCliOnce(target.endpoint(), work, "s3api", "head-bucket", "--bucket", "windows")
                .requireSuccess();
        overhead = System.nanoTime() - overhead;
        Map<String, Path> expected = new HashMap<>();
        kept.forEach(f -> expected.put(f.getFileName().toString(), f));
        List<String> kills = new ArrayList<>();
        int windowKills = 0;
        int windowsSeen = 0;
        boolean open = Files.exists(window);
        long lastPut = 0;
        ExecutorService clients = Executors.newSingleThreadExecutor();
        try {
            for (int i = 0; i < PUTS; i++) {
                Path file = ReleaseChecks.randomFile(work.resolve("in/put-" + i + ".bin"), 200 + i, PUT_BYTES + i);
                String key = "key-" + i % KEYS;
                for (int attempt = 1; ; attempt++) {
                    boolean waitForWindow = kills.size() < WINDOW_KILLS;
                    long started = System.nanoTime();
                    long killAt = attempt == 1 && lastPut > 0 && kills.size() < WINDOW_KILLS + PLAIN_KILLS
                            ? started + overhead + sample(random, Math.max(lastPut - overhead, 0)) : Long.MAX_VALUE;
                    URI endpoint = target.endpoint();
                    Future<StockClients.Result> put = clients.submit(() -> StockClients.awsCliOnce(endpoint, work,
                            "s3", "cp", file.toString(), "s3://windows/" + key));
                    String killed = null;
                    while (!put.isDone() && killed == null) {
                        boolean openNow = Files.exists(window);
                        windowsSeen += openNow && !open ? 1 : 0;
                        open = openNow;
                        if (System.nanoTime() >= killAt && (open || !waitForWindow)) {
                            target.kill();
                            windowKills += open ? 1 : 0;
                            killed = "put " + i + " (" + key + "), " + TimeUnit.NANOSECONDS.toMillis(
                                    System.nanoTime() - started) + " ms in (aws-cli's start "
                                    + TimeUnit.NANOSECONDS.toMillis(overhead) + " ms), the window record "
                                    + (open ? "present" : "absent");
                        }
                        Thread.sleep(2);
                    }
                    StockClients.Result r = put.get(5, TimeUnit.MINUTES);
                    if (killed != null) {
                        target.restart();
                        kills.add(killed + "; the put " + (r.exitCode() == 0 ? "acknowledged" : "cut")
                                + "; at restart: the window record " + (Files.exists(window) ? "present" : "absent")
                                + (GrowKills.found(target.restartedLog()).isEmpty() ? ""
                                        : ", " + GrowKills.found(target.restartedLog())));
                        System.out.println("PorWindowKillReleaseIT: SIGKILL at " + kills.get(kills.size() - 1));
                    } else if (r.exitCode() == 0) {
                        lastPut = System.nanoTime() - started;
                    }
                    if (r.exitCode() == 0) {
                        expected.put(key, file);
                        break;
                    }
                    assertThat(killed).as("put %d (attempt %d) failed with no kill: %s%s; the gateway's log:\n%s",
                            i, attempt, r.stdout(), r.stderr(), target.gatewayLog()).isNotNull();
                }
            }
        } finally {
            clients.shutdownNow();
        }
        System.out.println("PorWindowKillReleaseIT: " + windowsSeen + " windows seen opening, " + kills.size()
                + " kills, " + windowKills + " with the window record present");
        assertThat(kills).hasSize(WINDOW_KILLS + PLAIN_KILLS);
        assertThat(windowKills).as("kills inside a window").isGreaterThanOrEqualTo(WINDOW_KILLS);
        assertReadBack(target.endpoint(), "windows", expected);
    }

    @Test
    void aConsolidationCutByKillsOfTheGatewayLosesNoObjectAndALaterOneShrinks() throws Exception {
        Path gatewayDir = Files.createDirectories(work.resolve("gateway"));
        List<String> serve = List.of("--por", "embedded", "--por-k", Integer.toString(WINDOW_K), "--por-block-size",
                Integer.toString(BLOCK_BYTES), "--gc-grace", "1s", "--gc-interval", "0");
        List<String> store = List.of("--por", "embedded");
        Path parametersFile = gatewayDir.resolve("data/por/server/parameters");
        Random random = new Random(GrowKills.seed());
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            files.add(ReleaseChecks.randomFile(work.resolve("in/object-" + i + ".bin"), 300 + i, (1L << 20) + i));
        }
        Path kept = files.get(files.size() - 1); // put last: its packs lie highest, so the consolidation moves them
        Map<String, Path> expected = Map.of(kept.getFileName().toString(), kept);
        ShippedGateway[] gateway = {ShippedGateway.start(gatewayDir, serve, Map.of())};
        ExecutorService verbs = Executors.newSingleThreadExecutor();
        int grownK;
        List<String> kills = new ArrayList<>();
        try {
            StockClients.awsCli(gateway[0].endpoint(), work, "s3", "mb", "s3://shrinks").requireSuccess();
            for (Path f : files) {
                StockClients.awsCli(gateway[0].endpoint(), work, "s3", "cp", f.toString(), "s3://shrinks/"
                        + f.getFileName()).requireSuccess();
            }
            grownK = PorShrinkReleaseIT.k(parametersFile);
            for (Path f : files) {
                if (!f.equals(kept)) {
                    StockClients.awsCli(gateway[0].endpoint(), work, "s3", "rm", "s3://shrinks/" + f.getFileName())
                            .requireSuccess();
                }
            }
            PorShrinkReleaseIT.collect(gateway[0].adminEndpoint(), 128);
            long read = System.nanoTime();
            assertReadBack(gateway[0].endpoint(), "shrinks", expected);
            long span = 2 * (System.nanoTime() - read);
            for (int cut = 1; cut <= CONSOLIDATION_KILLS; cut++) {
                URI admin = gateway[0].adminEndpoint();
                Future<StockClients.Result> consolidate = verbs.submit(() -> ShippedGateway.launcher(gatewayDir,
                        Map.of(), PorRepairReleaseIT.verb("por-consolidate", store, "--admin", admin.toString(),
                                "--json")));
                while (!gateway[0].output().contains(CONSOLIDATING) && !consolidate.isDone()) {
                    Thread.sleep(2);
                }
                if (!gateway[0].output().contains(CONSOLIDATING)) {
                    System.out.println("PorWindowKillReleaseIT: nothing left to consolidate after " + kills.size()
                            + " cut: " + consolidate.get().stdout().trim());
                    break;
                }
                long delay = sample(random, span);
                TimeUnit.NANOSECONDS.sleep(delay);
                boolean shrunk = gateway[0].output().contains("PoR store shrunk from");
                gateway[0].kill();
                StockClients.Result r = consolidate.get(5, TimeUnit.MINUTES);
                kills.add("consolidation " + cut + ", " + TimeUnit.NANOSECONDS.toMillis(delay) + " ms after it began"
                        + " (sampled over " + TimeUnit.NANOSECONDS.toMillis(span) + " ms), "
                        + (shrunk ? "after the shrink was logged" : "before its end") + "; the verb: exit "
                        + r.exitCode());
                System.out.println("PorWindowKillReleaseIT: SIGKILL at " + kills.get(kills.size() - 1));
                span *= 2; // the next kill reaches further: through the moves into the shrink
                gateway[0] = restartGateway(gatewayDir, serve, cut);
                assertReadBack(gateway[0].endpoint(), "shrinks", expected);
                PorGrowKillReleaseIT.auditLive(gatewayDir, store, gateway[0]);
            }
            StockClients.Result last = ShippedGateway.launcher(gatewayDir, Map.of(), PorRepairReleaseIT.verb(
                    "por-consolidate", store, "--admin", gateway[0].adminEndpoint().toString(), "--json"));
            assertThat(last.exitCode()).as("%s%s", last.stdout(), last.stderr()).isZero();
            System.out.println("PorWindowKillReleaseIT: the consolidation after the kills: " + last.stdout().trim()
                    + gateway[0].output().lines().filter(l -> l.contains("zeroing")).map(l -> "; " + l).findFirst()
                    .orElse(""));
            assertReadBack(gateway[0].endpoint(), "shrinks", expected);
            PorGrowKillReleaseIT.auditLive(gatewayDir, store, gateway[0]);
        } finally {
            verbs.shutdownNow();
            gateway[0].close();
        }
        int k = PorShrinkReleaseIT.k(parametersFile);
        System.out.println("PorWindowKillReleaseIT: grew from 2^" + WINDOW_K + " to 2^" + grownK + ", shrank to 2^" + k
                + " with " + kills.size() + " consolidations cut");
        assertThat(k).as("k after the consolidations").isLessThan(grownK).isGreaterThanOrEqualTo(WINDOW_K);
        auditOffline(gatewayDir, store);
    }

    /** Restarts the gateway on the same data, keeping the killed one's log beside it. */
    private static ShippedGateway restartGateway(Path gatewayDir, List<String> serve, int kill) throws Exception {
        Files.copy(gatewayDir.resolve("gateway.log"), gatewayDir.resolve("gateway-killed-" + kill + ".log"));
        return ShippedGateway.start(gatewayDir, serve, Map.of());
    }

    private static void assertReadBack(URI endpoint, String bucket, Map<String, Path> expected) throws Exception {
        try (S3Client s3 = SoakClients.client(endpoint, 2)) {
            for (Map.Entry<String, Path> e : expected.entrySet()) {
                byte[] back = s3.getObjectAsBytes(b -> b.bucket(bucket).key(e.getKey())).asByteArray();
                assertThat(back).as("%s read back", e.getKey()).isEqualTo(Files.readAllBytes(e.getValue()));
            }
        }
    }

    private static void auditOffline(Path gatewayDir, List<String> store) throws Exception {
        StockClients.Result offline = ShippedGateway.launcher(gatewayDir, Map.of(), PorRepairReleaseIT.verb("audit",
                store));
        assertThat(offline.exitCode()).as("audit: %s%s", offline.stdout(), offline.stderr()).isZero();
    }

    private static List<String> concat(List<String> a, String... more) {
        List<String> all = new ArrayList<>(a);
        all.addAll(List.of(more));
        return all;
    }

    /** A delay in [1 ms, {@code spanNanos}], uniform. */
    private static long sample(Random random, long spanNanos) {
        return TimeUnit.MILLISECONDS.toNanos(1) + (long) (random.nextDouble() * spanNanos);
    }
}
