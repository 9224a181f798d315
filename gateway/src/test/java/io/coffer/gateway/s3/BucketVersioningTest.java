package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.DeleteMarkerEntry;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Bucket versioning through the AWS SDK for Java v2 on the real engine: Put/GetBucketVersioning, version ids on PUT,
 * CopyObject and CompleteMultipartUpload, reads and copies of older versions, delete markers (and their 405 with
 * {@code x-amz-delete-marker}), permanent deletes, the null version of a suspended bucket, ListObjectVersions paged by
 * key and version-id markers, and DeleteObjects by version.
 */
class BucketVersioningTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    private static String versioned(S3Client s3, String bucket) {
        s3.createBucket(b -> b.bucket(bucket));
        s3.putBucketVersioning(r -> r.bucket(bucket).versioningConfiguration(c -> c.status(
                BucketVersioningStatus.ENABLED)));
        return bucket;
    }

    private static String put(S3Client s3, String bucket, String key, String body) {
        return s3.putObject(r -> r.bucket(bucket).key(key), RequestBody.fromString(body)).versionId();
    }

    private static String get(S3Client s3, String bucket, String key, String versionId) {
        return s3.getObjectAsBytes(r -> r.bucket(bucket).key(key).versionId(versionId)).asUtf8String();
    }

    @Test
    void versionsAreKeptReadableAndCopyableByTheirIds(S3Client s3) {
        String b = "sdk-versions";
        s3.createBucket(r -> r.bucket(b));
        assertThat(s3.getBucketVersioning(r -> r.bucket(b)).status()).isNull();
        assertThat(put(s3, b, "k", "unversioned")).isNull();
        s3.putBucketVersioning(r -> r.bucket(b).versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED)));
        assertThat(s3.getBucketVersioning(r -> r.bucket(b)).status()).isEqualTo(BucketVersioningStatus.ENABLED);
        String v1 = put(s3, b, "k", "first");
        String v2 = put(s3, b, "k", "second");
        assertThat(v1).isNotNull().isNotEqualTo(v2);
        assertThat(get(s3, b, "k", null)).isEqualTo("second");
        assertThat(get(s3, b, "k", v1)).isEqualTo("first");
        assertThat(get(s3, b, "k", "null")).isEqualTo("unversioned");
        assertThat(s3.headObject(r -> r.bucket(b).key("k").versionId(v1)).versionId()).isEqualTo(v1);
        assertThat(s3.getObject(r -> r.bucket(b).key("k")).response().versionId()).isEqualTo(v2);

        var copy = s3.copyObject(r -> r.sourceBucket(b).sourceKey("k").sourceVersionId(v1).destinationBucket(b)
                .destinationKey("copy"));
        assertThat(copy.copySourceVersionId()).isEqualTo(v1);
        assertThat(copy.versionId()).isNotNull();
        assertThat(get(s3, b, "copy", copy.versionId())).isEqualTo("first");
        // restoring an older version by copying it onto its key (no metadata change needed, as on S3)
        String restored = s3.copyObject(r -> r.sourceBucket(b).sourceKey("k").sourceVersionId(v1).destinationBucket(b)
                .destinationKey("k")).versionId();
        assertThat(get(s3, b, "k", null)).isEqualTo("first");
        s3.deleteObject(r -> r.bucket(b).key("k").versionId(restored));
        assertThat(get(s3, b, "k", null)).isEqualTo("second");

        String upload = s3.createMultipartUpload(r -> r.bucket(b).key("k")).uploadId();
        String etag = s3.uploadPart(r -> r.bucket(b).key("k").uploadId(upload).partNumber(1),
                RequestBody.fromString("multipart")).eTag();
        String v3 = s3.completeMultipartUpload(r -> r.bucket(b).key("k").uploadId(upload).multipartUpload(
                m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag).build()))).versionId();
        assertThat(v3).isNotNull().isNotIn(v1, v2);
        assertThat(s3.listObjectVersions(r -> r.bucket(b).prefix("k")).versions())
                .extracting(ObjectVersion::versionId).containsExactly(v3, v2, v1, "null");

        assertError(() -> s3.getObject(r -> r.bucket(b).key("k").versionId("0".repeat(32))), 404, "NoSuchVersion");
        assertError(() -> s3.getObject(r -> r.bucket(b).key("k").versionId("bad version")), 400, "InvalidArgument");
    }

    @Test
    void aDeleteAddsAMarkerThatHidesTheKeyUntilItIsDeleted(S3Client s3) {
        String b = versioned(s3, "sdk-markers");
        String v1 = put(s3, b, "k", "kept");
        DeleteObjectResponse marker = s3.deleteObject(r -> r.bucket(b).key("k"));
        assertThat(marker.deleteMarker()).isTrue();
        assertThat(marker.versionId()).isNotNull();
        assertThatThrownBy(() -> s3.getObject(r -> r.bucket(b).key("k")))
                .isInstanceOfSatisfying(S3Exception.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(404);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchKey");
                    assertThat(e.awsErrorDetails().sdkHttpResponse().firstMatchingHeader("x-amz-delete-marker"))
                            .contains("true");
                    assertThat(e.awsErrorDetails().sdkHttpResponse().firstMatchingHeader("x-amz-version-id"))
                            .contains(marker.versionId());
                });
        assertThatThrownBy(() -> s3.headObject(r -> r.bucket(b).key("k")))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.awsErrorDetails().sdkHttpResponse()
                        .firstMatchingHeader("x-amz-delete-marker")).contains("true"));
        // a key that never existed carries no marker header
        assertThatThrownBy(() -> s3.getObject(r -> r.bucket(b).key("never")))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.awsErrorDetails().sdkHttpResponse()
                        .firstMatchingHeader("x-amz-delete-marker")).isEmpty());
        assertThat(s3.listObjectsV2(r -> r.bucket(b)).contents()).isEmpty();
        assertThatThrownBy(() -> s3.getObject(r -> r.bucket(b).key("k").versionId(marker.versionId())))
                .isInstanceOfSatisfying(S3Exception.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(405);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("MethodNotAllowed");
                    assertThat(e.awsErrorDetails().sdkHttpResponse().firstMatchingHeader("x-amz-delete-marker"))
                            .contains("true");
                });
        ListObjectVersionsResponse listed = s3.listObjectVersions(r -> r.bucket(b));
        assertThat(listed.deleteMarkers()).singleElement().satisfies(m -> {
            assertThat(m.versionId()).isEqualTo(marker.versionId());
            assertThat(m.isLatest()).isTrue();
        });
        assertThat(listed.versions()).singleElement().satisfies(v -> {
            assertThat(v.versionId()).isEqualTo(v1);
            assertThat(v.isLatest()).isFalse();
        });
        assertError(() -> s3.deleteBucket(r -> r.bucket(b)), 409, "BucketNotEmpty");

        DeleteObjectResponse removed = s3.deleteObject(r -> r.bucket(b).key("k").versionId(marker.versionId()));
        assertThat(removed.deleteMarker()).isTrue();
        assertThat(removed.versionId()).isEqualTo(marker.versionId());
        assertThat(get(s3, b, "k", null)).isEqualTo("kept");
        s3.deleteObject(r -> r.bucket(b).key("k").versionId(v1));
        assertThat(s3.listObjectVersions(r -> r.bucket(b)).versions()).isEmpty();
        s3.deleteBucket(r -> r.bucket(b));
    }

    @Test
    void aSuspendedBucketWritesTheNullVersionAndKeepsOlderOnes(S3Client s3) {
        String b = versioned(s3, "sdk-suspended");
        String v1 = put(s3, b, "k", "versioned");
        s3.putBucketVersioning(r -> r.bucket(b).versioningConfiguration(c -> c.status(
                BucketVersioningStatus.SUSPENDED)));
        assertThat(s3.getBucketVersioning(r -> r.bucket(b)).status()).isEqualTo(BucketVersioningStatus.SUSPENDED);
        put(s3, b, "k", "null one");
        put(s3, b, "k", "null two");
        assertThat(s3.listObjectVersions(r -> r.bucket(b)).versions()).extracting(ObjectVersion::versionId)
                .containsExactly("null", v1);
        assertThat(get(s3, b, "k", "null")).isEqualTo("null two");
        DeleteObjectResponse marker = s3.deleteObject(r -> r.bucket(b).key("k"));
        assertThat(marker.versionId()).isEqualTo("null");
        assertThat(s3.listObjectVersions(r -> r.bucket(b)).deleteMarkers()).extracting(DeleteMarkerEntry::versionId)
                .containsExactly("null");
        assertThat(get(s3, b, "k", v1)).isEqualTo("versioned");
    }

    @Test
    void versionListingsPageByKeyAndVersionIdMarkersAndBulkDeletesByVersion(S3Client s3) {
        String b = versioned(s3, "sdk-version-pages");
        for (int round = 0; round < 3; round++) {
            for (String key : new String[] {"a", "d/1", "d/2", "z"}) {
                put(s3, b, key, key + round);
            }
        }
        s3.deleteObject(r -> r.bucket(b).key("z"));
        ListObjectVersionsResponse all = s3.listObjectVersions(r -> r.bucket(b));
        List<String> whole = new ArrayList<>();
        all.versions().forEach(v -> whole.add(v.key() + "@" + v.versionId()));
        assertThat(whole).hasSize(12);
        List<String> paged = new ArrayList<>();
        String keyMarker = null;
        String versionMarker = null;
        ListObjectVersionsResponse page;
        do {
            String km = keyMarker;
            String vm = versionMarker;
            page = s3.listObjectVersions(r -> r.bucket(b).maxKeys(5).keyMarker(km).versionIdMarker(vm));
            page.versions().forEach(v -> paged.add(v.key() + "@" + v.versionId()));
            keyMarker = page.nextKeyMarker();
            versionMarker = page.nextVersionIdMarker();
        } while (page.isTruncated());
        assertThat(paged).isEqualTo(whole);
        ListObjectVersionsResponse grouped = s3.listObjectVersions(r -> r.bucket(b).delimiter("/"));
        assertThat(grouped.commonPrefixes()).singleElement().satisfies(p -> assertThat(p.prefix()).isEqualTo("d/"));
        assertThat(grouped.versions()).extracting(ObjectVersion::key).containsOnly("a", "z");

        List<ObjectIdentifier> ids = new ArrayList<>();
        all.versions().forEach(v -> ids.add(ObjectIdentifier.builder().key(v.key()).versionId(v.versionId()).build()));
        all.deleteMarkers().forEach(m -> ids.add(ObjectIdentifier.builder().key(m.key()).versionId(m.versionId())
                .build()));
        DeleteObjectsResponse deleted = s3.deleteObjects(r -> r.bucket(b).delete(d -> d.objects(ids)));
        assertThat(deleted.errors()).isEmpty();
        assertThat(deleted.deleted()).hasSize(13).filteredOn(d -> Boolean.TRUE.equals(d.deleteMarker())).hasSize(1);
        assertThat(s3.listObjectVersions(r -> r.bucket(b)).versions()).isEmpty();
        s3.deleteBucket(r -> r.bucket(b));
    }
}
