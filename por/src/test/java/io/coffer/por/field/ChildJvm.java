package io.coffer.por.field;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a probe's main class in a child JVM on this test's class path, to see which kernel a JVM's options choose. */
public final class ChildJvm {
    private ChildJvm() {}

    /** The lines {@code main} prints in a child JVM started with {@code options}: at least two, exit status 0. */
    public static List<String> lines(Class<?> main, List<String> options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(options);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] stdout = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("probe exit code").isZero();
        List<String> lines = new String(stdout, StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSizeGreaterThanOrEqualTo(2);
        return lines;
    }
}
