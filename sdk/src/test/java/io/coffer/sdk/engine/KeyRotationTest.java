package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.FsckReport;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.meta.ObjectRecord;
import io.coffer.sdk.testing.TestData;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A new master key wraps the old ones: what was written before a rotation reads back with only the new key. */
class KeyRotationTest {
    private static final int BIG = 3 << 20;
    private static final int SMALL = 2_000;

    @TempDir
    Path dir;

    @BeforeEach
    void newStore() {
        store = new KeyTestStore(dir);
    }

    private KeyTestStore store;

    @Test
    void dataWrittenBeforeTheRotationReadsBackWithOnlyTheNewKey() throws Exception {
        MasterKey old = MasterKey.random();
        MasterKey next = MasterKey.random();
        try (Coffer c = store.open(old, b -> { })) {
            c.createBucket("bkt", "t");
            c.putObject(PutObjectRequest.of("bkt", "big", BIG), TestData.stream(1, BIG));
            c.putObject(PutObjectRequest.of("bkt", "small", SMALL), TestData.stream(2, SMALL));
        }
        store.open(old, b -> b.rotateMasterKeyTo(next)).close();

        try (Coffer c = store.open(next, b -> { })) {
            assertContent(c, "big", 1, BIG);
            assertContent(c, "small", 2, SMALL);
            assertThat(c.listBuckets("t")).extracting(Bucket::name).containsExactly("bkt");
            // new writes are sealed under the new key; the old data deduplicates with them as before
            c.putObject(PutObjectRequest.of("bkt", "big-again", BIG), TestData.stream(1, BIG));
            assertContent(c, "big-again", 1, BIG);
            FsckReport report = c.fsck(true);
            assertThat(report.damaged()).isEmpty();
            assertThat(report.orphans()).isEmpty();
        }
        try (JdbcMetadataStore meta = JdbcMetadataStore.sqlite(dir.resolve("coffer.db"))) {
            ObjectRecord again = meta.object("bkt", "big-again").orElseThrow();
            assertThat(MasterKey.sealedKeyIdHex(again.manifest())).isEqualTo(next.keyIdHex());
            assertThat(MasterKey.sealedKeyIdHex(meta.object("bkt", "big").orElseThrow().manifest()))
                    .isEqualTo(old.keyIdHex());
        }
        // the old key no longer opens the store
        assertThatThrownBy(() -> store.open(old, b -> { }).close()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("expects master key " + next.keyIdHex());
    }

    @Test
    void bucketRecordsKeepTheirNamesSoABucketMadeBeforeTheRotationIsDeletedCleanly() throws Exception {
        MasterKey old = MasterKey.random();
        MasterKey next = MasterKey.random();
        try (Coffer c = store.open(old, b -> { })) {
            c.createBucket("bkt", "t");
        }
        store.open(old, b -> b.rotateMasterKeyTo(next)).close();

        try (Coffer c = store.open(next, b -> { })) {
            assertThat(c.fsck(false).damaged()).isEmpty();
            c.deleteBucket("bkt");
        }
        assertThat(store.blobs.list(BackendLayout.BUCKETS).toList()).isEmpty();
    }

    @Test
    void afterTwoRotationsTheNewestKeyReadsWhatEachKeyWroteAndOnlyItsWrappingsRemain() throws Exception {
        MasterKey first = MasterKey.random();
        MasterKey second = MasterKey.random();
        MasterKey third = MasterKey.random();
        try (Coffer c = store.open(first, b -> { })) {
            c.createBucket("bkt", "t");
            c.putObject(PutObjectRequest.of("bkt", "one", SMALL), TestData.stream(1, SMALL));
        }
        try (Coffer c = store.open(first, b -> b.rotateMasterKeyTo(second))) {
            c.putObject(PutObjectRequest.of("bkt", "two", BIG), TestData.stream(2, BIG));
        }
        store.open(second, b -> b.rotateMasterKeyTo(third)).close();

        try (Coffer c = store.open(third, b -> { })) {
            assertContent(c, "one", 1, SMALL);
            assertContent(c, "two", 2, BIG);
        }
        assertThat(store.blobs.list("k/previous/").toList()).extracting(BlobInfo::name).containsExactlyInAnyOrder(
                "k/previous/" + third.keyIdHex() + "/" + first.keyIdHex(),
                "k/previous/" + third.keyIdHex() + "/" + second.keyIdHex());
        assertThatThrownBy(() -> store.open(second, b -> { }).close()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aRotationToTheCurrentOrAnEarlierKeyIsRefused() throws Exception {
        MasterKey first = MasterKey.random();
        MasterKey second = MasterKey.random();
        store.open(first, b -> { }).close();
        assertThatThrownBy(() -> store.open(first, b -> b.rotateMasterKeyTo(first)).close())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is the current one");
        store.open(first, b -> b.rotateMasterKeyTo(second)).close();
        assertThatThrownBy(() -> store.open(second, b -> b.rotateMasterKeyTo(first)).close())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was used by this store before");
        // neither refusal changed the store
        store.open(second, b -> { }).close();
    }

    private static void assertContent(Coffer c, String key, long seed, int size) throws Exception {
        try (ObjectContent content = c.getObject("bkt", key)) {
            assertThat(content.stream().readAllBytes()).isEqualTo(TestData.stream(seed, size).readAllBytes());
        }
    }
}
