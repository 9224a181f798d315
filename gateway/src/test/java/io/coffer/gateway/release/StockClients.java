package io.coffer.gateway.release;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.clients.ExternalClients;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The command-line clients of the release stage, run as a user runs them: only credentials and a region in the
 * environment (as {@code aws configure} would give), no configuration file of the machine's (each client is pointed
 * at a file that does not exist), nothing tuned. {@code ./coffer test} installs them and names them with
 * {@code -Dcoffer.aws}, {@code -Dcoffer.python} (the venv's, with boto3) and {@code -Dcoffer.rclone}; a check whose
 * client is missing fails, never skips.
 */
public final class StockClients {
    /** The access key the clients sign with; the release stage's gateways are started with it. */
    public static final String ACCESS_KEY = "CKRELEASESTAGE000001";
    /** The secret key the clients sign with. */
    public static final String SECRET_KEY = "release-stage-secret-key-0123456789";
    private static final Duration TIMEOUT = Duration.ofMinutes(4);

    /** What a finished client printed. */
    public record Result(int exitCode, String stdout, String stderr) {
        public Result requireSuccess() {
            assertThat(exitCode).as("exit status\nstdout:\n%s\nstderr:\n%s", stdout, stderr).isZero();
            return this;
        }
    }

    private StockClients() {
    }

    static Path aws() {
        return ExternalClients.executable("coffer.aws", "aws-cli");
    }

    static Path python() {
        return ExternalClients.executable("coffer.python", "python with boto3");
    }

    static Path rclone() {
        return ExternalClients.executable("coffer.rclone", "rclone");
    }

    /** Test resource {@code release/NAME}, as a file. */
    static Path resource(String name) {
        URL url = StockClients.class.getResource("/release/" + name);
        assertThat(url).as("test resource release/" + name).isNotNull();
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs {@code aws --endpoint-url ENDPOINT ARGS} in {@code workDir}. */
    public static Result awsCli(URI endpoint, Path workDir, String... args) {
        List<String> command = new ArrayList<>(List.of(aws().toString(), "--endpoint-url", endpoint.toString()));
        command.addAll(List.of(args));
        return run(command, Map.of(), workDir);
    }

    /**
     * Runs {@code aws --endpoint-url ENDPOINT ARGS} in {@code workDir} with the client's retries off (a put cut by a
     * kill fails at once, and the test retries it against the restarted gateway, which listens on another port).
     */
    static Result awsCliOnce(URI endpoint, Path workDir, String... args) {
        List<String> command = new ArrayList<>(List.of(aws().toString(), "--endpoint-url", endpoint.toString()));
        command.addAll(List.of(args));
        return run(command, Map.of("AWS_RETRY_MODE", "standard", "AWS_MAX_ATTEMPTS", "1"), workDir);
    }

    /** Runs test resource release/boto3_checks.py with {@code ENDPOINT ARGS} in {@code workDir}. */
    public static Result boto3(URI endpoint, Path workDir, String... args) {
        List<String> command = new ArrayList<>(List.of(python().toString(), resource("boto3_checks.py").toString(),
                endpoint.toString()));
        command.addAll(List.of(args));
        return run(command, Map.of(), workDir);
    }

    /** Runs rclone in {@code workDir} with a remote {@code coffer:} of provider "Other" on {@code endpoint}. */
    public static Result rclone(URI endpoint, Path workDir, String... args) {
        List<String> command = new ArrayList<>(List.of(rclone().toString()));
        command.addAll(List.of(args));
        return run(command, Map.of(
                "RCLONE_CONFIG_COFFER_TYPE", "s3",
                "RCLONE_CONFIG_COFFER_PROVIDER", "Other",
                "RCLONE_CONFIG_COFFER_ENDPOINT", endpoint.toString(),
                "RCLONE_CONFIG_COFFER_ACCESS_KEY_ID", ACCESS_KEY,
                "RCLONE_CONFIG_COFFER_SECRET_ACCESS_KEY", SECRET_KEY), workDir);
    }

    private static Result run(List<String> command, Map<String, String> env, Path workDir) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile());
        Map<String, String> e = pb.environment();
        e.keySet().removeIf(k -> k.startsWith("AWS_") || k.startsWith("BOTO_") || k.startsWith("RCLONE_")
                || k.startsWith("PYTHON"));
        e.put("AWS_ACCESS_KEY_ID", ACCESS_KEY);
        e.put("AWS_SECRET_ACCESS_KEY", SECRET_KEY);
        e.put("AWS_DEFAULT_REGION", "us-east-1");
        e.put("AWS_CONFIG_FILE", workDir.resolve("no-aws-config").toString());
        e.put("AWS_SHARED_CREDENTIALS_FILE", workDir.resolve("no-aws-credentials").toString());
        e.put("AWS_EC2_METADATA_DISABLED", "true");
        e.put("RCLONE_CONFIG", workDir.resolve("no-rclone.conf").toString());
        e.putAll(env);
        ExternalClients.Result r = ExternalClients.run(pb, workDir, TIMEOUT);
        return new Result(r.exitCode(), r.stdout(), r.stderr());
    }
}
