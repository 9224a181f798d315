package io.coffer.gateway.clients;

import io.coffer.gateway.testing.CofferGatewayExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * rclone with a remote {@code coffer:} (S3 provider "Other", path-style, region us-east-1) on an in-process gateway,
 * configured only through the environment (its configuration file in {@code work} does not exist), one try per
 * command so that a refusal shows as one.
 */
record Rclone(CofferGatewayExtension gateway, Path work) {

    /** Runs {@code rclone args...}, requires success, returns stdout. */
    String run(String... args) {
        return attempt(args).requireSuccess(command(args)).stdout();
    }

    /** Runs {@code rclone args...} whatever its exit status. */
    ExternalClients.Result attempt(String... args) {
        Map<String, String> env = Map.of(
                "RCLONE_CONFIG", work.resolve("rclone.conf").toString(),
                "RCLONE_CONFIG_COFFER_TYPE", "s3",
                "RCLONE_CONFIG_COFFER_PROVIDER", "Other",
                "RCLONE_CONFIG_COFFER_ENDPOINT", gateway.endpoint().toString(),
                "RCLONE_CONFIG_COFFER_ACCESS_KEY_ID", gateway.accessKeyId(),
                "RCLONE_CONFIG_COFFER_SECRET_ACCESS_KEY", gateway.secretKey(),
                "RCLONE_CONFIG_COFFER_REGION", "us-east-1",
                "RCLONE_CONFIG_COFFER_FORCE_PATH_STYLE", "true");
        return ExternalClients.run(command(args), env, work, Duration.ofMinutes(3));
    }

    private static List<String> command(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ExternalClients.rclone().toString());
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("--retries", "1", "--low-level-retries", "1"));
        return cmd;
    }
}
