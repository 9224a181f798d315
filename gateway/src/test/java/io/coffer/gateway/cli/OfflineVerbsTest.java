package io.coffer.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.Coffer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fsck, gc and reindex as an operator runs them, each in a JVM of its own: they open only an existing store, and no
 * two processes (serve included) work on one data directory at once.
 */
class OfflineVerbsTest {
    @TempDir
    Path dir;

    private record Result(int exit, String output) {
    }

    /** {@code coffer ARGS} in a child JVM on the test classpath, with no COFFER_* settings from this environment. */
    private static Result coffer(String... args) throws Exception {
        Process p = start(args);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("coffer %s finished", String.join(" ", args)).isTrue();
        return new Result(p.exitValue(), out);
    }

    private static Process start(String... args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(java, "-cp", cp, "io.coffer.gateway.cli.CofferCommand"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("COFFER_"));
        return pb.start();
    }

    @Test
    void offlineVerbsRefuseADirectoryThatHoldsNoStoreAndCreateNothing() throws Exception {
        Path missing = dir.resolve("no/such/dir");
        Path empty = Files.createDirectory(dir.resolve("empty"));
        for (String verb : List.of("fsck", "gc", "reindex")) {
            Result r = coffer(verb, "--data", missing.toString());
            assertThat(r.exit()).as(verb + ": " + r.output()).isNotZero();
            assertThat(r.output()).as(verb).contains("no Coffer store in " + missing).doesNotContain("clean");
            assertThat(missing.getParent().getParent()).as(verb).doesNotExist();

            r = coffer(verb, "--data", empty.toString());
            assertThat(r.exit()).as(verb + ": " + r.output()).isNotZero();
            assertThat(r.output()).as(verb).contains("no Coffer store in " + empty);
            try (var files = Files.list(empty)) {
                assertThat(files).as(verb).isEmpty();
            }
        }
    }

    @Test
    void fsckAndGcRefuseAStoreWhoseMetadataIsLostAndReindexRebuildsIt() throws Exception {
        Path data = dir.resolve("data");
        Coffer.builder().directory(data).build().close();
        Files.delete(data.resolve("coffer.db"));
        for (String verb : List.of("fsck", "gc")) {
            Result r = coffer(verb, "--data", data.toString());
            assertThat(r.exit()).as(verb + ": " + r.output()).isNotZero();
            assertThat(r.output()).as(verb).contains("no metadata in " + data.resolve("coffer.db"))
                    .contains("reindex");
        }
        Result r = coffer("reindex", "--data", data.toString());
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output()).contains("buckets: 0").contains("clean");
        assertThat(coffer("fsck", "--data", data.toString()).exit()).isZero();
    }

    @Test
    void aSecondProcessOnALockedDataDirectoryIsRefusedUntilTheFirstEnds() throws Exception {
        Path data = dir.resolve("data");
        Process serve = start("serve", "--data", data.toString(), "--port", "0", "--admin-port", "0");
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(serve.getInputStream(),
                    StandardCharsets.UTF_8));
            StringBuilder seen = new StringBuilder();
            for (String line = out.readLine(); line != null && !line.contains("endpoint:"); line = out.readLine()) {
                seen.append(line).append('\n');
            }
            assertThat(serve.isAlive()).as("serve started: " + seen).isTrue();

            for (String[] args : List.of(new String[] {"fsck", "--data", data.toString()},
                    new String[] {"gc", "--data", data.toString()},
                    new String[] {"reindex", "--data", data.toString()},
                    new String[] {"serve", "--data", data.toString(), "--port", "0", "--admin-port", "0"})) {
                Result r = coffer(args);
                assertThat(r.exit()).as(args[0] + ": " + r.output()).isNotZero();
                assertThat(r.output()).as(args[0]).contains("data directory " + data + " is in use by Coffer process "
                        + serve.pid());
            }
        } finally {
            serve.destroy();
            assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        Result r = coffer("fsck", "--data", data.toString());
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output()).contains("clean");
    }

    @Test
    void fsckReadDataAndReindexExitOneAndNameADamagedBucketRecord() throws Exception {
        Path data = dir.resolve("data");
        try (Coffer c = Coffer.builder().directory(data).build()) {
            c.createBucket("bkt", "default");
        }
        Path record;
        try (var files = Files.list(data.resolve("blobs/b"))) {
            record = files.findFirst().orElseThrow();
        }
        byte[] b = Files.readAllBytes(record);
        b[b.length - 1] ^= 0x01;
        Files.write(record, b);
        String name = "b/" + record.getFileName();

        Result fsck = coffer("fsck", "--read-data", "--data", data.toString());
        assertThat(fsck.exit()).as(fsck.output()).isEqualTo(1);
        assertThat(fsck.output()).contains("DAMAGED bkt: bucket record " + name + " does not open")
                .contains("DAMAGE FOUND");

        Files.delete(data.resolve("coffer.db"));
        Result reindex = coffer("reindex", "--data", data.toString());
        assertThat(reindex.exit()).as(reindex.output()).isEqualTo(1);
        assertThat(reindex.output()).contains("DAMAGED " + name + ":").contains("buckets: 0");
    }

    @Test
    void anEngineOpenInThisProcessHoldsTheLockAndReleasesItOnClose() throws Exception {
        Path data = dir.resolve("data");
        try (Coffer open = Coffer.builder().directory(data).build()) {
            assertThat(CofferCommand.execute("fsck", "--data", data.toString())).isNotZero();
            assertThat(Assertions.catchThrowable(() -> Coffer.builder().directory(data).build()))
                    .hasMessageContaining("data directory " + data + " is in use");
        }
        assertThat(CofferCommand.execute("fsck", "--data", data.toString())).isZero();
    }
}
