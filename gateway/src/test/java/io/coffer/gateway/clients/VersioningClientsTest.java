package io.coffer.gateway.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;

/**
 * Bucket versioning with stock clients against the gateway on the real engine: aws-cli v1 {@code s3api}, boto3 (the
 * script clients/python/boto3_versioning.py prints what it saw, this class asserts) and rclone's
 * {@code --s3-versions} listing. Few commands each (every client start costs seconds); the S3 rules themselves are
 * covered in {@code s3.BucketVersioningTest}.
 */
class VersioningClientsTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    @TempDir
    Path work;

    @Test
    void awsCliS3apiEnablesVersioningReadsAnOldVersionAndRestoresADeletedKey() throws Exception {
        String b = "cli-versioning";
        gateway.client().createBucket(r -> r.bucket(b));
        run("s3api", "put-bucket-versioning", "--bucket", b, "--versioning-configuration", "Status=Enabled");
        assertThat(run("s3api", "get-bucket-versioning", "--bucket", b, "--query", "Status", "--output", "text"))
                .isEqualTo("Enabled");
        Path one = Files.writeString(work.resolve("one.txt"), "version one");
        Path two = Files.writeString(work.resolve("two.txt"), "version two");
        String v1 = run("s3api", "put-object", "--bucket", b, "--key", "k", "--body", one.toString(), "--query",
                "VersionId", "--output", "text");
        run("s3api", "put-object", "--bucket", b, "--key", "k", "--body", two.toString());
        Path out = work.resolve("out.txt");
        run("s3api", "get-object", "--bucket", b, "--key", "k", "--version-id", v1, out.toString());
        assertThat(Files.readString(out)).isEqualTo("version one");

        String marker = run("s3api", "delete-object", "--bucket", b, "--key", "k", "--query",
                "[DeleteMarker, VersionId]", "--output", "text");
        String markerId = marker.split("\\s+")[1];
        assertThat(marker).startsWith("True");
        assertThat(attempt("s3api", "head-object", "--bucket", b, "--key", "k", "--version-id", markerId)
                .stderr()).contains("405");
        assertThat(run("s3api", "list-object-versions", "--bucket", b, "--query",
                "[length(Versions), length(DeleteMarkers), DeleteMarkers[0].IsLatest]", "--output", "text")
                .split("\\s+")).containsExactly("2", "1", "True");

        run("s3api", "delete-object", "--bucket", b, "--key", "k", "--version-id", markerId);
        run("s3api", "get-object", "--bucket", b, "--key", "k", out.toString());
        assertThat(Files.readString(out)).isEqualTo("version two");
    }

    @Test
    void boto3PaginatesVersionsAndEmptiesAVersionedBucket() throws Exception {
        String args = "{\"endpoint\": \"" + gateway.endpoint() + "\", \"bucket\": \"boto3-versioning\"}";
        JsonNode result = ExternalClients.boto3Script(gateway, work, "boto3_versioning.py", args,
                Duration.ofMinutes(3));
        assertThat(text(result, "status")).isEqualTo("Enabled");
        assertThat(result.field("distinct_ids").orElseThrow().asBoolean()).isTrue();
        assertThat(text(result, "old_body")).isEqualTo("one");
        assertThat(result.field("marker").orElseThrow().asBoolean()).isTrue();
        assertThat(text(result, "head_after_delete")).isEqualTo("404");
        List<String> listed = new ArrayList<>();
        result.field("listed").orElseThrow().asArray().forEach(n -> listed.add(n.asString()));
        assertThat(listed).containsExactlyInAnyOrder("doc.txt@old:3", "doc.txt@old:3", "doc.txt@latest:marker",
                "other.txt@latest:5");
        assertThat(text(result, "restored_body")).isEqualTo("two");
        assertThat(text(result, "left")).isEqualTo("0");
    }

    @Test
    void rcloneListsOldVersionsWithS3Versions() throws Exception {
        S3Client s3 = gateway.client();
        String b = "rclone-versioning";
        s3.createBucket(r -> r.bucket(b));
        s3.putBucketVersioning(r -> r.bucket(b).versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED)));
        s3.putObject(r -> r.bucket(b).key("notes.txt"), RequestBody.fromString("first draft"));
        s3.putObject(r -> r.bucket(b).key("notes.txt"), RequestBody.fromString("final"));
        s3.putObject(r -> r.bucket(b).key("gone.txt"), RequestBody.fromString("deleted later"));
        s3.deleteObject(r -> r.bucket(b).key("gone.txt"));

        assertThat(rclone("lsf", "coffer:" + b).lines()).containsExactly("notes.txt");
        List<String> withVersions = rclone("lsf", "--s3-versions", "coffer:" + b).lines().sorted().toList();
        assertThat(withVersions).hasSize(3).contains("notes.txt");
        assertThat(withVersions).filteredOn(n -> n.startsWith("notes-v")).singleElement()
                .satisfies(n -> assertThat(n).endsWith(".txt"));
        assertThat(withVersions).filteredOn(n -> n.startsWith("gone-v")).hasSize(1);
        String old = withVersions.stream().filter(n -> n.startsWith("notes-v")).findFirst().orElseThrow();
        assertThat(rclone("cat", "--s3-versions", "coffer:" + b + "/" + old)).isEqualTo("first draft");
    }

    private String run(String... args) {
        return AwsCli.withDefaults(gateway, work).run(args);
    }

    private ExternalClients.Result attempt(String... args) {
        return AwsCli.withDefaults(gateway, work).attempt(args);
    }

    private String rclone(String... args) {
        return new Rclone(gateway, work).run(args);
    }

    private static String text(JsonNode result, String field) {
        JsonNode n = result.field(field).orElseThrow(() -> new AssertionError("no " + field + " in " + result));
        return n.isNumber() ? n.asNumber() : n.asString();
    }
}
