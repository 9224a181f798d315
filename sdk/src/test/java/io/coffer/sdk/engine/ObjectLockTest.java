package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.DeletedVersion;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.ObjectLockConfiguration;
import io.coffer.sdk.ObjectLockMode;
import io.coffer.sdk.PartInfo;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.ReindexReport;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.blob.FaultyBlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Object Lock in the engine: a locked version cannot be removed for good (COMPLIANCE by nobody, GOVERNANCE only with
 * the bypass, legal hold by nobody), its retention cannot be shortened, changes keep its version id, default
 * retention applies to every way a version is written, and reindex restores locks from the backend alone.
 */
class ObjectLockTest {
    /** Above the inline limit: a manifest blob of its own. */
    private static final int BIG = 300_000;

    @TempDir
    Path dir;

    private static ObjectInfo put(Coffer c, String key, int seed, int size, ObjectLock lock) {
        return c.putObject(PutObjectRequest.of("locked", key, size), TestData.stream(seed, size), lock);
    }

    private static void assertCode(ErrorCode code, Runnable action) {
        assertThatThrownBy(action::run).isInstanceOfSatisfying(CofferException.class,
                e -> assertThat(e.code()).isEqualTo(code));
    }

    private static List<String> lockRecords(TestEngine e) throws java.io.IOException {
        return e.blobs.list(BackendLayout.LOCKS).toList().stream().map(io.coffer.sdk.blob.BlobInfo::name).toList();
    }

    private static Instant inDays(int days) {
        return Instant.now().plus(Duration.ofDays(days));
    }

    @Test
    void aCompliantVersionCannotBeDeletedOrShortenedByAnyoneButAddsDeleteMarkers() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            Bucket b = e.coffer.createBucket("locked", "alice", null, true);
            assertThat(e.coffer.bucketVersioning(b)).isEqualTo(BucketVersioning.ENABLED);
            assertThat(e.coffer.objectLockConfiguration(b)).contains(ObjectLockConfiguration.NO_DEFAULT);
            Instant until = inDays(1);
            ObjectInfo v = put(e.coffer, "k", 1, BIG, new ObjectLock(ObjectLockMode.COMPLIANCE, until, false));

            assertCode(ErrorCode.ACCESS_DENIED, () -> e.coffer.deleteObjectVersion(b, "k", v.versionId(), null));
            assertCode(ErrorCode.ACCESS_DENIED, () -> e.coffer.deleteObjectVersion(b, "k", v.versionId(), null, true));
            assertCode(ErrorCode.ACCESS_DENIED, () -> e.coffer.putObjectRetention(b, "k", v.versionId(),
                    ObjectLockMode.COMPLIANCE, until.minusSeconds(60), true));
            assertCode(ErrorCode.ACCESS_DENIED, () -> e.coffer.putObjectRetention(b, "k", v.versionId(),
                    ObjectLockMode.GOVERNANCE, until.plusSeconds(60), true));
            assertCode(ErrorCode.ACCESS_DENIED, () -> e.coffer.putObjectRetention(b, "k", v.versionId(), null, null,
                    true));
            assertCode(ErrorCode.INVALID_BUCKET_STATE,
                    () -> e.coffer.putBucketVersioning(b, BucketVersioning.SUSPENDED));

