package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.ReindexReport;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.blob.FaultyBlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tags and ACLs of a version change in place (issue 21): the version keeps its id, bytes, ETag and Last-Modified,
 * any version can be changed by its id, the change lives in a sealed attribute record that reindex restores from the
 * backend alone, fsck checks it and gc collects it once its version is gone; a change that fails part way changes
 * nothing.
 */
class VersionAttributesTest {
    private static final int BIG = 40_000;
    private static final String PUBLIC = "OWNER:FULL_CONTROL,ALL_USERS:READ";

    @TempDir
    Path dir;

    private static ObjectInfo put(Coffer c, String bucket, String key, long seed, int size) {
        return c.putObject(PutObjectRequest.of(bucket, key, size).withAttributes(
                ObjectAttributes.ofContentType("text/plain").withTags(Map.of("from", "put"))),
                TestData.stream(seed, size));
    }

    private static void assertCode(ErrorCode code, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(CofferException.class,
                e -> assertThat(e.code()).isEqualTo(code));
    }

    private static Set<String> manifests(TestEngine e) throws Exception {
        return e.blobs().stream().map(BlobInfo::name)
                .filter(n -> n.startsWith(BackendLayout.MANIFESTS) || n.startsWith(BackendLayout.GROUPS))
                .collect(Collectors.toSet());
    }

    /** The engine's id of a key's current version (a null version's client id is "null"). */
    private static String engineId(TestEngine e, String bucket, String key) {
        return e.meta.object(bucket, key).orElseThrow().versionId();
    }

