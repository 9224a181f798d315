package io.coffer.gateway.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * aws-cli v1 {@code s3api} (botocore, as boto3 uses it) with put-bucket-encryption, get-bucket-encryption and
 * delete-bucket-encryption: an AES256 rule with BucketKeyEnabled is stored and read back, KMS is NotImplemented,
 * deleting brings back the default AES256 rule. Few commands (each aws-cli start costs seconds); what a refused
 * configuration leaves and the default before any PUT are covered in {@code s3.BucketEncryptionTest}.
 */
class AwsCliBucketEncryptionTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    private static final String RULE_QUERY = "ServerSideEncryptionConfiguration.Rules[0]"
            + ".[ApplyServerSideEncryptionByDefault.SSEAlgorithm, BucketKeyEnabled]";

    @TempDir
    Path work;

    @Test
    void s3apiBucketEncryptionIsPutReadAndDeletedAsOnS3() {
        String bucket = "cli-encryption";
        gateway.client().createBucket(b -> b.bucket(bucket));
        run("s3api", "put-bucket-encryption", "--bucket", bucket, "--server-side-encryption-configuration",
                "{\"Rules\": [{\"ApplyServerSideEncryptionByDefault\": {\"SSEAlgorithm\": \"AES256\"}, "
                        + "\"BucketKeyEnabled\": true}]}");
        assertThat(rule(bucket)).containsExactly("AES256", "True");

        assertThat(attempt("s3api", "put-bucket-encryption", "--bucket", bucket,
                "--server-side-encryption-configuration", "{\"Rules\": [{\"ApplyServerSideEncryptionByDefault\": "
                        + "{\"SSEAlgorithm\": \"aws:kms\", \"KMSMasterKeyID\": \"alias/backup\"}}]}").stderr())
                .contains("NotImplemented");

        run("s3api", "delete-bucket-encryption", "--bucket", bucket);
        assertThat(rule(bucket)).containsExactly("AES256", "False");
    }

    private List<String> rule(String bucket) {
        return List.of(run("s3api", "get-bucket-encryption", "--bucket", bucket, "--query", RULE_QUERY, "--output",
                "text").split("\\s+"));
    }

    private String run(String... args) {
        return AwsCli.withDefaults(gateway, work).run(args);
    }

    private ExternalClients.Result attempt(String... args) {
        return AwsCli.withDefaults(gateway, work).attempt(args);
    }
}
