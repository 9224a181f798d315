package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The directory server's memory does not grow with the data: a store of 2^10 blocks of 64 KiB (64 MiB of U, over
 * 200 MiB of U, C and H on disk after 96 writes) is initialised, written, audited, reopened and has lost blocks
 * repaired (C alone is 143 MB of code vectors: the decode goes in slices) in a JVM of 64 MiB heap, in which the
 * in-memory server, the control, runs out of memory.
 */
class BoundedMemoryTest {
    private static final String HEAP = "-Xmx64m";
    private static final List<String> STORE = List.of("10", "2", String.valueOf(64 << 10), "96");

    @TempDir
    Path dir;

    @Test
    void theDirectoryServerRunsInAHeapSmallerThanItsData() throws Exception {
        Result r = run("files");
        assertThat(r.output()).contains("repaired 8 blocks: equal").contains("passed");
        assertThat(r.status()).isZero();
        long onDisk;
        try (Stream<Path> files = Files.list(dir)) {
            onDisk = files.mapToLong(f -> f.toFile().length()).sum();
        }
        assertThat(onDisk).isGreaterThan(3L * (64 << 20)); // three times the heap
    }

    @Test
    void theInMemoryServerDoesNotFitTheSameHeap() throws Exception {
        Result r = run("memory");
        assertThat(r.output()).contains("OutOfMemoryError");
        assertThat(r.status()).isNotZero();
    }

    private record Result(int status, String output) {
    }

    private Result run(String mode) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new java.util.ArrayList<>(List.of(java.toString(), HEAP, "-XX:+UseSerialGC", "-cp",
                System.getProperty("java.class.path"), BoundedMemoryRun.class.getName(), mode, dir.toString()));
        command.addAll(STORE);
        Path log = Files.createTempFile("bounded-memory", ".log");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("the child JVM did not finish in 120 s");
            }
            return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
