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
 * kill -9 of the shipped launcher's processes inside C's paced rebuild windows and during a consolidation, each
 * restarted on the same data.
 *
 * <p>Windows: a store of 2^6 blocks of 16 KiB (an epoch every 64 block writes) takes 256 KiB puts with aws-cli over
 * a few keys, overwritten in turn, while gc (interval 1s, grace 2s) frees the packs they replace, so epochs end every
 * few puts and their windows open and switch. The target is the gateway ({@code serve --por embedded}) or
 * {@code ./coffer por-server} under a running gateway, which reconnects. Kills come at seeded instants within a put;
 * the first ones wait for the window record ({@code window} in the server's directory) to exist, and the test counts
 * those that found it there. Only a put a kill cut may fail, its retry succeeds; the objects never overwritten and
 * each key's last acknowledged put read back byte-exact and audits pass.
 *
 * <p>Consolidation: the store grows to hold 6 MiB, five objects are deleted and collected, and {@code ./coffer
 * por-consolidate --admin} is cut by a SIGKILL of the gateway a seeded delay after the gateway logs that it
 * consolidates, up to three times: the first delay sampled over twice the time a read of the kept object takes (what
 * a move reads and writes), each next over twice the span before, so later kills reach the shrink. After each restart
 * the kept object reads back and the live audit passes; a last consolidation (unchanged if a kill came after the
 * shrink) leaves the store smaller than it grew, and the offline audit passes.
 */
class PorWindowKillReleaseIT {
    private static final int BLOCK_BYTES = 16384;
    private static final int WINDOW_K = 6;
    private static final int KEYS = 3;
    private static final int PUTS = 18;
    private static final int PUT_BYTES = 256 << 10;
    /**
     * gc's grace for the window tests: short, so replaced packs are freed and written over within the test, but a put
     * that grows the store on a loaded machine (800 ms seen) stays under the gateway's three quarters of it.
     */
    private static final String GRACE = "2s";
    /** The gateway's log line of a write refused for taking longer than gc's grace allows (ObjectWriter). */
    private static final String SLOW_WRITE = "longer than three quarters of the gc grace period";
    private static final int SLOW_RETRIES = 3;
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
        List<String> store = List.of("--por", "embedded");
        try (KillTargets.EmbeddedGateway target = new KillTargets.EmbeddedGateway(gatewayDir, concat(store, "--por-k",
                Integer.toString(WINDOW_K), "--por-block-size", Integer.toString(BLOCK_BYTES), "--gc-grace", GRACE,
                "--gc-interval", "1s"))) {
            putThroughKills(target, gatewayDir.resolve("data/por/server/window"));
            PorGrowKillReleaseIT.auditLive(gatewayDir, store, target.gateway());
        }
        auditOffline(gatewayDir, store);
    }

    @Test
    void aPorServerKilledInsidePacedRebuildWindowsUnderARunningGatewayLosesNoAcknowledgedObject() throws Exception {
        Path gatewayDir = Files.createDirectories(work.resolve("gateway"));
        try (KillTargets.PorServer server = new KillTargets.PorServer(work, WINDOW_K, BLOCK_BYTES)) {
            try (ShippedGateway gateway = ShippedGateway.start(gatewayDir, concat(server.attach(), "--gc-grace", GRACE,
                    "--gc-interval", "1s"), Map.of())) {
                putThroughKills(server.under(gateway), work.resolve("por/window"));
                PorGrowKillReleaseIT.auditLive(gatewayDir, server.attach(), gateway);
            }
            auditOffline(gatewayDir, server.attach()); // the gateway stopped, the server up
        }
    }

    /**
     * Puts with aws-cli through the target's gateway, overwriting {@link #KEYS} keys in turn, and kills the target
     * during puts: each kill at an instant sampled after aws-cli's own start (measured with a head-bucket; at most
     * half of the last uncut put's time) over the rest of that put's time; the first {@link #WINDOW_KILLS} wait from
     * there for the window record {@code window} (or pass to a later put). The put a kill cut is retried after the
     * restart and must succeed then; the objects never overwritten and each key's last put read back byte-exact.
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
        int slowSeen = 0; // the gateway's log starts again at a restart: counted in the current log
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
                    // aws-cli's start, measured once, may exceed a later put's time on a loaded machine: at most
                    // half of the last put is taken as the start, so every kill instant falls inside a put
                    long lead = Math.min(overhead, lastPut / 2);
                    long killAt = attempt == 1 && lastPut > 0 && kills.size() < WINDOW_KILLS + PLAIN_KILLS
                            ? started + lead + sample(random, lastPut - lead) : Long.MAX_VALUE;
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
                        slowSeen = 0;
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
                    // a put slower than three quarters of the short gc grace is refused, retryable (500), as aws-cli
                    // with its default retries would retry it: once per put on a loaded machine, never as a loss
                    int slow = GrowKills.occurrences(target.gatewayLog(), SLOW_WRITE);
                    if (killed == null && slow > slowSeen && attempt <= SLOW_RETRIES) {
                        slowSeen = slow;
                        System.out.println("PorWindowKillReleaseIT: put " + i + " refused as slower than the gc"
                                + " grace allows; retried");
                        continue;
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
        // a window may switch before a kill's instant comes: how many landed inside one is printed, one at least
        assertThat(windowKills).as("kills inside a window").isPositive();
        assertReadBack(target.endpoint(), "windows", expected);
    }

    @Test
    void aConsolidationCutByKillsOfTheGatewayLosesNoObjectAndALaterOneShrinks() throws Exception {
        Path gatewayDir = Files.createDirectories(work.resolve("gateway"));
        List<String> serve = concat(List.of("--por", "embedded", "--por-k", Integer.toString(WINDOW_K),
                "--por-block-size", Integer.toString(BLOCK_BYTES)),
                PorShrinkScenario.GC_OPTIONS.toArray(String[]::new));
        List<String> store = List.of("--por", "embedded");
        Path parametersFile = gatewayDir.resolve("data/por/server/parameters");
        Random random = new Random(GrowKills.seed());
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            files.add(ReleaseChecks.randomFile(work.resolve("in/object-" + i + ".bin"), 300 + i, (1L << 20) + i));
        }
        Path kept = files.get(files.size() - 1); // put last: its packs lie highest, so the consolidation moves them
        Map<String, Path> expected = Map.of(kept.getFileName().toString(), kept);
        KillTargets.EmbeddedGateway target = new KillTargets.EmbeddedGateway(gatewayDir, serve);
        ExecutorService verbs = Executors.newSingleThreadExecutor();
        int grownK;
        List<String> kills = new ArrayList<>();
        try {
            StockClients.awsCli(target.endpoint(), work, "s3", "mb", "s3://shrinks").requireSuccess();
            for (Path f : files) {
                StockClients.awsCli(target.endpoint(), work, "s3", "cp", f.toString(), "s3://shrinks/"
                        + f.getFileName()).requireSuccess();
            }
            grownK = PorShrinkScenario.k(parametersFile);
            for (Path f : files) {
                if (!f.equals(kept)) {
                    StockClients.awsCli(target.endpoint(), work, "s3", "rm", "s3://shrinks/" + f.getFileName())
                            .requireSuccess();
                }
            }
            PorShrinkScenario.collect(target.gateway().adminEndpoint(), 128);
            long read = System.nanoTime();
            assertReadBack(target.endpoint(), "shrinks", expected);
            long span = 2 * (System.nanoTime() - read);
            for (int cut = 1; cut <= CONSOLIDATION_KILLS; cut++) {
                URI admin = target.gateway().adminEndpoint();
                Future<StockClients.Result> consolidate = verbs.submit(() -> ShippedGateway.launcher(gatewayDir,
                        Map.of(), PorRepairReleaseIT.verb("por-consolidate", store, "--admin", admin.toString(),
                                "--json")));
                while (!target.gatewayLog().contains(CONSOLIDATING) && !consolidate.isDone()) {
                    Thread.sleep(2);
                }
                if (!target.gatewayLog().contains(CONSOLIDATING)) {
                    System.out.println("PorWindowKillReleaseIT: nothing left to consolidate after " + kills.size()
                            + " cut: " + consolidate.get().stdout().trim());
                    break;
                }
                long delay = sample(random, span);
                TimeUnit.NANOSECONDS.sleep(delay);
                boolean shrunk = target.gatewayLog().contains("PoR store shrunk from");
                target.kill();
                StockClients.Result r = consolidate.get(5, TimeUnit.MINUTES);
                kills.add("consolidation " + cut + ", " + TimeUnit.NANOSECONDS.toMillis(delay) + " ms after it began"
                        + " (sampled over " + TimeUnit.NANOSECONDS.toMillis(span) + " ms), "
                        + (shrunk ? "after the shrink was logged" : "before the shrink was logged") + "; the verb: exit "
                        + r.exitCode());
                System.out.println("PorWindowKillReleaseIT: SIGKILL at " + kills.get(kills.size() - 1));
                span *= 2; // the next kill reaches further: through the moves into the shrink
                target.restart();
                assertReadBack(target.endpoint(), "shrinks", expected);
                PorGrowKillReleaseIT.auditLive(gatewayDir, store, target.gateway());
            }
            StockClients.Result last = ShippedGateway.launcher(gatewayDir, Map.of(), PorRepairReleaseIT.verb(
                    "por-consolidate", store, "--admin", target.gateway().adminEndpoint().toString(), "--json"));
            assertThat(last.exitCode()).as("%s%s", last.stdout(), last.stderr()).isZero();
            System.out.println("PorWindowKillReleaseIT: the consolidation after the kills: " + last.stdout().trim()
                    + target.gatewayLog().lines().filter(l -> l.contains("zeroing")).map(l -> "; " + l).findFirst()
                    .orElse(""));
            assertReadBack(target.endpoint(), "shrinks", expected);
            PorGrowKillReleaseIT.auditLive(gatewayDir, store, target.gateway());
        } finally {
            verbs.shutdownNow();
            target.close();
        }
        int k = PorShrinkScenario.k(parametersFile);
        System.out.println("PorWindowKillReleaseIT: grew from 2^" + WINDOW_K + " to 2^" + grownK + ", shrank to 2^" + k
                + " with " + kills.size() + " consolidations cut");
        assertThat(k).as("k after the consolidations").isLessThan(grownK).isGreaterThanOrEqualTo(WINDOW_K);
        auditOffline(gatewayDir, store);
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
