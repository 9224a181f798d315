package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.GetObjectLockConfigurationResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ObjectLockEnabled;
import software.amazon.awssdk.services.s3.model.ObjectLockLegalHoldStatus;
import software.amazon.awssdk.services.s3.model.ObjectLockMode;
import software.amazon.awssdk.services.s3.model.ObjectLockRetentionMode;

/**
 * Object Lock through the AWS SDK for Java v2 on the real engine: a bucket created with Object Lock, its configuration
 * and default retention, lock headers on PUT and copy reported by HEAD and GET, Put/GetObjectRetention and
 * Put/GetObjectLegalHold keeping the version id, AccessDenied for deleting a locked version (by DELETE and
 * DeleteObjects) or shortening a COMPLIANCE retention, the governance bypass, and lock headers on
 * CreateMultipartUpload applied to the completed version.
 */
class ObjectLockTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    private static Instant inDays(int days) {
        return Instant.now().plus(days, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS);
    }

    @Test
    void aBucketCreatedWithObjectLockIsVersionedForGoodAndKeepsItsDefaultRetention(S3Client s3) {
        String b = "lock-config";
        s3.createBucket(r -> r.bucket(b).objectLockEnabledForBucket(true));
        assertThat(s3.getBucketVersioning(r -> r.bucket(b)).status()).isEqualTo(BucketVersioningStatus.ENABLED);
        assertError(() -> s3.putBucketVersioning(r -> r.bucket(b).versioningConfiguration(c -> c.status(
                BucketVersioningStatus.SUSPENDED))), 409, "InvalidBucketState");
        GetObjectLockConfigurationResponse plain = s3.getObjectLockConfiguration(r -> r.bucket(b));
        assertThat(plain.objectLockConfiguration().objectLockEnabled()).isEqualTo(ObjectLockEnabled.ENABLED);
        assertThat(plain.objectLockConfiguration().rule()).isNull();

        s3.putObjectLockConfiguration(r -> r.bucket(b).objectLockConfiguration(c -> c
                .objectLockEnabled(ObjectLockEnabled.ENABLED)
                .rule(rule -> rule.defaultRetention(d -> d.mode(ObjectLockRetentionMode.GOVERNANCE).days(3)))));
        var rule = s3.getObjectLockConfiguration(r -> r.bucket(b)).objectLockConfiguration().rule();
        assertThat(rule.defaultRetention().mode()).isEqualTo(ObjectLockRetentionMode.GOVERNANCE);
        assertThat(rule.defaultRetention().days()).isEqualTo(3);
        assertError(() -> s3.putObjectLockConfiguration(r -> r.bucket(b).objectLockConfiguration(c -> c
                .objectLockEnabled(ObjectLockEnabled.ENABLED)
                .rule(x -> x.defaultRetention(d -> d.mode(ObjectLockRetentionMode.GOVERNANCE).days(1).years(1))))),
                400, "MalformedXML");
        assertError(() -> s3.putObjectLockConfiguration(r -> r.bucket(b).objectLockConfiguration(c -> c
                .objectLockEnabled(ObjectLockEnabled.ENABLED)
                .rule(x -> x.defaultRetention(d -> d.mode(ObjectLockRetentionMode.GOVERNANCE).days(0))))),
                400, "InvalidRetentionPeriod");

        // a PUT without lock headers gets the default retention, reported by HEAD and GetObjectRetention
        String v = s3.putObject(r -> r.bucket(b).key("k"), RequestBody.fromString("default")).versionId();
        HeadObjectResponse head = s3.headObject(r -> r.bucket(b).key("k"));
        assertThat(head.objectLockMode()).isEqualTo(ObjectLockMode.GOVERNANCE);
        assertThat(head.objectLockRetainUntilDate()).isAfter(Instant.now().plus(2, ChronoUnit.DAYS));
        assertThat(head.objectLockLegalHoldStatus()).isEqualTo(ObjectLockLegalHoldStatus.OFF);
        assertThat(s3.getObjectRetention(r -> r.bucket(b).key("k").versionId(v)).retention().mode())
                .isEqualTo(ObjectLockRetentionMode.GOVERNANCE);

        // a bucket without Object Lock: its configuration is not found, and versioning must be enabled to add it
        s3.createBucket(r -> r.bucket("lock-none"));
        assertError(() -> s3.getObjectLockConfiguration(r -> r.bucket("lock-none")), 404,
                "ObjectLockConfigurationNotFoundError");
        assertError(() -> s3.putObjectLockConfiguration(r -> r.bucket("lock-none").objectLockConfiguration(c -> c
                .objectLockEnabled(ObjectLockEnabled.ENABLED))), 409, "InvalidBucketState");
        s3.putObject(r -> r.bucket("lock-none").key("k"), RequestBody.fromString("x"));
        assertError(() -> s3.getObjectRetention(r -> r.bucket("lock-none").key("k")), 400, "InvalidRequest");
        assertError(() -> s3.putObject(r -> r.bucket("lock-none").key("k2").objectLockLegalHoldStatus(
                ObjectLockLegalHoldStatus.ON).checksumAlgorithm(ChecksumAlgorithm.CRC32), RequestBody.fromString("x")),
                400, "InvalidRequest");
    }

    @Test
    void aCompliantVersionCannotBeDeletedOrShortenedAndKeepsItsIdThroughLockChanges(S3Client s3) {
        String b = "lock-compliance";
        s3.createBucket(r -> r.bucket(b).objectLockEnabledForBucket(true));
        Instant until = inDays(1);
        String v = s3.putObject(r -> r.bucket(b).key("k").objectLockMode(ObjectLockMode.COMPLIANCE)
                .objectLockRetainUntilDate(until).checksumAlgorithm(ChecksumAlgorithm.CRC32),
                RequestBody.fromString("kept")).versionId();
        var got = s3.getObjectAsBytes(r -> r.bucket(b).key("k"));
        assertThat(got.response().objectLockMode()).isEqualTo(ObjectLockMode.COMPLIANCE);
        assertThat(got.response().objectLockRetainUntilDate()).isEqualTo(until);

        assertError(() -> s3.deleteObject(r -> r.bucket(b).key("k").versionId(v)), 403, "AccessDenied");
        assertError(() -> s3.deleteObject(r -> r.bucket(b).key("k").versionId(v).bypassGovernanceRetention(true)),
                403, "AccessDenied");
        var batch = s3.deleteObjects(r -> r.bucket(b).delete(d -> d.objects(o -> o.key("k").versionId(v))));
        assertThat(batch.errors()).singleElement().satisfies(e -> {
            assertThat(e.code()).isEqualTo("AccessDenied");
            assertThat(e.versionId()).isEqualTo(v);
        });
        assertError(() -> s3.putObjectRetention(r -> r.bucket(b).key("k").versionId(v).retention(x -> x
                .mode(ObjectLockRetentionMode.COMPLIANCE).retainUntilDate(until.minusSeconds(60)))), 403,
                "AccessDenied");
        // a delete without a version id adds a delete marker, as S3 allows
        assertThat(s3.deleteObject(r -> r.bucket(b).key("k")).deleteMarker()).isTrue();

        s3.putObjectRetention(r -> r.bucket(b).key("k").versionId(v).retention(x -> x
                .mode(ObjectLockRetentionMode.COMPLIANCE).retainUntilDate(until.plusSeconds(3600))));
        s3.putObjectLegalHold(r -> r.bucket(b).key("k").versionId(v).legalHold(h -> h.status(
                ObjectLockLegalHoldStatus.ON)));
        assertThat(s3.getObjectLegalHold(r -> r.bucket(b).key("k").versionId(v)).legalHold().status())
                .isEqualTo(ObjectLockLegalHoldStatus.ON);
        assertThat(s3.getObjectRetention(r -> r.bucket(b).key("k").versionId(v)).retention().retainUntilDate())
                .isEqualTo(until.plusSeconds(3600));
        HeadObjectResponse head = s3.headObject(r -> r.bucket(b).key("k").versionId(v));
        assertThat(head.versionId()).isEqualTo(v);
        assertThat(head.objectLockLegalHoldStatus()).isEqualTo(ObjectLockLegalHoldStatus.ON);
        assertThat(s3.getObjectAsBytes(r -> r.bucket(b).key("k").versionId(v)).asUtf8String()).isEqualTo("kept");
    }

    @Test
    void governanceRetentionYieldsToTheBypassHeaderOnly(S3Client s3) {
        String b = "lock-governance";
        s3.createBucket(r -> r.bucket(b).objectLockEnabledForBucket(true));
        String v = s3.putObject(r -> r.bucket(b).key("g").objectLockMode(ObjectLockMode.GOVERNANCE)
                .objectLockRetainUntilDate(inDays(2)).checksumAlgorithm(ChecksumAlgorithm.SHA256),
                RequestBody.fromString("governed")).versionId();
        assertError(() -> s3.deleteObject(r -> r.bucket(b).key("g").versionId(v)), 403, "AccessDenied");
        assertError(() -> s3.putObjectRetention(r -> r.bucket(b).key("g").versionId(v).retention(x -> x
                .mode(ObjectLockRetentionMode.GOVERNANCE).retainUntilDate(inDays(1)))), 403, "AccessDenied");
        s3.putObjectRetention(r -> r.bucket(b).key("g").versionId(v).bypassGovernanceRetention(true)
                .retention(x -> x.mode(ObjectLockRetentionMode.GOVERNANCE).retainUntilDate(inDays(1))));
        s3.deleteObject(r -> r.bucket(b).key("g").versionId(v).bypassGovernanceRetention(true));
        assertError(() -> s3.headObject(r -> r.bucket(b).key("g").versionId(v)), 404, null);

        // the lock headers of a copy apply to the new version
        s3.putObject(r -> r.bucket(b).key("src"), RequestBody.fromString("source"));
        String copy = s3.copyObject(r -> r.sourceBucket(b).sourceKey("src").destinationBucket(b).destinationKey("dst")
                .objectLockLegalHoldStatus(ObjectLockLegalHoldStatus.ON)).versionId();
        assertError(() -> s3.deleteObject(r -> r.bucket(b).key("dst").versionId(copy)
                .bypassGovernanceRetention(true)), 403, "AccessDenied");
        s3.putObjectLegalHold(r -> r.bucket(b).key("dst").versionId(copy).legalHold(h -> h.status(
                ObjectLockLegalHoldStatus.OFF)));
        s3.deleteObject(r -> r.bucket(b).key("dst").versionId(copy));
        // a retention without its date, or a date in the past, is refused
        assertError(() -> s3.putObjectRetention(r -> r.bucket(b).key("src").retention(x -> x
                .mode(ObjectLockRetentionMode.GOVERNANCE).retainUntilDate(Instant.now().minusSeconds(60)))), 400,
                "InvalidArgument");
    }

    @Test
    void lockHeadersOnCreateMultipartUploadLockTheCompletedVersion(S3Client s3) {
        String b = "lock-multipart";
        s3.createBucket(r -> r.bucket(b).objectLockEnabledForBucket(true));
        Instant until = inDays(2);
        String upload = s3.createMultipartUpload(r -> r.bucket(b).key("mp").objectLockMode(ObjectLockMode.GOVERNANCE)
                .objectLockRetainUntilDate(until).objectLockLegalHoldStatus(ObjectLockLegalHoldStatus.ON)).uploadId();
        String etag = s3.uploadPart(r -> r.bucket(b).key("mp").uploadId(upload).partNumber(1),
                RequestBody.fromString("abc")).eTag();
        String v = s3.completeMultipartUpload(r -> r.bucket(b).key("mp").uploadId(upload)
                .multipartUpload(m -> m.parts(p -> p.partNumber(1).eTag(etag)))).versionId();
        HeadObjectResponse head = s3.headObject(r -> r.bucket(b).key("mp").versionId(v));
        assertThat(head.objectLockMode()).isEqualTo(ObjectLockMode.GOVERNANCE);
        assertThat(head.objectLockRetainUntilDate()).isEqualTo(until);
        assertThat(head.objectLockLegalHoldStatus()).isEqualTo(ObjectLockLegalHoldStatus.ON);
        assertThat(head.metadata()).isEmpty();
        assertError(() -> s3.deleteObject(r -> r.bucket(b).key("mp").versionId(v).bypassGovernanceRetention(true)),
                403, "AccessDenied");
        s3.putObjectLegalHold(r -> r.bucket(b).key("mp").versionId(v).legalHold(h -> h.status(
                ObjectLockLegalHoldStatus.OFF)));
        assertError(() -> s3.deleteObject(r -> r.bucket(b).key("mp").versionId(v)), 403, "AccessDenied");
        s3.deleteObject(r -> r.bucket(b).key("mp").versionId(v).bypassGovernanceRetention(true));

        // checked when the upload starts, as on PutObject: a date in the past, a bucket without Object Lock
        assertError(() -> s3.createMultipartUpload(r -> r.bucket(b).key("past").objectLockMode(
                ObjectLockMode.GOVERNANCE).objectLockRetainUntilDate(Instant.now().minusSeconds(60))), 400,
                "InvalidArgument");
        s3.createBucket(r -> r.bucket("no-lock-multipart"));
        assertError(() -> s3.createMultipartUpload(r -> r.bucket("no-lock-multipart").key("k")
                .objectLockLegalHoldStatus(ObjectLockLegalHoldStatus.ON)), 400, "InvalidRequest");
        assertThat(s3.listMultipartUploads(r -> r.bucket(b)).uploads()).isEmpty();
    }
}