            // a delete without a version id adds a marker; the locked version stays readable
            DeletedVersion marker = e.coffer.deleteObjectVersion(b, "k", null, null);
            assertThat(marker.deleteMarker()).isTrue();
            try (ObjectContent c = e.coffer.getObject("locked", "k", v.versionId(), null, i -> { })) {
                assertThat(c.stream().readAllBytes()).isEqualTo(TestData.bytes(1, BIG));
            }
            // lengthening is allowed and keeps the version id
            ObjectLock longer = e.coffer.putObjectRetention(b, "k", v.versionId(), ObjectLockMode.COMPLIANCE,
                    until.plusSeconds(3600), false);
            assertThat(longer.retainUntil()).isEqualTo(until.plusSeconds(3600).truncatedTo(
                    java.time.temporal.ChronoUnit.MILLIS));
            assertThat(e.coffer.objectLock(b, "k", v.versionId())).isEqualTo(longer);
            assertThat(e.coffer.headObject("locked", "k", v.versionId()).versionId()).isEqualTo(v.versionId());
            // the version is still there after gc
            e.coffer.collectGarbage();
            assertThat(e.coffer.fsck(true).clean()).isTrue();
            assertThat(e.coffer.headObject("locked", "k", v.versionId()).size()).isEqualTo(BIG);
        }
    }

    @Test
    void governanceYieldsOnlyToTheBypassAndALegalHoldToNobodyUntilItIsLifted() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            Bucket b = e.coffer.createBucket("locked", "alice", null, true);
            ObjectInfo gov = put(e.coffer, "g", 1, 100, new ObjectLock(ObjectLockMode.GOVERNANCE, inDays(1), false));
            assertCode(ErrorCode.ACCESS_DENIED, () -> e.coffer.deleteObjectVersion(b, "g", gov.versionId(), null));
            assertCode(ErrorCode.ACCESS_DENIED, () -> e.coffer.putObjectRetention(b, "g", gov.versionId(),
                    ObjectLockMode.GOVERNANCE, inDays(1).minusSeconds(600), false));
            // governance is turned into compliance only with the bypass (as ceph/s3-tests expects of S3)
            ObjectInfo other = put(e.coffer, "h", 2, 100, new ObjectLock(ObjectLockMode.GOVERNANCE, inDays(1),
                    false));
            assertCode(ErrorCode.ACCESS_DENIED, () -> e.coffer.putObjectRetention(b, "h", other.versionId(),
                    ObjectLockMode.COMPLIANCE, inDays(2), false));
            assertThat(e.coffer.putObjectRetention(b, "h", other.versionId(), ObjectLockMode.COMPLIANCE, inDays(2),
                    true).mode()).isEqualTo(ObjectLockMode.COMPLIANCE);

            e.coffer.putObjectLegalHold(b, "g", gov.versionId(), true);
            assertCode(ErrorCode.ACCESS_DENIED, () -> e.coffer.deleteObjectVersion(b, "g", gov.versionId(), null,
                    true));
            assertThat(e.coffer.putObjectLegalHold(b, "g", gov.versionId(), false).legalHold()).isFalse();
            DeletedVersion removed = e.coffer.deleteObjectVersion(b, "g", gov.versionId(), null, true);
            assertThat(removed.versionId()).isEqualTo(gov.versionId());
            assertCode(ErrorCode.NO_SUCH_VERSION, () -> e.coffer.headObject("locked", "g", gov.versionId()));
            assertThat(lockRecords(e)).doesNotContain(BackendLayout.lock(gov.versionId()));

            // a legal hold alone, without retention, also forbids the delete
            ObjectInfo held = put(e.coffer, "l", 3, 100, new ObjectLock(null, null, true));
            assertCode(ErrorCode.ACCESS_DENIED, () -> e.coffer.deleteObjectVersion(b, "l", held.versionId(), null,
                    true));
            e.coffer.putObjectLegalHold(b, "l", held.versionId(), false);
            assertThat(e.coffer.objectLock(b, "l", held.versionId())).isEqualTo(ObjectLock.NONE);
            e.coffer.deleteObjectVersion(b, "l", held.versionId(), null);
        }
    }

    @Test
    void anExpiredRetentionNoLongerProtectsTheVersion() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            Bucket b = e.coffer.createBucket("locked", "alice", null, true);
            Instant until = Instant.now().plusSeconds(5);
            ObjectInfo v = put(e.coffer, "k", 1, 100, new ObjectLock(ObjectLockMode.COMPLIANCE, until, false));
            assertCode(ErrorCode.ACCESS_DENIED, () -> e.coffer.deleteObjectVersion(b, "k", v.versionId(), null));
            Thread.sleep(Math.max(0, Duration.between(Instant.now(), until).toMillis() + 50));
            assertThat(e.coffer.deleteObjectVersion(b, "k", v.versionId(), null).versionId())
                    .isEqualTo(v.versionId());
        }
    }

    @Test
    void defaultRetentionLocksPutsCopiesAndCompletedUploadsAndTaggingKeepsTheLock() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            Bucket b = e.coffer.createBucket("locked", "alice", null, true);
            e.coffer.putObjectLockConfiguration(b, new ObjectLockConfiguration(ObjectLockMode.GOVERNANCE, 2, 0));
            Instant before = Instant.now();
            ObjectInfo put = put(e.coffer, "p", 1, 100, ObjectLock.NONE);
            ObjectLock lock = e.coffer.objectLock(b, "p", put.versionId());
            assertThat(lock.mode()).isEqualTo(ObjectLockMode.GOVERNANCE);
            assertThat(lock.retainUntil()).isBetween(before.plus(Duration.ofDays(2)).minusMillis(1),
                    Instant.now().plus(Duration.ofDays(2)));

            ObjectInfo copy = e.coffer.copyObject(CopySource.of("locked", "p"), b, "c", null, null,
                    null);
            assertThat(e.coffer.objectLock(b, "c", copy.versionId()).mode()).isEqualTo(ObjectLockMode.GOVERNANCE);
            // a lock the write asks for wins over the default
            ObjectInfo explicit = e.coffer.copyObject(CopySource.of("locked", "p"), b, "x", null, null,
                    null, new ObjectLock(ObjectLockMode.COMPLIANCE, inDays(5), false));
            assertThat(e.coffer.objectLock(b, "x", explicit.versionId()).mode())
                    .isEqualTo(ObjectLockMode.COMPLIANCE);

            String upload = e.coffer.createMultipartUpload(b, "m", null, null);
            PartInfo part = e.coffer.uploadPart(b, "m", upload, 1, 100, null, TestData.stream(2, 100));
            ObjectInfo done = e.coffer.completeMultipartUpload(b, "m", upload,
                    List.of(new CompletedPart(1, part.etag())), null, Map.of());
            assertThat(e.coffer.objectLock(b, "m", done.versionId()).mode()).isEqualTo(ObjectLockMode.GOVERNANCE);

            // tagging rewrites the current version under a new id (as it does everywhere); the lock goes with it
            e.coffer.putObjectTags(b, "p", Map.of("t", "1"));
            ObjectInfo tagged = e.coffer.headObject("locked", "p");
            assertThat(e.coffer.objectLock(b, "p", tagged.versionId())).isEqualTo(lock);
            assertCode(ErrorCode.ACCESS_DENIED, () -> e.coffer.deleteObjectVersion(b, "p", tagged.versionId(),
                    null));
        }
    }

    @Test
    void locksNeedABucketWithObjectLockAndARetentionInTheFuture() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            Bucket plain = e.coffer.createBucket("plain", "alice");
            assertThat(e.coffer.objectLockConfiguration(plain)).isEmpty();
            assertCode(ErrorCode.INVALID_REQUEST, () -> e.coffer.putObject(PutObjectRequest.of("plain", "k", 1),
                    TestData.stream(1, 1), new ObjectLock(null, null, true)));
            e.coffer.putObject(PutObjectRequest.of("plain", "k", 1), TestData.stream(1, 1));
            assertCode(ErrorCode.INVALID_REQUEST, () -> e.coffer.objectLock(plain, "k", null));
            // Object Lock on an existing bucket needs versioning enabled first
            assertCode(ErrorCode.INVALID_BUCKET_STATE,
                    () -> e.coffer.putObjectLockConfiguration(plain, ObjectLockConfiguration.NO_DEFAULT));
            e.coffer.putBucketVersioning(plain, BucketVersioning.ENABLED);
            e.coffer.putObjectLockConfiguration(plain, ObjectLockConfiguration.NO_DEFAULT);
            assertThat(e.coffer.objectLockConfiguration(plain)).isPresent();

            Bucket b = e.coffer.createBucket("locked", "alice", null, true);
            assertCode(ErrorCode.INVALID_ARGUMENT, () -> put(e.coffer, "k", 1, 1,
                    new ObjectLock(ObjectLockMode.GOVERNANCE, Instant.now().minusSeconds(1), false)));
            ObjectInfo v = put(e.coffer, "k", 1, 1, ObjectLock.NONE);
            assertCode(ErrorCode.INVALID_ARGUMENT, () -> e.coffer.putObjectRetention(b, "k", v.versionId(),
                    ObjectLockMode.GOVERNANCE, Instant.now().minusSeconds(1), false));
            assertCode(ErrorCode.NO_SUCH_VERSION, () -> e.coffer.putObjectRetention(b, "k",
                    "0123456789abcdef0123456789abcdef", ObjectLockMode.GOVERNANCE, inDays(1), false));
            assertCode(ErrorCode.INVALID_RETENTION_PERIOD,
                    () -> new ObjectLockConfiguration(ObjectLockMode.GOVERNANCE, 1, 1));
            assertCode(ErrorCode.INVALID_RETENTION_PERIOD,
                    () -> new ObjectLockConfiguration(ObjectLockMode.GOVERNANCE, 0, 0));
            // the failed PUT left no lock behind
            assertThat(lockRecords(e)).isEmpty();
        }
    }

    @Test
    void reindexRestoresLocksAndTheBucketConfigurationFromTheBackendAlone() throws Exception {
        String compliant;
        String held;
        String small;
        try (TestEngine e = TestEngine.open(dir)) {
            Bucket b = e.coffer.createBucket("locked", "alice", null, true);
            e.coffer.putObjectLockConfiguration(b, new ObjectLockConfiguration(ObjectLockMode.COMPLIANCE, 0, 1));
            compliant = put(e.coffer, "big", 1, BIG, ObjectLock.NONE).versionId();
            held = put(e.coffer, "held", 2, BIG, ObjectLock.NONE).versionId();
            e.coffer.putObjectLegalHold(b, "held", held, true);
            small = put(e.coffer, "small", 3, 10, new ObjectLock(ObjectLockMode.GOVERNANCE, inDays(3), true))
                    .versionId(); // inline: its manifest lives in a group, its lock in a record of its own
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            ReindexReport report = rebuilt.reindex();
            assertThat(report.clean()).isTrue();
            Bucket b = rebuilt.headBucket("locked");
            assertThat(rebuilt.objectLockConfiguration(b))
                    .contains(new ObjectLockConfiguration(ObjectLockMode.COMPLIANCE, 0, 1));
            assertThat(rebuilt.objectLock(b, "big", compliant).mode()).isEqualTo(ObjectLockMode.COMPLIANCE);
            ObjectLock heldLock = rebuilt.objectLock(b, "held", held);
            assertThat(heldLock.legalHold()).isTrue();
            assertThat(rebuilt.objectLock(b, "small", small).mode()).isEqualTo(ObjectLockMode.GOVERNANCE);
            assertThat(rebuilt.objectLock(b, "small", small).legalHold()).isTrue();
            assertCode(ErrorCode.ACCESS_DENIED, () -> rebuilt.deleteObjectVersion(b, "big", compliant, null, true));
            assertCode(ErrorCode.ACCESS_DENIED, () -> rebuilt.deleteObjectVersion(b, "small", small, null, true));
            assertCode(ErrorCode.INVALID_BUCKET_STATE,
                    () -> rebuilt.putBucketVersioning(b, BucketVersioning.SUSPENDED));
        }
    }

    @Test
    void fsckChecksLockRecordsAndFindsMissingOnesAndGcCollectsThoseOfVersionsThatAreNotAfterTheGracePeriod() throws Exception {
        try (TestEngine e = TestEngine.open(dir, o -> o.gcGrace(Duration.ofMillis(800)))) {
            Bucket b = e.coffer.createBucket("locked", "alice", null, true);
            ObjectInfo kept = put(e.coffer, "k", 1, BIG, new ObjectLock(ObjectLockMode.GOVERNANCE, inDays(1), false));
            assertThat(e.coffer.fsck(true).clean()).isTrue();
            assertThat(e.coffer.fsck(true).orphans()).isEmpty();

            // a crash between a new version's lock record and its commit leaves a record no version has
            String stray = BackendLayout.lock(BackendLayout.newId());
            e.blobs.put(stray, BlobContent.of(ObjectLockRecords.seal(e.masterKey, "locked", "gone",
                    BackendLayout.idOf(stray), new ObjectLock(ObjectLockMode.COMPLIANCE, inDays(1), false))));
            assertThat(e.coffer.fsck(false).orphans()).containsExactly(stray);
            e.coffer.collectGarbage();
            assertThat(e.blobs.head(stray)).as("younger than the grace period: its PUT may be in flight").isPresent();
            Thread.sleep(1100);
            e.coffer.collectGarbage();
            assertThat(e.blobs.head(stray)).isEmpty();
            assertThat(e.blobs.head(BackendLayout.lock(kept.versionId()))).as("a live version's record").isPresent();

            // a record weaker than the metadata row, or one that does not open, is damage
            String record = BackendLayout.lock(kept.versionId());
            e.blobs.put(record, BlobContent.of(ObjectLockRecords.seal(e.masterKey, "locked", "k",
                    kept.versionId(), ObjectLock.NONE)));
            assertThat(e.coffer.fsck(true).damaged()).singleElement().satisfies(d -> assertThat(d)
                    .startsWith(record).contains("is stronger than its sealed record"));
            e.blobs.put(record, BlobContent.of(ObjectLockRecords.seal(e.masterKey, "locked", "k",
                    kept.versionId(), new ObjectLock(ObjectLockMode.GOVERNANCE, inDays(1).minusSeconds(60), true))));
            assertThat(e.coffer.fsck(true).damaged()).as("shorter retention").singleElement()
                    .satisfies(d -> assertThat(d).startsWith(record));
            e.blobs.put(record, BlobContent.of(ObjectLockRecords.seal(e.masterKey, "locked", "k",
                    kept.versionId(), new ObjectLock(ObjectLockMode.COMPLIANCE, inDays(3), true))));
            assertThat(e.coffer.fsck(true).clean()).as("a stronger record: an interrupted weakening change").isTrue();
            e.blobs.put(record, BlobContent.of(new byte[40]));
            assertThat(e.coffer.fsck(true).damaged()).singleElement().satisfies(d -> assertThat(d)
                    .startsWith(record).contains("does not open"));
            assertThat(e.coffer.fsck(false).clean()).as("without reading data, records are only listed").isTrue();
            assertThat(e.coffer.objectLock(b, "k", kept.versionId()).mode()).isEqualTo(ObjectLockMode.GOVERNANCE);

            // a locked version whose record is gone would come back unlocked from reindex: damage, even unread
            e.blobs.delete(record);
            assertThat(e.coffer.fsck(false).damaged()).singleElement().satisfies(d -> assertThat(d)
                    .startsWith(record + ": missing").contains(kept.versionId()));
        }
    }

    @Test
    void aChangeThatFailsHalfwayNeverLeavesTheRecordWeakerThanTheRow() throws Exception {
        FaultyBlobStore faulty = new FaultyBlobStore(new DirectoryBlobStore(dir.resolve("blobs")));
        try (JdbcMetadataStore meta = JdbcMetadataStore.sqlite(dir.resolve("coffer.db"));
             Coffer c = Coffer.builder().blobStore(faulty).metadataStore(meta)
                     .masterKey(MasterKey.loadOrCreate(dir.resolve("master.key"))).build()) {
            Bucket b = c.createBucket("locked", "alice", null, true);
            ObjectInfo v = put(c, "k", 1, 100, new ObjectLock(ObjectLockMode.GOVERNANCE, inDays(1), true));

            // lifting the hold weakens the lock: the row commits first, so a failed record write leaves it stronger
            faulty.failNextPuts(1);
            assertThatThrownBy(() -> c.putObjectLegalHold(b, "k", v.versionId(), false))
                    .isInstanceOf(CofferException.class);
            assertThat(c.objectLock(b, "k", v.versionId()).legalHold()).isFalse();
            assertThat(c.fsck(true).clean()).isTrue();

            // setting it strengthens the lock: the record goes first, so a failed write changes nothing
            faulty.failNextPuts(1);
            assertThatThrownBy(() -> c.putObjectLegalHold(b, "k", v.versionId(), true))
                    .isInstanceOf(CofferException.class);
            assertThat(c.objectLock(b, "k", v.versionId()).legalHold()).isFalse();
            assertThat(c.fsck(true).clean()).isTrue();

            // shortening a governance retention with the bypass weakens it too
            faulty.failNextPuts(1);
            Instant shorter = inDays(1).minusSeconds(3600);
            assertThatThrownBy(() -> c.putObjectRetention(b, "k", v.versionId(), ObjectLockMode.GOVERNANCE, shorter,
                    true)).isInstanceOf(CofferException.class);
            assertThat(c.objectLock(b, "k", v.versionId()).retainUntil()).isEqualTo(shorter.truncatedTo(
                    java.time.temporal.ChronoUnit.MILLIS));
            assertThat(c.fsck(true).clean()).isTrue();
        }
    }
}
