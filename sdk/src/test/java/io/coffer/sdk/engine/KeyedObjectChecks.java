package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.meta.ObjectRecord;
import java.util.HashSet;
import java.util.Set;

/** Checks shared by the tests of objects under a key of their own (SSE-C customer keys, SSE-KMS keyring keys). */
final class KeyedObjectChecks {
    /** Stores {@code data} as object {@code key} of bucket {@code bkt} under {@code k} (null: no key of its own). */
    interface KeyedPut<K> {
        void put(String key, byte[] data, K k) throws Exception;
    }

    private KeyedObjectChecks() {
    }

    /**
     * {@code data} stored twice under {@code a} costs nothing the second time and shares every chunk; under {@code b},
     * or under no key, it is stored anew and shares none with {@code a}'s.
     */
    static <K> void assertDeduplicatesUnderTheSameKeyOnly(TestEngine e, byte[] data, K a, K b, KeyedPut<K> put)
            throws Exception {
        put.put("a1", data, a);
        long afterFirst = e.backendBytes();
        put.put("a2", data, a);
        assertThat(e.backendBytes() - afterFirst).isLessThan(data.length / 100);
        long beforeB = e.backendBytes();
        put.put("b", data, b);
        assertThat(e.backendBytes() - beforeB).isGreaterThanOrEqualTo(data.length);
        long beforePlain = e.backendBytes();
        put.put("plain", data, null);
        assertThat(e.backendBytes() - beforePlain).isGreaterThanOrEqualTo(data.length);
        Set<Object> ids = new HashSet<>(manifest(e, "a1").distinctChunkIds());
        assertThat(manifest(e, "a2").distinctChunkIds()).allMatch(ids::contains);
        assertThat(manifest(e, "b").distinctChunkIds()).noneMatch(ids::contains);
        assertThat(manifest(e, "plain").distinctChunkIds()).noneMatch(ids::contains);
    }

    /** The sealed manifest of the current version of {@code key} in bucket {@code bkt}, opened. */
    static Manifest manifest(TestEngine e, String key) throws Exception {
        ObjectRecord r = e.meta.object("bkt", key).orElseThrow();
        return StoredRecords.openManifest(e.masterKey, BackendLayout.manifest(r.versionId()), r.manifest());
    }
}
