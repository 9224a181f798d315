package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.FsckReport;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectLockMode;
import io.coffer.sdk.testing.TestData;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kills a child JVM running the engine with SIGKILL at random instants during puts, concurrent small puts (whose
 * metadata commits share transactions), multipart completions, garbage collection, versioned overwrites, tag changes
 * of current and noncurrent versions and deletes, and locked versions' refused deletes and legal-hold changes; after each kill every object (every version) it
 * reported committed reads back intact (a locked one with its lock) and fsck finds no damage.
 */
class CrashSafetyTest {
    private static final int KILLS = 4;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "kill -9 during {0}")
    @ValueSource(strings = {"put", "multipart", "gc", "small", "versioned", "locked"})
    void committedObjectsSurviveKillNine(String mode) throws Exception {
        Map<String, long[]> committed = new LinkedHashMap<>();
        Set<String> maybeDeleted = new HashSet<>();
        SplittableRandom random = new SplittableRandom(mode.hashCode());
        long next = 0;
        for (int kill = 0; kill < KILLS; kill++) {
            Process child = start(mode, dir, next);
            List<String> lines = new ArrayList<>();
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8));
            Thread reader = new Thread(() -> {
                try {
                    for (String line; (line = out.readLine()) != null; ) {
                        synchronized (lines) {
                            lines.add(line);
                        }
                    }
                } catch (IOException ignored) {
                    // the stream ends when the child dies
                }
            });
            reader.start();
            // let it commit a few objects, then kill it at a random instant
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (count(lines, "COMMITTED") < 2 + kill && System.nanoTime() < deadline && child.isAlive()) {
                Thread.sleep(20);
            }
            assertThat(child.isAlive()).as("child still running before the kill").isTrue();
            Thread.sleep(mode.equals("multipart") ? random.nextInt(0, 40) : random.nextInt(10, 400));
            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            // every line the child wrote must be read before they are counted: a DELETING line missed here would make a
            // deleted object look lost (the stream ends with the child, so the reader ends too)
            reader.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(reader.isAlive()).as("the child's output read to its end").isFalse();
            synchronized (lines) {
                for (String line : lines) {
                    String[] f = line.split(" ");
                    switch (f[0]) {
                        case "COMMITTED" -> {
                            committed.put(f[1], new long[] {Long.parseLong(f[2]), Long.parseLong(f[3])});
                            next = Math.max(next, Long.parseLong(f[2]) + 1);
                        }
                        case "DELETING" -> maybeDeleted.add(f[1]);
                        case "DELETED-LOCKED" -> throw new AssertionError("a locked version was deleted: " + line);
                        default -> { }
                    }
                }
            }
            next += 1000; // a write in flight at the kill used the next number; never reuse it
            verify(committed, maybeDeleted, mode.equals("locked"));
        }
        assertThat(committed).isNotEmpty();
    }

    @Test
    void oneGibObjectStreamsThroughA256MibHeap() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(javaCommand("-Xmx256m", "large", dir.toString(),
                Long.toString(1L << 30)));
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        assertThat(output).contains("OK ");
    }

    /** {@code locked}: every committed version must also still have its COMPLIANCE retention. */
    private void verify(Map<String, long[]> committed, Set<String> maybeDeleted, boolean locked) throws IOException {
        try (Coffer c = Coffer.builder().directory(dir).build()) {
            for (Map.Entry<String, long[]> e : committed.entrySet()) {
                if (maybeDeleted.contains(e.getKey())) {
                    continue;
                }
                long seed = e.getValue()[0];
                long size = e.getValue()[1];
                // "key@versionId": a version of a versioned key, read by its id whether current or not
                String[] keyAndVersion = e.getKey().split("@", 2);
                String version = keyAndVersion.length == 2 ? keyAndVersion[1] : null;
                try (ObjectContent content = c.getObject("crash", keyAndVersion[0], version, null, info -> { })) {
                    assertThat(TestData.md5Hex(content.stream())).as(e.getKey())
                            .isEqualTo(TestData.md5Hex(TestData.stream(seed, size)));
                }
                if (locked) {
                    assertThat(c.objectLock(c.headBucket("crash"), keyAndVersion[0], version).mode()).as(e.getKey())
                            .isEqualTo(ObjectLockMode.COMPLIANCE);
                }
            }
            FsckReport report = c.fsck(true);
            assertThat(report.damaged()).isEmpty();
        }
    }

    private static int count(List<String> lines, String prefix) {
        synchronized (lines) {
            return (int) lines.stream().filter(l -> l.startsWith(prefix)).count();
        }
    }

    private static Process start(String mode, Path dir, long first) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(javaCommand("-Xmx256m", mode, dir.toString(), Long.toString(first)));
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        return pb.start();
    }

    private static List<String> javaCommand(String heap, String... args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(java, heap, "-cp", cp, CrashWorkload.class.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }
}
