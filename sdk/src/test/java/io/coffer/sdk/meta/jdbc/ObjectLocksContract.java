package io.coffer.sdk.meta.jdbc;

import static io.coffer.sdk.BucketVersioning.ENABLED;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.ObjectLockMode;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.meta.NewChunks;
import io.coffer.sdk.meta.ObjectRecord;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Object Lock rows in the metadata store (schema 8), mixed into {@link MetadataStoreContractTest} so that it runs on
 * SQLite and PostgreSQL: locks by version id, a change decided in its transaction, a permanent delete refused by its
 * guard changing nothing, and the lock row leaving with its version.
 */
interface ObjectLocksContract {
    Instant TL = Instant.parse("2026-05-06T07:08:09.123Z");
    ObjectLock COMPLIANT = new ObjectLock(ObjectLockMode.COMPLIANCE, Instant.parse("2099-01-01T00:00:00.001Z"),
            false);

    JdbcMetadataStore metadata();

    private ObjectRecord commit(String key, String id, int chunk) {
        ObjectRecord r = new ObjectRecord("lb", key, id, 10, "etag-" + id, TL, new byte[] {1},
                ("manifest-" + id).getBytes(StandardCharsets.UTF_8), ids(chunk), false, false);
        metadata().commitObject(r, MetadataStoreContractTest.newChunks("lock-pack-" + chunk, chunk), Precondition.NONE, null, ENABLED);
        return r;
    }

    private void lockBucket() {
        metadata().createBucket(new Bucket("lb", "alice", "us-east-1", TL));
    }

    @Test
    default void aLockIsStoredByVersionIdAndNoneRemovesIt() {
        lockBucket();
        assertThat(metadata().objectLock("v1")).isEqualTo(ObjectLock.NONE);
        metadata().putObjectLock("lb", "v1", COMPLIANT);
        assertThat(metadata().objectLock("v1")).isEqualTo(COMPLIANT);
        assertThat(metadata().lockedVersionIds()).containsExactly("v1");
        ObjectLock held = COMPLIANT.withLegalHold(true).withRetention(null, null);
        metadata().putObjectLock("lb", "v1", held);
        assertThat(metadata().objectLock("v1")).isEqualTo(held);
        metadata().putObjectLock("lb", "v1", ObjectLock.NONE);
        assertThat(metadata().objectLock("v1")).isEqualTo(ObjectLock.NONE);
        assertThat(metadata().lockedVersionIds()).isEmpty();
    }

    @Test
    default void aGuardThatRefusesLeavesTheVersionAndItsLockAndOneThatAllowsTakesBoth() {
        lockBucket();
        commit("k", "old", 701);
        commit("k", "new", 702);
        metadata().putObjectLock("lb", "old", COMPLIANT);
        metadata().putObjectLock("lb", "new", COMPLIANT);
        for (String id : List.of("old", "new")) {
            assertThatThrownBy(() -> metadata().deleteVersion("lb", "k", id, lock -> {
                assertThat(lock).isEqualTo(COMPLIANT);
                throw CofferException.of(ErrorCode.ACCESS_DENIED, "locked");
            })).isInstanceOfSatisfying(CofferException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.ACCESS_DENIED));
            assertThat(metadata().objectVersion("lb", "k", id)).isPresent();
            assertThat(metadata().objectLock(id)).isEqualTo(COMPLIANT);
        }
        assertThat(metadata().deleteVersion("lb", "k", "old", lock -> { })).isPresent();
        assertThat(metadata().objectLock("old")).isEqualTo(ObjectLock.NONE);
        assertThat(metadata().objectVersion("lb", "k", "old")).isEmpty();
        assertThat(metadata().objectLock("new")).isEqualTo(COMPLIANT);
    }

    @Test
    default void aChangeSeesTheVersionAndItsLockAndARefusalChangesNothing() {
        lockBucket();
        commit("k", "v1", 703);
        commit("k", "v2", 704);
        metadata().putObjectLock("lb", "v1", COMPLIANT);
        Optional<ObjectLock> changed = metadata().updateObjectLock("lb", "k", "v1", (v, current) -> {
            assertThat(v.versionId()).isEqualTo("v1");
            assertThat(current).isEqualTo(COMPLIANT);
            return current.withLegalHold(true);
        });
        assertThat(changed).contains(COMPLIANT.withLegalHold(true));
        // null: the current version
        assertThat(metadata().updateObjectLock("lb", "k", null, (v, current) -> {
            assertThat(v.versionId()).isEqualTo("v2");
            return COMPLIANT;
        })).contains(COMPLIANT);
        assertThatThrownBy(() -> metadata().updateObjectLock("lb", "k", "v2", (v, current) -> {
            throw CofferException.of(ErrorCode.ACCESS_DENIED, "shorter");
        })).isInstanceOf(CofferException.class);
        assertThat(metadata().objectLock("v2")).isEqualTo(COMPLIANT);
        assertThat(metadata().updateObjectLock("lb", "k", "nosuch", (v, current) -> COMPLIANT)).isEmpty();
        assertThat(metadata().objectLock("nosuch")).isEqualTo(ObjectLock.NONE);
    }

    @Test
    default void deletingAnEmptyBucketDropsLocksOfVersionsNeverCommitted() {
        lockBucket();
        metadata().putObjectLock("lb", "orphan", COMPLIANT);
        metadata().deleteBucket("lb");
        assertThat(metadata().objectLock("orphan")).isEqualTo(ObjectLock.NONE);
    }
}