    @Test
    void changingTheCurrentVersionsTagsOrAclInAVersionedBucketKeepsItsId() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            Coffer c = e.coffer;
            Bucket b = c.createBucket("versioned", "alice");
            c.putBucketVersioning(b, BucketVersioning.ENABLED);
            String id = put(c, "versioned", "k", 1, BIG).versionId();
            c.putObjectTags("versioned", "k", Map.of("a", "1"));
            assertThat(c.headObject("versioned", "k").versionId()).isEqualTo(id);
            c.reviseObjectAttributes(b, "k", a -> a.withTags(Map.of("a", "2")));
            assertThat(c.headObject("versioned", "k", id).attributes().tags()).isEqualTo(Map.of("a", "2"));
            assertThat(c.listObjectVersions("versioned", null, null, null, null, 10).versions()).singleElement()
                    .satisfies(v -> assertThat(v.versionId()).isEqualTo(id));
        }
    }

    @Test
    void taggingAndAclChangesKeepTheVersionIdAndReachNoncurrentVersions() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            Coffer c = e.coffer;
            Bucket b = c.createBucket("versioned", "alice");
            c.putBucketVersioning(b, BucketVersioning.ENABLED);
            ObjectInfo v1 = put(c, "versioned", "k", 1, BIG);
            ObjectInfo v2 = put(c, "versioned", "k", 2, 10); // inline: its manifest lives in a group
            Set<String> manifestsBefore = manifests(e);

            c.putObjectTags(b, "k", Map.of("state", "current"));
            c.reviseObjectAttributes(b, "k", a -> a.withAcl(PUBLIC));
            ObjectInfo current = c.headObject("versioned", "k");
            assertThat(current.versionId()).isEqualTo(v2.versionId());
            assertThat(current.etag()).isEqualTo(v2.etag());
            assertThat(current.lastModified()).isEqualTo(v2.lastModified());
            assertThat(current.attributes().tags()).isEqualTo(Map.of("state", "current"));
            assertThat(current.attributes().headers()).containsEntry(ObjectAttributes.ACL_HEADER, PUBLIC);
            assertThat(current.attributes().contentType()).isEqualTo("text/plain");

            // the noncurrent version, by its id: its own tags and ACL change, the current version's stay
            ObjectInfo changed = c.putObjectTags(b, "k", v1.versionId(), Map.of("state", "old"));
            assertThat(changed.versionId()).isEqualTo(v1.versionId());
            c.reviseObjectAttributes(b, "k", v1.versionId(), a -> a.withAcl("OWNER:FULL_CONTROL,OWNER:READ"));
            ObjectInfo old = c.headObject("versioned", "k", v1.versionId());
            assertThat(old.attributes().tags()).isEqualTo(Map.of("state", "old"));
            assertThat(old.attributes().headers()).containsEntry(ObjectAttributes.ACL_HEADER,
                    "OWNER:FULL_CONTROL,OWNER:READ");
            assertThat(c.headObject("versioned", "k").attributes().tags()).isEqualTo(Map.of("state", "current"));
            try (ObjectContent content = c.getObject("versioned", "k", v1.versionId(), null, i -> { })) {
                assertThat(content.stream().readAllBytes()).isEqualTo(TestData.bytes(1, BIG));
            }
            assertThat(c.listObjectVersions("versioned", null, null, null, null, 10).versions()).hasSize(2);
            assertThat(manifests(e)).as("no manifest written or removed").isEqualTo(manifestsBefore);
            assertThat(e.blobs.head(BackendLayout.attributes(v1.versionId()))).isPresent();
            assertThat(e.blobs.head(BackendLayout.attributes(v2.versionId()))).isPresent();

            // a copy of a retagged version copies the tags it has now
            c.copyObject(CopySource.of("versioned", "k").atVersion(v1.versionId()), "versioned", "copy");
            assertThat(c.headObject("versioned", "copy").attributes().tags()).isEqualTo(Map.of("state", "old"));

            // a delete marker has no tags: MethodNotAllowed by its id, NoSuchKey as the current version
            String marker = c.deleteObjectVersion(b, "k", null, null, false).versionId();
            assertCode(ErrorCode.METHOD_NOT_ALLOWED, () -> c.putObjectTags(b, "k", marker, Map.of("a", "b")));
            assertCode(ErrorCode.NO_SUCH_KEY, () -> c.putObjectTags(b, "k", null, Map.of("a", "b")));
            assertCode(ErrorCode.NO_SUCH_VERSION, () -> c.putObjectTags(b, "k", "0".repeat(32), Map.of()));
            assertCode(ErrorCode.INVALID_ARGUMENT, () -> c.putObjectTags(b, "k", "not-an-id", Map.of()));
            assertCode(ErrorCode.INVALID_TAG, () -> c.putObjectTags(b, "k", v1.versionId(), Map.of("aws:x", "y")));
            assertThatThrownBy(() -> c.reviseObjectAttributes(b, "k", v1.versionId(),
                    a -> ObjectAttributes.ofContentType("image/png"))).isInstanceOf(IllegalArgumentException.class);
            assertThat(c.headObject("versioned", "k", v1.versionId()).attributes().contentType())
                    .isEqualTo("text/plain");
            assertThat(c.fsck(true).clean()).isTrue();
            assertThat(c.fsck(true).orphans()).isEmpty();
        }
    }

    @Test
    void reindexRestoresChangedTagsAndAclsOfEveryVersionFromTheBackendAlone() throws Exception {
        ObjectInfo v1;
        ObjectInfo v2;
        ObjectInfo plain;
        try (TestEngine e = TestEngine.open(dir)) {
            Coffer c = e.coffer;
            Bucket b = c.createBucket("versioned", "alice");
            c.putBucketVersioning(b, BucketVersioning.ENABLED);
            v1 = put(c, "versioned", "k", 1, 10);
            v2 = put(c, "versioned", "k", 2, BIG);
            c.putObjectTags(b, "k", v1.versionId(), Map.of("state", "old"));
            c.putObjectTags(b, "k", null, Map.of());
            c.reviseObjectAttributes(b, "k", a -> a.withAcl(PUBLIC));
            Bucket u = c.createBucket("unversioned", "alice");
            plain = put(c, "unversioned", "p", 3, BIG);
            c.putObjectTags(u, "p", Map.of("t", "1"));
            c.putObjectTags(u, "p", Map.of("t", "2"));
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            ReindexReport report = rebuilt.reindex();
            assertThat(report.damaged()).isEmpty();
            ObjectInfo current = rebuilt.headObject("versioned", "k");
            assertThat(current.versionId()).isEqualTo(v2.versionId());
            assertThat(current.attributes().tags()).isEmpty();
            assertThat(current.attributes().headers()).containsEntry(ObjectAttributes.ACL_HEADER, PUBLIC);
            ObjectInfo old = rebuilt.headObject("versioned", "k", v1.versionId());
            assertThat(old.attributes().tags()).isEqualTo(Map.of("state", "old"));
            assertThat(old.attributes().headers()).doesNotContainKey(ObjectAttributes.ACL_HEADER);
            assertThat(old.lastModified()).isEqualTo(v1.lastModified());
            ObjectInfo p = rebuilt.headObject("unversioned", "p");
            assertThat(p.attributes().tags()).isEqualTo(Map.of("t", "2"));
            assertThat(p.attributes().contentType()).isEqualTo("text/plain");
            assertThat(p.etag()).isEqualTo(plain.etag());
            assertThat(rebuilt.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void fsckTellsAnInterruptedChangeFromDamageAndReindexAppliesIt() throws Exception {
        String id;
        try (TestEngine e = TestEngine.open(dir)) {
            Coffer c = e.coffer;
            Bucket b = c.createBucket("tagged", "alice");
            put(c, "tagged", "k", 1, BIG);
            id = engineId(e, "tagged", "k");
            c.putObjectTags(b, "k", Map.of("t", "committed"));
            String record = BackendLayout.attributes(id);
            VersionAttributeRecords.Values committed = new VersionAttributeRecords.Values(Map.of("t", "committed"),
                    null);
            VersionAttributeRecords.Values next = new VersionAttributeRecords.Values(Map.of("t", "next"), PUBLIC);

            // killed after the record of a change, before its row: the row holds what the record replaced
            e.blobs.put(record, BlobContent.of(VersionAttributeRecords.seal(e.masterKey, "tagged", "k", id,
                    committed, next)));
            assertThat(c.fsck(true).clean()).as("an interrupted change is not damage").isTrue();
            assertThat(c.headObject("tagged", "k").attributes().tags()).isEqualTo(Map.of("t", "committed"));

            // a record that is neither what the row holds nor a change from it would make reindex change the version
            VersionAttributeRecords.Values other = new VersionAttributeRecords.Values(Map.of("t", "other"), null);
            e.blobs.put(record, BlobContent.of(VersionAttributeRecords.seal(e.masterKey, "tagged", "k", id,
                    other, next)));
            assertThat(c.fsck(true).damaged()).singleElement().satisfies(d -> assertThat(d).startsWith(record)
                    .contains("differ from its sealed attribute record"));
            e.blobs.put(record, BlobContent.of(VersionAttributeRecords.seal(e.masterKey, "tagged", "other-key",
                    id, committed, committed)));
            assertThat(c.fsck(true).damaged()).singleElement().satisfies(d -> assertThat(d).startsWith(record));
            e.blobs.put(record, BlobContent.of(new byte[40]));
            assertThat(c.fsck(true).damaged()).singleElement().satisfies(d -> assertThat(d).startsWith(record)
                    .contains("does not open"));
            assertThat(c.fsck(false).clean()).as("without reading data, records are only listed").isTrue();

            // the next change writes the record again whole
            c.putObjectTags(b, "k", Map.of("t", "again"));
            assertThat(c.fsck(true).clean()).isTrue();
            e.blobs.put(record, BlobContent.of(VersionAttributeRecords.seal(e.masterKey, "tagged", "k", id,
                    new VersionAttributeRecords.Values(Map.of("t", "again"), null), next)));
            assertThat(c.fsck(true).clean()).isTrue();
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            assertThat(rebuilt.reindex().damaged()).isEmpty();
            ObjectInfo info = rebuilt.headObject("tagged", "k");
            assertThat(info.versionId()).as("the null version").isNull();
            assertThat(info.attributes().tags()).isEqualTo(Map.of("t", "next"));
            assertThat(info.attributes().headers()).containsEntry(ObjectAttributes.ACL_HEADER, PUBLIC);
            assertThat(rebuilt.fsck(true).clean()).isTrue();
        }
    }

    @Test
    void gcKeepsTheRecordOfALiveVersionAndCollectsThatOfAVersionThatIsGone() throws Exception {
        try (TestEngine e = TestEngine.open(dir, o -> o.gcGrace(Duration.ofMillis(800)))) {
            Coffer c = e.coffer;
            Bucket b = c.createBucket("tagged", "alice");
            put(c, "tagged", "k", 1, BIG);
            String gone = BackendLayout.attributes(engineId(e, "tagged", "k"));
            c.putObjectTags(b, "k", Map.of("t", "1"));
            put(c, "tagged", "k", 2, BIG); // an unversioned overwrite: the first version is gone
            String kept = BackendLayout.attributes(engineId(e, "tagged", "k"));
            c.putObjectTags(b, "k", Map.of("t", "2"));
            assertThat(c.fsck(true).clean()).isTrue();
            assertThat(c.fsck(false).orphans()).containsExactly(gone);
            c.collectGarbage();
            assertThat(e.blobs.head(gone)).as("younger than the grace period").isPresent();
            Thread.sleep(1100);
            c.collectGarbage();
            assertThat(e.blobs.head(gone)).isEmpty();
            assertThat(e.blobs.head(kept)).as("a live version's record").isPresent();
            assertThat(c.fsck(true).orphans()).isEmpty();
            assertThat(c.headObject("tagged", "k").attributes().tags()).isEqualTo(Map.of("t", "2"));
            assertThat(c.copyObject(CopySource.of("tagged", "k"), "tagged", "copy", null, null, Precondition.NONE)
                    .attributes().tags()).isEqualTo(Map.of("t", "2"));
        }
    }

    @Test
    void aChangeThatFailsChangesNothingAndLeavesTheRecordSayingWhatTheRowHolds() throws Exception {
        FaultyBlobStore faulty = new FaultyBlobStore(new DirectoryBlobStore(dir.resolve("blobs")));
        AtomicBoolean refuseNext = new AtomicBoolean();
        try (JdbcMetadataStore jdbc = JdbcMetadataStore.sqlite(dir.resolve("coffer.db"))) {
            MetadataStore meta = (MetadataStore) Proxy.newProxyInstance(MetadataStore.class.getClassLoader(),
                    new Class<?>[] {MetadataStore.class}, (proxy, method, args) -> {
                        if (method.getName().equals("updateObjectAttributes") && refuseNext.getAndSet(false)) {
                            throw CofferException.of(ErrorCode.CONFLICT_RETRY, "refused for the test");
                        }
                        try {
                            return method.invoke(jdbc, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            try (Coffer c = Coffer.builder().blobStore(faulty).metadataStore(meta)
                    .masterKey(MasterKey.loadOrCreate(dir.resolve("master.key"))).build()) {
                Bucket b = c.createBucket("tagged", "alice");
                put(c, "tagged", "k", 1, BIG);
                c.putObjectTags(b, "k", Map.of("t", "kept"));

                // the record cannot be written: nothing changes
                faulty.failNextPuts(1);
                assertCode(ErrorCode.INTERNAL_ERROR, () -> c.putObjectTags(b, "k", Map.of("t", "lost")));
                assertThat(c.headObject("tagged", "k").attributes().tags()).isEqualTo(Map.of("t", "kept"));
                assertThat(c.fsck(true).clean()).isTrue();

                // the record is written, the transaction refuses: the record is written again from the row
                refuseNext.set(true);
                assertCode(ErrorCode.CONFLICT_RETRY, () -> c.putObjectTags(b, "k", Map.of("t", "refused")));
                assertThat(c.headObject("tagged", "k").attributes().tags()).isEqualTo(Map.of("t", "kept"));
                assertThat(c.fsck(true).clean()).isTrue();
            }
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            assertThat(rebuilt.reindex().damaged()).isEmpty();
            assertThat(rebuilt.headObject("tagged", "k").attributes().tags()).isEqualTo(Map.of("t", "kept"));
        }
    }
}
