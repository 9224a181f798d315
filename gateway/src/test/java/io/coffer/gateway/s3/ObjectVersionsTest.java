package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.ObjectVersion;

/**
 * Version queries through the AWS SDK v2 on the real engine, answered as S3 answers them for a bucket that never had
 * versioning: every object is its one version, {@code null}; any other version id does not exist, and one Coffer
 * never gives (an S3-style id) is InvalidArgument.
 */
class ObjectVersionsTest {
    /** Well-formed (Coffer's form), never given. */
    static final String OTHER_VERSION = "0123456789abcdef0123456789abcdef";
    static final String S3_STYLE_VERSION = "3HL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY";

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    private static String bucketWith(S3Client s3, String bucket, String... keys) {
        s3.createBucket(b -> b.bucket(bucket));
        for (String k : keys) {
            s3.putObject(r -> r.bucket(bucket).key(k), RequestBody.fromString("body of " + k));
        }
        return bucket;
    }

    @Test
    void listingVersionsPagesThroughEachObjectsNullVersion(S3Client s3) {
        String b = bucketWith(s3, "versions-listed", "a", "b", "dir/c", "dir/d", "e");
        List<ObjectVersion> seen = new ArrayList<>();
        String keyMarker = null;
        String versionMarker = null;
        int pages = 0;
        do {
            String km = keyMarker;
            String vm = versionMarker;
            ListObjectVersionsResponse page = s3.listObjectVersions(r -> r.bucket(b).maxKeys(2).keyMarker(km)
                    .versionIdMarker(vm));
            seen.addAll(page.versions());
            assertThat(page.deleteMarkers()).isEmpty();
            keyMarker = page.nextKeyMarker();
            versionMarker = page.nextVersionIdMarker();
            pages++;
            if (!page.isTruncated()) {
                break;
            }
            assertThat(versionMarker).isEqualTo("null");
        } while (pages < 10);
        assertThat(pages).isEqualTo(3);
        assertThat(seen).extracting(ObjectVersion::key).containsExactly("a", "b", "dir/c", "dir/d", "e");
        for (ObjectVersion v : seen) {
            assertThat(v.versionId()).isEqualTo("null");
            assertThat(v.isLatest()).isTrue();
            assertThat(v.size()).isEqualTo(("body of " + v.key()).length());
            assertThat(v.eTag()).isEqualTo("\"" + SdkClientCompatibilityTest.md5Hex("body of " + v.key()) + "\"");
        }

        ListObjectVersionsResponse grouped = s3.listObjectVersions(r -> r.bucket(b).delimiter("/"));
        assertThat(grouped.versions()).extracting(ObjectVersion::key).containsExactly("a", "b", "e");
        assertThat(grouped.commonPrefixes()).extracting(CommonPrefix::prefix).containsExactly("dir/");
        assertError(() -> s3.listObjectVersions(r -> r.bucket(b).versionIdMarker("null")), 400, "InvalidArgument");
    }

    @Test
    void aBucketEmptiedVersionByVersionCanBeDeleted(S3Client s3) {
        String b = bucketWith(s3, "versions-emptied", "x", "y/z");
        List<ObjectIdentifier> ids = s3.listObjectVersions(r -> r.bucket(b)).versions().stream()
                .map(v -> ObjectIdentifier.builder().key(v.key()).versionId(v.versionId()).build()).toList();
        DeleteObjectsResponse deleted = s3.deleteObjects(r -> r.bucket(b).delete(d -> d.objects(ids)));
        assertThat(deleted.errors()).isEmpty();
        assertThat(deleted.deleted()).allSatisfy(d -> assertThat(d.versionId()).isEqualTo("null"));
        assertThat(s3.listObjectVersions(r -> r.bucket(b)).versions()).isEmpty();
        s3.deleteBucket(r -> r.bucket(b));
    }

    @Test
    void theNullVersionIsTheObjectAndNoOtherVersionExists(S3Client s3) {
        String b = bucketWith(s3, "versions-addressed", "k", "kept");
        assertThat(s3.getObjectAsBytes(r -> r.bucket(b).key("k").versionId("null")).asUtf8String())
                .isEqualTo("body of k");
        assertThat(s3.headObject(r -> r.bucket(b).key("k").versionId("null")).contentLength()).isEqualTo(9);
        assertError(() -> s3.getObject(r -> r.bucket(b).key("k").versionId(OTHER_VERSION)), 404, "NoSuchVersion");
        assertError(() -> s3.headObject(r -> r.bucket(b).key("k").versionId(OTHER_VERSION)), 404, null);
        assertError(() -> s3.getObject(r -> r.bucket(b).key("k").versionId(S3_STYLE_VERSION)), 400,
                "InvalidArgument");
        // deleting a version that does not exist deletes nothing, without error, as on S3
        s3.deleteObject(r -> r.bucket(b).key("k").versionId(OTHER_VERSION));
        assertError(() -> s3.deleteObject(r -> r.bucket(b).key("k").versionId(S3_STYLE_VERSION)), 400,
                "InvalidArgument");

        DeleteObjectsResponse refused = s3.deleteObjects(r -> r.bucket(b).delete(d -> d.objects(
                ObjectIdentifier.builder().key("kept").versionId(OTHER_VERSION).build(),
                ObjectIdentifier.builder().key("kept").versionId(S3_STYLE_VERSION).build())));
        assertThat(refused.deleted()).singleElement().satisfies(d -> assertThat(d.versionId())
                .isEqualTo(OTHER_VERSION));
        assertThat(refused.errors()).singleElement().satisfies(e -> {
            assertThat(e.key()).isEqualTo("kept");
            assertThat(e.code()).isEqualTo("InvalidArgument");
        });
        assertThat(s3.headObject(r -> r.bucket(b).key("kept")).contentLength()).isEqualTo(12);

        s3.copyObject(r -> r.sourceBucket(b).sourceKey("k").sourceVersionId("null").destinationBucket(b)
                .destinationKey("k-copy"));
        assertThat(s3.getObjectAsBytes(r -> r.bucket(b).key("k-copy")).asUtf8String()).isEqualTo("body of k");
        assertError(() -> s3.copyObject(r -> r.sourceBucket(b).sourceKey("k").sourceVersionId(OTHER_VERSION)
                .destinationBucket(b).destinationKey("never-copied")), 404, "NoSuchVersion");
        assertError(() -> s3.headObject(r -> r.bucket(b).key("never-copied")), 404, null);

        s3.deleteObject(r -> r.bucket(b).key("k").versionId("null"));
        assertError(() -> s3.headObject(r -> r.bucket(b).key("k")), 404, null);
    }
}
