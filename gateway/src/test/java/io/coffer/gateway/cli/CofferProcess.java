package io.coffer.gateway.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * {@code coffer VERB ...} run as a user runs it: the command line's main class in a child JVM, on the runtime
 * classpath only (no test classes, so the shipped logback.xml configures logging), stdout and stderr kept apart, the
 * environment's {@code COFFER_*} variables replaced by the test's own.
 */
final class CofferProcess implements AutoCloseable {
    /** A finished command. */
    record Result(int exitCode, String out, String err) {
    }

    private final Process process;
    private final Path out;
    private final Path err;

    private CofferProcess(Process process, Path out, Path err) {
        this.process = process;
        this.out = out;
        this.err = err;
    }

    /** Runs the command to completion (at most 60 s). */
    static Result run(Path workDir, Map<String, String> env, String... args) throws Exception {
        try (CofferProcess p = start(workDir, env, args)) {
            if (!p.process.waitFor(60, TimeUnit.SECONDS)) {
                throw new AssertionError("coffer " + String.join(" ", args) + " did not finish in 60 s");
            }
            return new Result(p.process.exitValue(), p.out(), p.err());
        }
    }

    /** Starts the command (for {@code serve}); {@link #close()} stops it with SIGTERM. */
    static CofferProcess start(Path workDir, Map<String, String> env, String... args) throws IOException {
        Files.createDirectories(workDir);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-cp", runtimeClasspath(), CofferCommand.class.getName()));
        cmd.addAll(Arrays.asList(args));
        Path out = Files.createTempFile(workDir, "stdout", ".txt");
        Path err = Files.createTempFile(workDir, "stderr", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("COFFER_"));
        pb.environment().putAll(env);
        return new CofferProcess(pb.start(), out, err);
    }

    /** The test JVM's classpath less test classes and test jars: what {@code gateway/target/lib} and the jar hold. */
    private static String runtimeClasspath() {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return Arrays.stream(cp.split(File.pathSeparator))
                .filter(e -> !e.endsWith("test-classes") && !e.endsWith("-tests.jar") && !e.contains("surefire"))
                .collect(Collectors.joining(File.pathSeparator));
    }

    String out() throws IOException {
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    String err() throws IOException {
        return Files.readString(err, StandardCharsets.UTF_8);
    }

    /** Waits until stdout holds a line that matches (at most {@code timeout}); fails with both streams if not. */
    String awaitOut(Predicate<String> line, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (String l : out().split("\n")) {
                if (line.test(l)) {
                    return l;
                }
            }
            if (!process.isAlive()) {
                break;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no such line on stdout; exit " + (process.isAlive() ? "-" : process.exitValue())
                + "\nstdout:\n" + out() + "\nstderr:\n" + err());
    }

    /** Sends SIGTERM and waits for the exit (the gateway shuts down gracefully); returns the exit code. */
    int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        return process.exitValue();
    }

    /** Sends SIGKILL, as a crash or the OOM killer would: no shutdown hook runs. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            stop();
        }
    }
}
