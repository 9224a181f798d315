package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.s3.acl.ObjectAcl;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectAclResponse;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.Grantee;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.Permission;
import software.amazon.awssdk.services.s3.model.Type;

/**
 * Canned ACLs and grants on buckets and objects through the AWS SDK v2 on the real engine, for a tenant whose
 * account-level Block Public Access is off: CreateBucket/PutObject/CopyObject/CreateMultipartUpload with x-amz-acl,
 * Put/GetBucketAcl and Put/GetObjectAcl with canned ACLs, grant headers and AccessControlPolicy bodies.
 */
class ObjectAndBucketAclTest {
    static final String ALL_USERS = "http://acs.amazonaws.com/groups/global/AllUsers";
    static final String AUTHENTICATED = "http://acs.amazonaws.com/groups/global/AuthenticatedUsers";

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withPublicAccessTenants("tenant");

    static final String BUCKET = "acls";

    @BeforeAll
    static void bucket() {
        gateway.client().createBucket(b -> b.bucket(BUCKET));
    }

    static List<String> grants(List<Grant> grants) {
        return grants.stream().map(g -> (g.grantee().type() == Type.GROUP ? g.grantee().uri() : g.grantee().id())
                + ":" + g.permissionAsString()).sorted().collect(Collectors.toList());
    }

    @Test
    void newBucketsAndObjectsArePrivateToTheirOwner(S3Client s3) {
        assertThat(grants(s3.getBucketAcl(r -> r.bucket(BUCKET)).grants())).containsExactly("tenant:FULL_CONTROL");
        s3.putObject(r -> r.bucket(BUCKET).key("plain"), RequestBody.fromString("x"));
        GetObjectAclResponse acl = s3.getObjectAcl(r -> r.bucket(BUCKET).key("plain"));
        assertThat(acl.owner().id()).isEqualTo("tenant");
        assertThat(grants(acl.grants())).containsExactly("tenant:FULL_CONTROL");
    }

    @Test
    void cannedAclsOnCreateBucketAndPutBucketAclAreStoredAndReported(S3Client s3) {
        s3.createBucket(b -> b.bucket("acl-created").acl(BucketCannedACL.PUBLIC_READ));
        assertThat(grants(s3.getBucketAcl(r -> r.bucket("acl-created")).grants()))
                .containsExactly(ALL_USERS + ":READ", "tenant:FULL_CONTROL");
        s3.putBucketAcl(r -> r.bucket("acl-created").acl(BucketCannedACL.AUTHENTICATED_READ));
        assertThat(grants(s3.getBucketAcl(r -> r.bucket("acl-created")).grants()))
                .containsExactly(AUTHENTICATED + ":READ", "tenant:FULL_CONTROL");
        s3.putBucketAcl(r -> r.bucket("acl-created").acl(BucketCannedACL.PUBLIC_READ_WRITE));
        assertThat(grants(s3.getBucketAcl(r -> r.bucket("acl-created")).grants()))
                .containsExactly(ALL_USERS + ":READ", ALL_USERS + ":WRITE", "tenant:FULL_CONTROL");
        s3.putBucketAcl(r -> r.bucket("acl-created").acl(BucketCannedACL.PRIVATE));
        assertThat(grants(s3.getBucketAcl(r -> r.bucket("acl-created")).grants()))
                .containsExactly("tenant:FULL_CONTROL");
    }

