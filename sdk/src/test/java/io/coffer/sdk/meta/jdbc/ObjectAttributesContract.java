package io.coffer.sdk.meta.jdbc;

import static io.coffer.sdk.BucketVersioning.ENABLED;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.meta.ObjectRecord;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Changing a version's attributes in place (issue 21: object tagging and ACLs keep the version id), mixed into
 * {@link MetadataStoreContractTest} so that it runs on SQLite and PostgreSQL: current, noncurrent and null versions,
 * a refusal changing nothing, and the new attributes travelling with the version when it becomes current again.
 */
interface ObjectAttributesContract {
    Instant TA = Instant.parse("2026-07-08T09:10:11.123Z");

    JdbcMetadataStore metadata();

    private ObjectRecord commitVersion(String key, String id, int chunk, BucketVersioning versioning) {
        ObjectRecord r = new ObjectRecord("ab", key, id, 10, "etag-" + id, TA, bytes("attrs-" + id),
                bytes("manifest-" + id), ids(chunk), versioning != ENABLED, false);
        metadata().commitObject(r, MetadataStoreContractTest.newChunks("attr-pack-" + chunk, chunk),
                Precondition.NONE, null, versioning);
        return r;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    default void attributesOfAnyVersionChangeInPlaceAndTravelWithIt() {
        metadata().createBucket(new Bucket("ab", "alice", "us-east-1", TA));
        commitVersion("k", "old", 801, ENABLED);
        commitVersion("k", "new", 802, ENABLED);

        Optional<ObjectRecord> current = metadata().updateObjectAttributes("ab", "k", null, v -> {
            assertThat(v.versionId()).isEqualTo("new");
            assertThat(v.attributes()).isEqualTo(bytes("attrs-new"));
            return bytes("tagged-new");
        });
        assertThat(current).hasValueSatisfying(v -> assertThat(v.attributes()).isEqualTo(bytes("tagged-new")));
        Optional<ObjectRecord> old = metadata().updateObjectAttributes("ab", "k", "old", v -> bytes("tagged-old"));
        assertThat(old).hasValueSatisfying(v -> assertThat(v.versionId()).isEqualTo("old"));

        ObjectRecord newRow = metadata().object("ab", "k").orElseThrow();
        assertThat(newRow.versionId()).isEqualTo("new");
        assertThat(newRow.attributes()).isEqualTo(bytes("tagged-new"));
        assertThat(newRow.manifest()).isEqualTo(bytes("manifest-new"));
        ObjectRecord oldRow = metadata().objectVersion("ab", "k", "old").orElseThrow();
        assertThat(oldRow.attributes()).isEqualTo(bytes("tagged-old"));
        assertThat(oldRow.chunkRefs()).isEqualTo(ids(801));

        assertThatThrownBy(() -> metadata().updateObjectAttributes("ab", "k", "old", v -> {
            throw CofferException.of(ErrorCode.PRECONDITION_FAILED, "refused");
        })).isInstanceOfSatisfying(CofferException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.PRECONDITION_FAILED));
        assertThat(metadata().objectVersion("ab", "k", "old").orElseThrow().attributes())
                .isEqualTo(bytes("tagged-old"));
        assertThat(metadata().updateObjectAttributes("ab", "k", "gone", v -> bytes("x"))).isEmpty();
        assertThat(metadata().updateObjectAttributes("ab", "missing", null, v -> bytes("x"))).isEmpty();

        // the current version removed for good: the noncurrent one comes back as current with what it holds now
        assertThat(metadata().deleteVersion("ab", "k", "new")).isPresent();
        ObjectRecord promoted = metadata().object("ab", "k").orElseThrow();
        assertThat(promoted.versionId()).isEqualTo("old");
        assertThat(promoted.attributes()).isEqualTo(bytes("tagged-old"));
    }

    @Test
    default void theNullVersionIsChangedByTheClientIdNull() {
        metadata().createBucket(new Bucket("ab", "alice", "us-east-1", TA));
        commitVersion("n", "engine-id-1", 811, BucketVersioning.UNVERSIONED);
        Optional<ObjectRecord> changed = metadata().updateObjectAttributes("ab", "n", BucketVersioning.NULL_VERSION,
                v -> bytes("tagged-null"));
        assertThat(changed).hasValueSatisfying(v -> assertThat(v.versionId()).isEqualTo("engine-id-1"));
        assertThat(metadata().object("ab", "n").orElseThrow().attributes()).isEqualTo(bytes("tagged-null"));
        commitVersion("n", "engine-id-2", 812, ENABLED);
        assertThat(metadata().updateObjectAttributes("ab", "n", BucketVersioning.NULL_VERSION,
                v -> bytes("noncurrent-null"))).hasValueSatisfying(v -> assertThat(v.versionId())
                .isEqualTo("engine-id-1"));
        assertThat(metadata().objectVersion("ab", "n", BucketVersioning.NULL_VERSION).orElseThrow().attributes())
                .isEqualTo(bytes("noncurrent-null"));
        assertThat(metadata().object("ab", "n").orElseThrow().attributes()).isEqualTo(bytes("attrs-engine-id-2"));
    }
}
