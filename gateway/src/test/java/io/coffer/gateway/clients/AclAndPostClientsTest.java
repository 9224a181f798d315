package io.coffer.gateway.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * Stock clients with ACLs, public reads and POST Object: aws-cli v1 {@code s3api} put/get-bucket-acl,
 * put/get-object-acl, put/get/delete-public-access-block and an unsigned ({@code --no-sign-request}) get-object;
 * boto3 with canned ACLs, an UNSIGNED client, and generate_presigned_post posted as a plain urllib form (the script
 * clients/python/boto3_acl_post.py prints what it saw, this class asserts). The tenant's public access is allowed.
 */
class AclAndPostClientsTest {
    static final String ALL_USERS = "http://acs.amazonaws.com/groups/global/AllUsers";

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withPublicAccessTenants("tenant");

    @TempDir
    Path work;

    @Test
    void s3apiSetsAndReadsAclsAndPublicAccessBlocks() throws Exception {
        String bucket = "cli-acl";
        AwsCli cli = AwsCli.withDefaults(gateway, work);
        cli.run("s3api", "create-bucket", "--bucket", bucket);
        Path body = work.resolve("body.txt");
        Files.writeString(body, "cli bytes");
        cli.run("s3api", "put-object", "--bucket", bucket, "--key", "k", "--body", body.toString());
        assertThat(cli.attempt("s3api", "get-object", "--bucket", bucket, "--key", "k", "--no-sign-request",
                work.resolve("denied.txt").toString()).stderr()).contains("AccessDenied");

        cli.run("s3api", "put-object-acl", "--bucket", bucket, "--key", "k", "--grant-read", "uri=" + ALL_USERS,
                "--grant-full-control", "id=tenant");
        assertThat(cli.run("s3api", "get-object-acl", "--bucket", bucket, "--key", "k", "--query",
                "join(',', sort(Grants[].Permission))", "--output", "text")).isEqualTo("FULL_CONTROL,READ");
        Path fetched = work.resolve("fetched.txt");
        cli.run("s3api", "get-object", "--bucket", bucket, "--key", "k", "--no-sign-request", fetched.toString());
        assertThat(Files.readString(fetched)).isEqualTo("cli bytes");

        cli.run("s3api", "put-bucket-acl", "--bucket", bucket, "--acl", "public-read");
        assertThat(cli.run("s3api", "get-bucket-acl", "--bucket", bucket, "--query",
                "Grants[?Grantee.Type=='Group'].[Grantee.URI, Permission]", "--output", "text").split("\\s+"))
                .containsExactly(ALL_USERS, "READ");
        assertThat(cli.attempt("s3api", "put-bucket-acl", "--bucket", bucket, "--grant-read",
                "emailAddress=someone@example.com").stderr()).contains("NotImplemented");

        cli.run("s3api", "put-public-access-block", "--bucket", bucket, "--public-access-block-configuration",
                "BlockPublicAcls=true,IgnorePublicAcls=true,BlockPublicPolicy=true,RestrictPublicBuckets=true");
        assertThat(cli.run("s3api", "get-public-access-block", "--bucket", bucket, "--query",
                "PublicAccessBlockConfiguration.IgnorePublicAcls", "--output", "text")).isEqualTo("True");
        assertThat(cli.attempt("s3api", "get-object", "--bucket", bucket, "--key", "k", "--no-sign-request",
                work.resolve("ignored.txt").toString()).stderr()).contains("AccessDenied");
        cli.run("s3api", "delete-public-access-block", "--bucket", bucket);
        assertThat(cli.attempt("s3api", "get-public-access-block", "--bucket", bucket).stderr())
                .contains("NoSuchPublicAccessBlockConfiguration");
    }

    @Test
    void boto3CannedAclsUnsignedReadsAndPresignedPost() throws Exception {
        String args = "{\"endpoint\": \"" + gateway.endpoint() + "\", \"bucket\": \"boto3-acl\"}";
        JsonNode result = ExternalClients.boto3Script(gateway, work, "boto3_acl_post.py", args, Duration.ofMinutes(2));

        assertThat(strings(result, "bucket_grants")).containsExactly(ALL_USERS + ":READ", "tenant:FULL_CONTROL");
        assertThat(text(result, "anonymous_public")).isEqualTo("public");
        assertThat(text(result, "anonymous_private")).isEqualTo("AccessDenied");
        assertThat(strings(result, "anonymous_list")).containsExactly("private.txt", "public.txt");
        assertThat(text(result, "anonymous_put")).isEqualTo("AccessDenied");
        assertThat(number(result, "post_status")).isEqualTo("204");
        assertThat(text(result, "posted_body")).isEqualTo("posted from a form");
        assertThat(strings(result, "posted_grants")).containsExactly(ALL_USERS + ":READ", "tenant:FULL_CONTROL");
        assertThat(number(result, "oversize_status")).isEqualTo("400");
        assertThat(text(result, "oversize_code")).isEqualTo("EntityTooLarge");
        assertThat(number(result, "tampered_status")).isEqualTo("403");
        assertThat(text(result, "tampered_code")).isEqualTo("SignatureDoesNotMatch");
        assertThat(strings(result, "keys")).containsExactly("private.txt", "public.txt", "uploads/hello.txt");
    }

    private static String text(JsonNode n, String field) {
        return n.field(field).orElseThrow(() -> new AssertionError("no " + field + " in " + n)).asString();
    }

    private static String number(JsonNode n, String field) {
        return n.field(field).orElseThrow(() -> new AssertionError("no " + field + " in " + n)).asNumber();
    }

    private static List<String> strings(JsonNode n, String field) {
        return n.field(field).orElseThrow(() -> new AssertionError("no " + field + " in " + n)).asArray().stream()
                .map(JsonNode::asString).toList();
    }
}
