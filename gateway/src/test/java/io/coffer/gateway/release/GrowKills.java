package io.coffer.gateway.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Puts objects one at a time through a shipped gateway whose PoR store grows, and kills a process with SIGKILL while
 * a put is in flight: during grows (the gateway's log says when one starts and ends; the delay after the start is
 * sampled over the last uncut grow's duration, the next one being at least as long), and once during a plain put
 * (the delay sampled over the first half of the last put's duration). After a kill the target is restarted and the
 * put is tried again, as an S3 client retries: only the put a kill cut may fail. Seeded: the seed is printed, and
 * {@code -Dcoffer.kill.seed} replays the delays (the moments they start from depend on the machine).
 */
final class GrowKills {
    private static final String GROWING = "PoR store growing from";
    private static final String GROWN = "PoR store grown to";

    /** What is killed and restarted, and the gateway the puts go through. */
    interface Target {
        /** The gateway now running, which the puts go through. */
        ShippedGateway gateway();

        default URI endpoint() {
            return gateway().endpoint();
        }

        /** The log of the gateway now running (whose PorBlobStore writes the grow lines). */
        default String gatewayLog() {
            return gateway().output();
        }

        /** SIGKILL; returns once the process is gone. */
        void kill() throws Exception;

        void restart() throws Exception;

        /** The output of the process restarted last (the PoR server's; embedded, the gateway's). */
        String restartedLog();
    }

    /** One kill: when it came, what it cut, and what the restarted process found. */
    record Kill(int object, String moment, long delayMillis, String found) {
    }

    private final Target target;
    private final Random random;
    private final List<Kill> kills = new ArrayList<>();
    private final List<String> acknowledged = new ArrayList<>();
    /** Grow lines in the logs of gateways that a kill ended (a restarted gateway's log starts empty). */
    private int growingBefore;
    private int grownBefore;

    GrowKills(Target target, long seed) {
        this.target = target;
        this.random = new Random(seed);
    }

    static long seed() {
        long seed = Long.getLong("coffer.kill.seed", System.nanoTime());
        System.out.println("GrowKills: seed " + seed + " (-Dcoffer.kill.seed=" + seed + " replays the delays)");
        return seed;
    }

    List<Kill> kills() {
        return kills;
    }

    /**
     * Puts {@code files} into {@code bucket} in order, killing the target during {@code growKills} grows after the
     * first (whose duration is measured), at most one per object (so per capacity: the grow retried after a kill
     * is let through), and once during the put of {@code plainKill}; every put is acknowledged, the one a kill cut
     * by its retry after the restart.
     */
    void putAll(String bucket, List<Path> files, int growKills, int plainKill) throws Exception {
        ExecutorService puts = Executors.newSingleThreadExecutor();
        try {
            long lastGrow = 0;
            long lastPut = 0;
            for (int i = 0; i < files.size(); i++) {
                Path file = files.get(i);
                for (int attempt = 1; ; attempt++) {
                    int growing = growingBefore + count(GROWING);
                    long started = System.nanoTime();
                    Future<Boolean> put = puts.submit(() -> put(bucket, file));
                    long growStart = 0;
                    boolean growMeasured = false;
                    boolean killed = false;
                    long killAt = i == plainKill && attempt == 1 && lastPut > 0
                            ? started + sample(lastPut / 2) : Long.MAX_VALUE;
                    long delay = 0;
                    String moment = "a put";
                    while (!put.isDone() && !killed) {
                        long now = System.nanoTime();
                        int growingNow = growingBefore + count(GROWING);
                        boolean grown = grownBefore + count(GROWN) >= growingNow;
                        if (growingNow > growing && growStart == 0) {
                            growStart = now;
                            int object = i;
                            if (kills.stream().filter(k -> k.moment().startsWith("grow")).count() < growKills
                                    && lastGrow > 0 && kills.stream().noneMatch(k -> k.object() == object)) {
                                killAt = Math.min(killAt, now + sample(lastGrow));
                                moment = "grow " + growingNow + " (the last uncut one took "
                                        + TimeUnit.NANOSECONDS.toMillis(lastGrow) + " ms)";
                            }
                        } else if (growStart > 0 && grown && !growMeasured) {
                            growMeasured = true;
                            if (killAt == Long.MAX_VALUE) {
                                lastGrow = now - growStart;
                                System.out.println("GrowKills: object " + i + ": grow " + growingNow + " took "
                                        + TimeUnit.NANOSECONDS.toMillis(lastGrow) + " ms");
                            }
                        }
                        if (now >= killAt) {
                            target.kill();
                            killed = true;
                            moment += growStart > 0 && grown ? ", after it ended" : "";
                            delay = killAt - (growStart > 0 ? growStart : started);
                        }
                        Thread.sleep(2);
                    }
                    boolean ok = put.get(10, TimeUnit.MINUTES);
                    if (killed) {
                        growingBefore += count(GROWING);
                        grownBefore += count(GROWN);
                        target.restart();
                        kills.add(new Kill(i, moment, TimeUnit.NANOSECONDS.toMillis(delay), found()));
                        System.out.println("GrowKills: SIGKILL " + kills.get(kills.size() - 1));
                        growingBefore -= count(GROWING); // a restarted gateway's log starts empty; the same log stays
                        grownBefore -= count(GROWN);
                    } else if (ok) {
                        lastPut = System.nanoTime() - started;
                        if (!growMeasured && growingBefore + count(GROWING) > growing) {
                            lastGrow = lastPut; // a grow within the put, too short to see: at most the put's time
                            System.out.println("GrowKills: object " + i + ": a grow within a put of "
                                    + TimeUnit.NANOSECONDS.toMillis(lastPut) + " ms");
                        }
                    }
                    if (ok) {
                        acknowledged.add(file.getFileName().toString());
                        break;
                    }
                    // only the put a kill cut may fail: the one retried after the restart must succeed
                    assertThat(killed).as("put of %s (attempt %d) failed with no kill; the gateway's log:\n%s",
                            file.getFileName(), attempt, target.gatewayLog()).isTrue();
                }
            }
        } finally {
            puts.shutdownNow();
        }
    }

    /** Every acknowledged object reads back byte-exact. */
    void assertReadBack(String bucket, List<Path> files) throws Exception {
        try (S3Client s3 = SoakClients.client(target.endpoint(), 2)) {
            for (Path f : files) {
                String key = f.getFileName().toString();
                if (acknowledged.contains(key)) {
                    byte[] back = s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray();
                    assertThat(back).as("%s read back", key).isEqualTo(Files.readAllBytes(f));
                }
            }
        }
    }

    private boolean put(String bucket, Path file) {
        try (S3Client s3 = SoakClients.client(target.endpoint(), 2)) {
            s3.putObject(b -> b.bucket(bucket).key(file.getFileName().toString()), RequestBody.fromFile(file));
            return true;
        } catch (RuntimeException e) { // refused, reset, or a 5xx: not acknowledged
            System.out.println("GrowKills: put of " + file.getFileName() + " failed: " + e);
            return false;
        }
    }

    /** What the restarted process's log says it made of the state the kill left. */
    private String found() {
        return found(target.restartedLog());
    }

    /** What a restarted process's log says it made of the state a kill left. */
    static String found(String log) {
        List<String> found = new ArrayList<>();
        if (log.contains("growing from 2^")) {
            found.add("a recorded grow, completed at open");
        }
        if (log.contains("resynchronising")) {
            found.add("the client state apart from the server's: resynchronised at open");
        }
        return String.join("; ", found);
    }

    /** A delay in [1 ms, {@code spanNanos}], uniform. */
    private long sample(long spanNanos) {
        return TimeUnit.MILLISECONDS.toNanos(1) + (long) (random.nextDouble() * spanNanos);
    }

    private int count(String line) {
        return occurrences(target.gatewayLog(), line);
    }

    /** How many times {@code what} occurs in {@code text}. */
    static int occurrences(String text, String what) {
        int n = 0;
        for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
            n++;
        }
        return n;
    }

    static String read(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