    @Test
    void objectAclsFromPutObjectAclKeepBytesEtagAndTimeAndAreNoResponseHeader(S3Client s3) {
        s3.putObject(r -> r.bucket(BUCKET).key("shared").acl(ObjectCannedACL.PUBLIC_READ),
                RequestBody.fromString("shared bytes"));
        assertThat(grants(s3.getObjectAcl(r -> r.bucket(BUCKET).key("shared")).grants()))
                .containsExactly(ALL_USERS + ":READ", "tenant:FULL_CONTROL");
        var before = s3.headObject(r -> r.bucket(BUCKET).key("shared"));
        assertThat(before.sdkHttpResponse().headers().keySet())
                .noneMatch(h -> h.equalsIgnoreCase(ObjectAcl.STORED_HEADER));

        s3.putObjectAcl(r -> r.bucket(BUCKET).key("shared").accessControlPolicy(p -> p
                .owner(o -> o.id("tenant"))
                .grants(Grant.builder().grantee(Grantee.builder().type(Type.CANONICAL_USER).id("tenant").build())
                                .permission(Permission.FULL_CONTROL).build(),
                        Grant.builder().grantee(Grantee.builder().type(Type.GROUP).uri(AUTHENTICATED).build())
                                .permission(Permission.READ).build())));
        assertThat(grants(s3.getObjectAcl(r -> r.bucket(BUCKET).key("shared")).grants()))
                .containsExactly(AUTHENTICATED + ":READ", "tenant:FULL_CONTROL");
        var after = s3.headObject(r -> r.bucket(BUCKET).key("shared"));
        assertThat(after.eTag()).isEqualTo(before.eTag());
        assertThat(after.lastModified()).isEqualTo(before.lastModified());
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("shared")).asUtf8String()).isEqualTo("shared bytes");

        s3.putObjectAcl(r -> r.bucket(BUCKET).key("shared").grantRead("uri=\"" + ALL_USERS + "\""));
        assertThat(grants(s3.getObjectAcl(r -> r.bucket(BUCKET).key("shared")).grants()))
                .containsExactly(ALL_USERS + ":READ");
        s3.putObjectAcl(r -> r.bucket(BUCKET).key("shared").acl(ObjectCannedACL.PRIVATE));
        assertThat(grants(s3.getObjectAcl(r -> r.bucket(BUCKET).key("shared")).grants()))
                .containsExactly("tenant:FULL_CONTROL");
    }

    @Test
    void copiesAndMultipartUploadsTakeTheRequestsAclNotTheSources(S3Client s3) {
        s3.putObject(r -> r.bucket(BUCKET).key("source").acl(ObjectCannedACL.PUBLIC_READ),
                RequestBody.fromString("source"));
        s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("source").destinationBucket(BUCKET).destinationKey("copy"));
        assertThat(grants(s3.getObjectAcl(r -> r.bucket(BUCKET).key("copy")).grants()))
                .containsExactly("tenant:FULL_CONTROL");
        s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("source").destinationBucket(BUCKET)
                .destinationKey("copy-public").acl(ObjectCannedACL.AUTHENTICATED_READ));
        assertThat(grants(s3.getObjectAcl(r -> r.bucket(BUCKET).key("copy-public")).grants()))
                .containsExactly(AUTHENTICATED + ":READ", "tenant:FULL_CONTROL");
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("copy-public")).asUtf8String()).isEqualTo("source");

        String upload = s3.createMultipartUpload(r -> r.bucket(BUCKET).key("multi")
                .acl(ObjectCannedACL.PUBLIC_READ)).uploadId();
        String etag = s3.uploadPart(r -> r.bucket(BUCKET).key("multi").uploadId(upload).partNumber(1),
                RequestBody.fromString("part")).eTag();
        s3.completeMultipartUpload(r -> r.bucket(BUCKET).key("multi").uploadId(upload)
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag).build())));
        assertThat(grants(s3.getObjectAcl(r -> r.bucket(BUCKET).key("multi")).grants()))
                .containsExactly(ALL_USERS + ":READ", "tenant:FULL_CONTROL");
    }

    @Test
    void grantsToOtherAccountsAndBadAclsAreRefused(S3Client s3) {
        s3.putObject(r -> r.bucket(BUCKET).key("refused"), RequestBody.fromString("x"));
        assertError(() -> s3.putObjectAcl(r -> r.bucket(BUCKET).key("refused").grantRead("id=\"another-account\"")),
                501, "NotImplemented");
        assertError(() -> s3.putObjectAcl(r -> r.bucket(BUCKET).key("refused")
                .grantRead("emailAddress=\"a@example.com\"")), 501, "NotImplemented");
        assertError(() -> s3.putBucketAcl(r -> r.bucket(BUCKET).accessControlPolicy(p -> p.owner(o -> o.id("tenant"))
                .grants(Grant.builder().grantee(Grantee.builder().type(Type.CANONICAL_USER).id("someone").build())
                        .permission(Permission.READ).build()))), 501, "NotImplemented");
        assertError(() -> s3.putObject(r -> r.bucket(BUCKET).key("refused2").acl("everyone-read"),
                RequestBody.fromString("x")), 400, "InvalidArgument");
        assertError(() -> s3.putObject(r -> r.bucket(BUCKET).key("refused3").acl(ObjectCannedACL.PUBLIC_READ)
                .grantRead("uri=\"" + ALL_USERS + "\""), RequestBody.fromString("x")), 400, "InvalidRequest");
        assertError(() -> s3.putObjectAcl(r -> r.bucket(BUCKET).key("missing").acl(ObjectCannedACL.PUBLIC_READ)),
                404, "NoSuchKey");
        assertThat(s3.listObjectsV2(r -> r.bucket(BUCKET).prefix("refused")).contents()).hasSize(1);
    }
}
