package io.coffer.gateway.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * Bucket lifecycle rules with stock clients against the gateway on the real engine: aws-cli v1 {@code s3api}
 * put/get/delete-bucket-lifecycle-configuration, and boto3 (the script clients/python/boto3_lifecycle.py prints what
 * it saw, this class asserts). The rules' validation is covered in {@code s3.lifecycle.LifecycleConfigurationTest},
 * their effect in {@code maintenance.LifecycleSweepTest}.
 */
class LifecycleClientsTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    @TempDir
    Path work;

    @Test
    void awsCliS3apiPutsReadsAndDeletesLifecycleRules() {
        String b = "cli-lifecycle";
        gateway.client().createBucket(r -> r.bucket(b));
        assertThat(attempt("s3api", "get-bucket-lifecycle-configuration", "--bucket", b).stderr())
                .contains("NoSuchLifecycleConfiguration");
        String rules = "{\"Rules\": [{\"ID\": \"tmp\", \"Status\": \"Enabled\", \"Filter\": {\"Prefix\": \"tmp/\"},"
                + " \"Expiration\": {\"Days\": 3}, \"AbortIncompleteMultipartUpload\": {\"DaysAfterInitiation\": 1}},"
                + " {\"ID\": \"old\", \"Status\": \"Enabled\", \"Filter\": {\"Tag\": {\"Key\": \"keep\", \"Value\":"
                + " \"no\"}}, \"NoncurrentVersionExpiration\": {\"NoncurrentDays\": 30}}]}";
        run("s3api", "put-bucket-lifecycle-configuration", "--bucket", b, "--lifecycle-configuration", rules);
        assertThat(run("s3api", "get-bucket-lifecycle-configuration", "--bucket", b, "--query",
                "Rules[*].[ID, Status, Expiration.Days || NoncurrentVersionExpiration.NoncurrentDays]", "--output",
                "text").split("\\s+")).containsExactly("tmp", "Enabled", "3", "old", "Enabled", "30");
        assertThat(run("s3api", "get-bucket-lifecycle-configuration", "--bucket", b, "--query",
                "Rules[1].Filter.Tag.Value", "--output", "text")).isEqualTo("no");

        assertThat(attempt("s3api", "put-bucket-lifecycle-configuration", "--bucket", b,
                "--lifecycle-configuration", "{\"Rules\": [{\"ID\": \"x\", \"Status\": \"Enabled\", \"Filter\": "
                        + "{\"Prefix\": \"\"}, \"Expiration\": {\"Date\": \"2030-01-01T12:00:00Z\"}}]}").stderr())
                .contains("InvalidArgument");
        run("s3api", "delete-bucket-lifecycle", "--bucket", b);
        assertThat(attempt("s3api", "get-bucket-lifecycle-configuration", "--bucket", b).stderr())
                .contains("NoSuchLifecycleConfiguration");
    }

    @Test
    void boto3PutsReadsRefusesAndDeletesLifecycleRules() {
        String args = "{\"endpoint\": \"" + gateway.endpoint() + "\", \"bucket\": \"boto3-lifecycle\"}";
        JsonNode result = ExternalClients.boto3Script(gateway, work, "boto3_lifecycle.py", args, Duration.ofMinutes(3));

        assertThat(text(result, "before")).isEqualTo("NoSuchLifecycleConfiguration");
        assertThat(strings(result, "ids")).containsExactly("logs", "uploads", "markers");
        assertThat(strings(result, "statuses")).containsExactly("Enabled", "Enabled", "Disabled");
        assertThat(text(result, "and_prefix")).isEqualTo("logs/");
        assertThat(text(result, "and_tag")).isEqualTo("tmp");
        assertThat(result.field("and_size").orElseThrow().asNumber()).isEqualTo("100");
        assertThat(result.field("days").orElseThrow().asNumber()).isEqualTo("30");
        assertThat(result.field("newer").orElseThrow().asNumber()).isEqualTo("3");
        assertThat(result.field("abort_days").orElseThrow().asNumber()).isEqualTo("2");
        assertThat(result.field("marker").orElseThrow().asBoolean()).isTrue();
        assertThat(text(result, "days_zero")).isEqualTo("InvalidArgument");
        assertThat(text(result, "same_id")).isEqualTo("InvalidArgument");
        assertThat(text(result, "transition")).isEqualTo("NotImplemented");
        assertThat(result.field("after_refusals").orElseThrow().asNumber()).as("refused rules replace nothing")
                .isEqualTo("3");
        assertThat(text(result, "after_delete")).isEqualTo("NoSuchLifecycleConfiguration");
    }

    private String run(String... args) {
        return AwsCli.withDefaults(gateway, work).run(args);
    }

    private ExternalClients.Result attempt(String... args) {
        return AwsCli.withDefaults(gateway, work).attempt(args);
    }

    private static String text(JsonNode result, String field) {
        return result.field(field).orElseThrow(() -> new AssertionError("no " + field + " in " + result)).asString();
    }

    private static List<String> strings(JsonNode result, String field) {
        List<String> out = new ArrayList<>();
        result.field(field).orElseThrow().asArray().forEach(n -> out.add(n.asString()));
        return out;
    }
}
