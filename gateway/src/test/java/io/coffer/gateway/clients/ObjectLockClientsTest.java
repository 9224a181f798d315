package io.coffer.gateway.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.s3.model.GetObjectRetentionResponse;

/**
 * Object Lock with stock clients against the gateway on the real engine: aws-cli v1 {@code s3api} (a bucket created
 * with Object Lock, a COMPLIANCE-locked object that cannot be deleted, its retention and legal hold) and boto3 (the
 * script clients/python/boto3_object_lock.py prints what it saw, this class asserts). The S3 rules themselves are
 * covered in {@code s3.ObjectLockTest}. rclone, as a backup tool uses Object Lock: a tree copied under GOVERNANCE
 * retention, deleted, and still there as versions only a bypass can remove.
 */
class ObjectLockClientsTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    @TempDir
    Path work;

    @Test
    void awsCliS3apiCannotDeleteACompliantVersionButReadsItsLock() throws Exception {
        String b = "cli-lock";
        run("s3api", "create-bucket", "--bucket", b, "--object-lock-enabled-for-bucket");
        assertThat(run("s3api", "get-object-lock-configuration", "--bucket", b, "--query",
                "ObjectLockConfiguration.ObjectLockEnabled", "--output", "text")).isEqualTo("Enabled");
        Path body = Files.writeString(work.resolve("archive.txt"), "immutable");
        String until = Instant.now().plus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS).toString();
        String version = run("s3api", "put-object", "--bucket", b, "--key", "archive.txt", "--body", body.toString(),
                "--object-lock-mode", "COMPLIANCE", "--object-lock-retain-until-date", until, "--query", "VersionId",
                "--output", "text");
        ExternalClients.Result refused = attempt("s3api", "delete-object", "--bucket", b, "--key", "archive.txt",
                "--version-id", version, "--bypass-governance-retention");
        assertThat(refused.stderr()).contains("AccessDenied");
        assertThat(run("s3api", "head-object", "--bucket", b, "--key", "archive.txt", "--version-id", version,
                "--query", "[ObjectLockMode, ObjectLockLegalHoldStatus]", "--output", "text").split("\\s+"))
                .containsExactly("COMPLIANCE", "OFF");
        run("s3api", "put-object-legal-hold", "--bucket", b, "--key", "archive.txt", "--version-id", version,
                "--legal-hold", "Status=ON");
        assertThat(run("s3api", "get-object-legal-hold", "--bucket", b, "--key", "archive.txt", "--version-id",
                version, "--query", "LegalHold.Status", "--output", "text")).isEqualTo("ON");
        assertThat(run("s3api", "get-object-retention", "--bucket", b, "--key", "archive.txt", "--version-id",
                version, "--query", "Retention.Mode", "--output", "text")).isEqualTo("COMPLIANCE");
        Path out = work.resolve("out.txt");
        run("s3api", "get-object", "--bucket", b, "--key", "archive.txt", "--version-id", version, out.toString());
        assertThat(Files.readString(out)).isEqualTo("immutable");
    }

    @Test
    void boto3SetsDefaultRetentionAndIsRefusedDeletesUnderCompliance() throws Exception {
        String args = "{\"endpoint\": \"" + gateway.endpoint() + "\", \"bucket\": \"boto3-lock\"}";
        JsonNode result = ExternalClients.boto3Script(gateway, work, "boto3_object_lock.py", args,
                Duration.ofMinutes(3));
        assertThat(text(result, "default")).isEqualTo("GOVERNANCE/1");
        assertThat(text(result, "head_mode")).isEqualTo("GOVERNANCE");
        assertThat(text(result, "delete_without_bypass")).isEqualTo("AccessDenied");
        assertThat(text(result, "retention_mode")).isEqualTo("COMPLIANCE");
        assertThat(text(result, "delete_with_bypass")).isEqualTo("AccessDenied");
        List<String> batchErrors = new ArrayList<>();
        result.field("batch_errors").orElseThrow().asArray().forEach(n -> batchErrors.add(n.asString()));
        assertThat(batchErrors).containsExactly("AccessDenied");
        assertThat(text(result, "legal_hold")).isEqualTo("ON");
        assertThat(text(result, "body")).isEqualTo("snapshot");
    }

    @Test
    void rcloneBacksUpUnderGovernanceRetentionAndTheBackupOutlivesItsDeletion() throws Exception {
        String b = "rclone-lock";
        Path tree = work.resolve("tree");
        Files.createDirectories(tree.resolve("db"));
        Files.writeString(tree.resolve("db/dump.sql"), "create table t (x int);");
        Files.writeString(tree.resolve("notes.txt"), "monday");
        Rclone rclone = new Rclone(gateway, work);
        rclone.run("mkdir", "--s3-bucket-object-lock-enabled", "coffer:" + b);
        rclone.run("copy", "--s3-object-lock-mode", "GOVERNANCE", "--s3-object-lock-retain-until-date",
                "2099-01-01T00:00:00Z", tree.toString(), "coffer:" + b + "/backup");
        for (String key : List.of("backup/db/dump.sql", "backup/notes.txt")) {
            GetObjectRetentionResponse retention = gateway.client().getObjectRetention(r -> r.bucket(b).key(key));
            assertThat(retention.retention().modeAsString()).as(key).isEqualTo("GOVERNANCE");
            assertThat(retention.retention().retainUntilDate()).as(key)
                    .isEqualTo(Instant.parse("2099-01-01T00:00:00Z"));
        }

        // a deleted backup is a delete marker over a version that stays locked
        rclone.run("delete", "coffer:" + b + "/backup");
        assertThat(rclone.run("lsf", "-R", "--files-only", "coffer:" + b)).isEmpty();
        List<String> versions = rclone.run("lsf", "-R", "--files-only", "--s3-versions", "coffer:" + b).lines()
                .sorted().toList();
        assertThat(versions).hasSize(2).allMatch(n -> n.contains("-v"));
        String notes = versions.stream().filter(n -> n.startsWith("backup/notes-v")).findFirst().orElseThrow();
        assertThat(rclone.run("cat", "--s3-versions", "coffer:" + b + "/" + notes)).isEqualTo("monday");
        ExternalClients.Result refused = rclone.attempt("deletefile", "--s3-versions", "coffer:" + b + "/" + notes);
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.stderr()).contains("AccessDenied");
        assertThat(rclone.run("cat", "--s3-versions", "coffer:" + b + "/" + notes)).isEqualTo("monday");
        rclone.run("deletefile", "--s3-versions", "--s3-bypass-governance-retention", "coffer:" + b + "/" + notes);
        assertThat(rclone.run("lsf", "-R", "--files-only", "--s3-versions", "coffer:" + b).lines())
                .singleElement().satisfies(n -> assertThat(n).startsWith("backup/db/dump-v"));
    }

    private String run(String... args) {
        return AwsCli.withDefaults(gateway, work).run(args);
    }

    private ExternalClients.Result attempt(String... args) {
        return AwsCli.withDefaults(gateway, work).attempt(args);
    }

    private static String text(JsonNode result, String field) {
        JsonNode n = result.field(field).orElseThrow(() -> new AssertionError("no " + field + " in " + result));
        return n.isNumber() ? n.asNumber() : n.asString();
    }
}
