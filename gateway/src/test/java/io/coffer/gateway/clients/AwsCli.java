package io.coffer.gateway.clients;

import io.coffer.gateway.testing.CofferGatewayExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * aws-cli pointed at an in-process gateway with its credentials, region us-east-1 and the given configuration file
 * (one that does not exist: the defaults), run in {@code work}.
 */
record AwsCli(CofferGatewayExtension gateway, Path work, Path config) {

    /** aws-cli with its defaults: no configuration file. */
    static AwsCli withDefaults(CofferGatewayExtension gateway, Path work) {
        return new AwsCli(gateway, work, work.resolve("no-config"));
    }

    /** Runs {@code aws --endpoint-url ENDPOINT args...}, requires success, returns stdout trimmed. */
    String run(String... args) {
        return attempt(args).requireSuccess(command(args)).stdout().strip();
    }

    /** Runs {@code aws --endpoint-url ENDPOINT args...} whatever its exit status. */
    ExternalClients.Result attempt(String... args) {
        return ExternalClients.run(command(args), Map.of("AWS_ACCESS_KEY_ID", gateway.accessKeyId(),
                "AWS_SECRET_ACCESS_KEY", gateway.secretKey(), "AWS_DEFAULT_REGION", "us-east-1",
                "AWS_CONFIG_FILE", config.toString()), work, Duration.ofMinutes(2));
    }

    private List<String> command(String... args) {
        List<String> cmd = new ArrayList<>(List.of(ExternalClients.aws().toString(), "--endpoint-url",
                gateway.endpoint().toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }
}
