package io.coffer.gateway.clients;

import static org.junit.jupiter.api.Assertions.fail;

import io.coffer.gateway.testing.CofferGatewayExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * The clients the suite runs as subprocesses: aws-cli v1 and boto3 from the virtual environment that
 * {@code ./coffer test} creates ({@code .venv/}) and names with {@code -Dcoffer.python} and {@code -Dcoffer.aws}, and
 * rclone, the Docker registry and crane, which it builds from source into {@code .tools/bin/} and names with
 * {@code -Dcoffer.rclone}, {@code -Dcoffer.registry} and {@code -Dcoffer.crane}. A test that needs one fails (never
 * skips) when it is missing.
 */
public final class ExternalClients {
    private static final String HOW = " (run ./coffer test, which installs aws-cli, boto3 and moto[server] into .venv/,"
            + " builds rclone, registry and crane into .tools/bin/ and passes -Dcoffer.python=.venv/bin/python"
            + " -Dcoffer.aws=.venv/bin/aws -Dcoffer.moto=.venv/bin/moto_server -Dcoffer.rclone=.tools/bin/rclone"
            + " -Dcoffer.registry=.tools/bin/registry"
            + " -Dcoffer.crane=.tools/bin/crane to Maven)";

    /** What a finished subprocess printed. */
    public record Result(int exitCode, String stdout, String stderr) {
        public Result requireSuccess(List<String> command) {
            if (exitCode != 0) {
                fail("exit code " + exitCode + " from " + String.join(" ", command) + "\nstdout:\n" + stdout
                        + "\nstderr:\n" + stderr);
            }
            return this;
        }
    }

    private ExternalClients() {
    }

    static Path python() {
        return executable("coffer.python", "the venv's python with boto3");
    }

    static Path aws() {
        return executable("coffer.aws", "aws-cli v1");
    }

    static Path rclone() {
        return executable("coffer.rclone", "rclone");
    }

    static Path registry() {
        return executable("coffer.registry", "the Docker registry (distribution)");
    }

    static Path crane() {
        return executable("coffer.crane", "crane (go-containerregistry)");
    }

    /** The executable named by system property {@code property}; fails the test, saying how to get it, if absent. */
    public static Path executable(String property, String what) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            fail("-D" + property + " is not set: this test needs " + what + HOW);
        }
        Path p = Path.of(value);
        if (!Files.isExecutable(p)) {
            fail(property + "=" + value + " is not an executable file: this test needs " + what + HOW);
        }
        return p;
    }

    /** The directory of test resource {@code clients/python}: the boto3 script and sitecustomize.py. */
    static Path pythonSupportDir() {
        URL url = ExternalClients.class.getResource("/clients/python/sitecustomize.py");
        if (url == null) {
            throw new IllegalStateException("test resource clients/python/sitecustomize.py is missing");
        }
        try {
            return Path.of(url.toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs the boto3 script {@code script} of {@link #pythonSupportDir()} against {@code gateway} with its JSON
     * arguments ({@code argsJson}) and answers the JSON object it printed on its last line; a failing script fails.
     */
    static JsonNode boto3Script(CofferGatewayExtension gateway, Path work, String script, String argsJson,
                                Duration timeout) {
        List<String> command = List.of(python().toString(), pythonSupportDir().resolve(script).toString(), argsJson);
        Result r = run(command, Map.of("AWS_ACCESS_KEY_ID", gateway.accessKeyId(), "AWS_SECRET_ACCESS_KEY",
                gateway.secretKey()), work, timeout).requireSuccess(command);
        return JsonNode.parser().parse(r.stdout().strip().lines().reduce((a, b) -> b).orElseThrow());
    }

    /**
     * Runs {@code command} with a clean AWS environment: the given credentials, region us-east-1, no shared
     * credentials or instance metadata, and PYTHONPATH set so *.localhost resolves to loopback.
     */
    static Result run(List<String> command, Map<String, String> env, Path workDir, Duration timeout) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile());
        Map<String, String> e = pb.environment();
        e.keySet().removeIf(k -> k.startsWith("AWS_") || k.startsWith("BOTO_"));
        e.put("AWS_DEFAULT_REGION", "us-east-1");
        e.put("AWS_SHARED_CREDENTIALS_FILE", workDir.resolve("no-shared-credentials").toString());
        e.put("AWS_EC2_METADATA_DISABLED", "true");
        e.put("PYTHONPATH", pythonSupportDir().toString());
        e.put("PYTHONDONTWRITEBYTECODE", "1");
        e.putAll(env);
        return run(pb, workDir, timeout);
    }

    /**
     * Starts {@code pb} (its command, directory and environment as given) with an empty standard input, waits at most
     * {@code timeout} (then kills it and fails the test) and returns what it printed.
     */
    public static Result run(ProcessBuilder pb, Path workDir, Duration timeout) {
        List<String> command = pb.command();
        try {
            Path out = Files.createTempFile(workDir, "stdout", ".txt");
            Path err = Files.createTempFile(workDir, "stderr", ".txt");
            pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE);
            Process p = pb.start();
            p.getOutputStream().close();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                fail("timed out after " + timeout + ": " + String.join(" ", command) + "\nstderr:\n"
                        + Files.readString(err, StandardCharsets.UTF_8));
            }
            Result r = new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
            Files.delete(out);
            Files.delete(err);
            return r;
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot run " + command, ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + command, ex);
        }
    }
}
