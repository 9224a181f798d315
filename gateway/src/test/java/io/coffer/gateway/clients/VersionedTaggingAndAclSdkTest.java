package io.coffer.gateway.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.DeleteObjectTaggingResponse;
import software.amazon.awssdk.services.s3.model.GetObjectAclResponse;
import software.amazon.awssdk.services.s3.model.GetObjectTaggingResponse;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.PutObjectAclResponse;
import software.amazon.awssdk.services.s3.model.PutObjectTaggingResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.Tag;
import software.amazon.awssdk.services.s3.model.Type;

/**
 * Object tagging and ACLs in a versioned bucket with the AWS SDK for Java v2 against the gateway on the real engine
 * (issue 21, ceph/s3-tests' test_versioned_object_acl_no_version_specified): put-object-tagging, delete-object-tagging
 * and put-object-acl keep the current version's id, and with {@code versionId} they read and change a noncurrent
 * version alone; every answer names the version in {@code x-amz-version-id}.
 */
class VersionedTaggingAndAclSdkTest {
    private static final String ALL_USERS = "http://acs.amazonaws.com/groups/global/AllUsers";

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withPublicAccessTenants("tenant");

    private static boolean publicRead(List<? extends Grant> grants) {
        return grants.stream().anyMatch(g -> g.grantee().type() == Type.GROUP && ALL_USERS.equals(g.grantee().uri())
                && g.permissionAsString().equals("READ"));
    }

    @Test
    void taggingAndAclActionsKeepTheVersionIdAndReachANoncurrentVersion() {
        S3Client s3 = gateway.client();
        String b = "sdk-versioned-tags";
        s3.createBucket(r -> r.bucket(b));
        s3.putBucketVersioning(r -> r.bucket(b).versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED)));
        String v1 = s3.putObject(r -> r.bucket(b).key("k"), RequestBody.fromString("one")).versionId();
        String v2 = s3.putObject(r -> r.bucket(b).key("k"), RequestBody.fromString("two")).versionId();

        // no versionId: the current version is changed, its id stays and the old id still reads
        PutObjectTaggingResponse tagged = s3.putObjectTagging(r -> r.bucket(b).key("k")
                .tagging(t -> t.tagSet(Tag.builder().key("state").value("current").build())));
        assertThat(tagged.versionId()).isEqualTo(v2);
        PutObjectAclResponse acl = s3.putObjectAcl(r -> r.bucket(b).key("k").acl(ObjectCannedACL.PUBLIC_READ));
        assertThat(s3.headObject(r -> r.bucket(b).key("k")).versionId()).isEqualTo(v2);
        assertThat(s3.getObjectAcl(r -> r.bucket(b).key("k").versionId(v2)).grants()).matches(
                VersionedTaggingAndAclSdkTest::publicRead);
        assertThat(s3.getObjectAsBytes(r -> r.bucket(b).key("k").versionId(v2)).asUtf8String()).isEqualTo("two");
        assertThat(acl.sdkHttpResponse().firstMatchingHeader("x-amz-version-id")).contains(v2);

        // versionId of the noncurrent version: it alone changes
        PutObjectTaggingResponse old = s3.putObjectTagging(r -> r.bucket(b).key("k").versionId(v1)
                .tagging(t -> t.tagSet(Tag.builder().key("state").value("old").build())));
        assertThat(old.versionId()).isEqualTo(v1);
        GetObjectTaggingResponse oldTags = s3.getObjectTagging(r -> r.bucket(b).key("k").versionId(v1));
        assertThat(oldTags.versionId()).isEqualTo(v1);
        assertThat(oldTags.tagSet()).extracting(Tag::value).containsExactly("old");
        assertThat(s3.getObjectTagging(r -> r.bucket(b).key("k")).tagSet()).extracting(Tag::value)
                .containsExactly("current");
        GetObjectAclResponse oldAcl = s3.getObjectAcl(r -> r.bucket(b).key("k").versionId(v1));
        assertThat(oldAcl.grants()).noneMatch(g -> ALL_USERS.equals(g.grantee().uri()));
        s3.putObjectAcl(r -> r.bucket(b).key("k").versionId(v1).acl(ObjectCannedACL.PUBLIC_READ));
        assertThat(s3.getObjectAcl(r -> r.bucket(b).key("k").versionId(v1)).grants()).matches(
                VersionedTaggingAndAclSdkTest::publicRead);
        DeleteObjectTaggingResponse deleted = s3.deleteObjectTagging(r -> r.bucket(b).key("k").versionId(v1));
        assertThat(deleted.versionId()).isEqualTo(v1);
        assertThat(s3.getObjectTagging(r -> r.bucket(b).key("k").versionId(v1)).tagSet()).isEmpty();
        assertThat(s3.getObjectTagging(r -> r.bucket(b).key("k")).tagSet()).hasSize(1);

        List<ObjectVersion> versions = s3.listObjectVersions(r -> r.bucket(b)).versions();
        assertThat(versions).extracting(ObjectVersion::versionId).containsExactly(v2, v1);
        assertThat(s3.getObjectAsBytes(r -> r.bucket(b).key("k").versionId(v1)).asUtf8String()).isEqualTo("one");

        // a version that does not exist, and a delete marker
        assertThatThrownBy(() -> s3.getObjectTagging(r -> r.bucket(b).key("k").versionId("0".repeat(32))))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(404));
        String marker = s3.deleteObject(r -> r.bucket(b).key("k")).versionId();
        assertThatThrownBy(() -> s3.putObjectTagging(r -> r.bucket(b).key("k").versionId(marker)
                .tagging(t -> t.tagSet(Tag.builder().key("a").value("b").build()))))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(405));
        assertThatThrownBy(() -> s3.getObjectAcl(r -> r.bucket(b).key("k")))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(404));
        assertThat(s3.getObjectTagging(r -> r.bucket(b).key("k").versionId(v2)).tagSet()).extracting(Tag::value)
                .containsExactly("current");
    }
}
