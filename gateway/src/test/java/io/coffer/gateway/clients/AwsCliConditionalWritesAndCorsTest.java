package io.coffer.gateway.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * aws-cli v1 {@code s3api} (botocore, as boto3 uses it) with conditional writes ({@code --if-none-match},
 * {@code --if-match} on put-object and delete-object), object and bucket tagging, and put/get/delete-bucket-cors.
 */
class AwsCliConditionalWritesAndCorsTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    @TempDir
    Path work;

    @Test
    void s3apiConditionalWritesTaggingAndCorsBehaveAsOnS3() throws Exception {
        String bucket = "cli-conditional";
        run("s3api", "create-bucket", "--bucket", bucket);
        Path body = work.resolve("body.txt");
        Files.writeString(body, "first");

        run("s3api", "put-object", "--bucket", bucket, "--key", "k", "--body", body.toString(), "--if-none-match",
                "*", "--tagging", "team=web&stage=dev");
        assertThat(run("s3api", "get-object-tagging", "--bucket", bucket, "--key", "k", "--query",
                "join(',', sort(TagSet[].Key))", "--output", "text")).isEqualTo("stage,team");
        assertThat(attempt("s3api", "put-object", "--bucket", bucket, "--key", "k", "--body", body.toString(),
                "--if-none-match", "*").stderr()).contains("PreconditionFailed");
        String etag = run("s3api", "head-object", "--bucket", bucket, "--key", "k", "--query", "ETag", "--output",
                "text");
        assertThat(attempt("s3api", "put-object", "--bucket", bucket, "--key", "k", "--body", body.toString(),
                "--if-match", "\"0000\"").stderr()).contains("PreconditionFailed");
        run("s3api", "put-object", "--bucket", bucket, "--key", "k", "--body", body.toString(), "--if-match", etag);
        assertThat(run("s3api", "get-object-tagging", "--bucket", bucket, "--key", "k", "--query", "length(TagSet)",
                "--output", "text")).as("a PUT without x-amz-tagging has no tags").isEqualTo("0");

        assertThat(attempt("s3api", "delete-object", "--bucket", bucket, "--key", "k", "--if-match", "\"0000\"")
                .stderr()).contains("PreconditionFailed");
        run("s3api", "delete-object", "--bucket", bucket, "--key", "k", "--if-match", etag);
        assertThat(attempt("s3api", "head-object", "--bucket", bucket, "--key", "k").exitCode()).isNotZero();

        run("s3api", "put-bucket-tagging", "--bucket", bucket, "--tagging",
                "{\"TagSet\": [{\"Key\": \"owner\", \"Value\": \"cli\"}]}");
        assertThat(run("s3api", "get-bucket-tagging", "--bucket", bucket, "--query", "TagSet[0].Value", "--output",
                "text")).isEqualTo("cli");

        String cors = "{\"CORSRules\": [{\"AllowedOrigins\": [\"https://*.example.com\"], \"AllowedMethods\": "
                + "[\"GET\", \"PUT\"], \"AllowedHeaders\": [\"*\"], \"ExposeHeaders\": [\"ETag\"], "
                + "\"MaxAgeSeconds\": 600}]}";
        run("s3api", "put-bucket-cors", "--bucket", bucket, "--cors-configuration", cors);
        assertThat(run("s3api", "get-bucket-cors", "--bucket", bucket, "--query",
                "CORSRules[0].[AllowedOrigins[0], join(',', AllowedMethods), MaxAgeSeconds]", "--output", "text")
                .split("\\s+")).containsExactly("https://*.example.com", "GET,PUT", "600");
        assertThat(attempt("s3api", "put-bucket-cors", "--bucket", bucket, "--cors-configuration",
                "{\"CORSRules\": [{\"AllowedOrigins\": [\"*\"], \"AllowedMethods\": [\"PATCH\"]}]}").stderr())
                .contains("InvalidRequest");
        run("s3api", "delete-bucket-cors", "--bucket", bucket);
        assertThat(attempt("s3api", "get-bucket-cors", "--bucket", bucket).stderr())
                .contains("NoSuchCORSConfiguration");
    }

    private String run(String... args) {
        return AwsCli.withDefaults(gateway, work).run(args);
    }

    private ExternalClients.Result attempt(String... args) {
        return AwsCli.withDefaults(gateway, work).attempt(args);
    }
}
