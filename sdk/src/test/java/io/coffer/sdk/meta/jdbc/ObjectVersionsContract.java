package io.coffer.sdk.meta.jdbc;

import static io.coffer.sdk.BucketVersioning.ENABLED;
import static io.coffer.sdk.BucketVersioning.SUSPENDED;
import static io.coffer.sdk.BucketVersioning.UNVERSIONED;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.ids;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.newChunks;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectVersion;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.VersionPage;
import io.coffer.sdk.meta.NewChunks;
import io.coffer.sdk.meta.ObjectRecord;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Bucket versioning in the metadata store (schema 6), mixed into {@link MetadataStoreContractTest} so that it runs
 * on SQLite and PostgreSQL: versions keep their chunk references, delete markers, the null version, permanent deletes
 * that bring the next version back, and ListObjectVersions paged by key and version id markers.
 */
interface ObjectVersionsContract {
    Instant TV = Instant.parse("2026-03-04T05:06:07.089Z");

    JdbcMetadataStore metadata();

    private static ObjectRecord version(String key, String id, boolean nullVersion, int... chunks) {
        return new ObjectRecord("vb", key, id, 10L * chunks.length, "etag-" + id, TV, new byte[] {1},
                ("manifest-" + id).getBytes(StandardCharsets.UTF_8), ids(chunks), nullVersion, false);
    }

    private static ObjectRecord marker(String key, String id, boolean nullVersion) {
        return new ObjectRecord("vb", key, id, 0, "", TV, null, ("marker-" + id).getBytes(StandardCharsets.UTF_8),
                List.of(), nullVersion, true);
    }

    private void versionedBucket() {
        metadata().createBucket(new Bucket("vb", "alice", "us-east-1", TV));
    }

    private List<ObjectRecord> put(BucketVersioning mode, ObjectRecord r, NewChunks chunks) {
        return metadata().commitObject(r, chunks, Precondition.NONE, null, mode).stream().toList();
    }

    private long refs(int chunk) {
        OptionalLong n = metadata().refCount(MetadataStoreContractTest.id(chunk));
        assertThat(n).isPresent();
        return n.getAsLong();
    }

    private List<String> listed(VersionPage page) {
        return page.versions().stream()
                .map(v -> v.key() + ":" + v.versionId() + (v.deleteMarker() ? ":marker" : "") + (v.latest() ? ":latest"
                        : ""))
                .toList();
    }

    private VersionPage all(String prefix, String delimiter) {
        return metadata().listVersions("vb", prefix, delimiter, null, null, 1000);
    }

    @Test
    default void anEnabledBucketKeepsEveryVersionWithItsReferences() {
        versionedBucket();
        assertThat(put(ENABLED, version("k", "v1", false, 1, 2), newChunks("p1", 1, 2))).isEmpty();
        assertThat(put(ENABLED, version("k", "v2", false, 2, 3), newChunks("p2", 3))).isEmpty();
        assertThat(metadata().object("vb", "k")).map(ObjectRecord::versionId).contains("v2");
        assertThat(metadata().objectVersion("vb", "k", "v1")).map(ObjectRecord::etag).contains("etag-v1");
        assertThat(metadata().objectVersion("vb", "k", "v2")).map(ObjectRecord::versionId).contains("v2");
        assertThat(metadata().objectVersion("vb", "k", "v9")).isEmpty();
        assertThat(metadata().objectVersion("vb", "k", "null")).isEmpty();
        assertThat(List.of(refs(1), refs(2), refs(3))).containsExactly(1L, 2L, 1L);
        assertThat(metadata().versionIds()).containsExactlyInAnyOrder("v1", "v2");
        assertThat(listed(all("", null))).containsExactly("k:v2:latest", "k:v1");
    }

    @Test
    default void aDeleteAddsAMarkerAndDeletingTheMarkerBringsTheObjectBack() {
        versionedBucket();
        put(ENABLED, version("k", "v1", false, 1), newChunks("p1", 1));
        assertThat(metadata().deleteObject("vb", "k", null, ENABLED, marker("k", "m1", false))).isEmpty();
        assertThat(metadata().object("vb", "k")).isEmpty();
        assertThat(metadata().listObjects("vb", "", null, null, 10).objects()).isEmpty();
        assertThat(metadata().objectVersion("vb", "k", "m1")).map(ObjectRecord::deleteMarker).contains(true);
        assertThat(refs(1)).isEqualTo(1);
        // a second delete adds a second marker, also on a key without object
        metadata().deleteObject("vb", "k", null, ENABLED, marker("k", "m2", false));
        metadata().deleteObject("vb", "gone", null, ENABLED, marker("gone", "m3", false));
        assertThat(listed(all("", null))).containsExactly("gone:m3:marker:latest", "k:m2:marker:latest",
                "k:m1:marker", "k:v1");
        assertThatThrownBy(() -> metadata().deleteBucket("vb")).isInstanceOfSatisfying(CofferException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.BUCKET_NOT_EMPTY));

        assertThat(metadata().deleteVersion("vb", "k", "m2")).map(ObjectRecord::deleteMarker).contains(true);
        assertThat(metadata().object("vb", "k")).isEmpty();
        assertThat(metadata().deleteVersion("vb", "k", "m1")).map(ObjectRecord::versionId).contains("m1");
        assertThat(metadata().object("vb", "k")).map(ObjectRecord::versionId).contains("v1");
        assertThat(listed(all("", null))).containsExactly("gone:m3:marker:latest", "k:v1:latest");
        assertThat(metadata().deleteVersion("vb", "k", "m1")).isEmpty();
    }

    @Test
    default void deletingTheCurrentVersionReleasesItAndMakesTheNextCurrent() {
        versionedBucket();
        put(ENABLED, version("k", "v1", false, 1), newChunks("p1", 1));
        put(ENABLED, version("k", "v2", false, 2), newChunks("p2", 2));
        put(ENABLED, version("k", "v3", false, 3), newChunks("p3", 3));
        assertThat(metadata().deleteVersion("vb", "k", "v2")).map(ObjectRecord::versionId).contains("v2");
        assertThat(refs(2)).isZero();
        assertThat(metadata().deleteVersion("vb", "k", "v3")).map(ObjectRecord::versionId).contains("v3");
        assertThat(refs(3)).isZero();
        assertThat(metadata().object("vb", "k")).map(ObjectRecord::versionId).contains("v1");
        assertThat(refs(1)).isEqualTo(1);
        metadata().deleteVersion("vb", "k", "v1");
        assertThat(metadata().object("vb", "k")).isEmpty();
        assertThat(all("", null).versions()).isEmpty();
        metadata().deleteBucket("vb");
    }

    @Test
    default void theNullVersionIsReplacedWhileSuspendedAndKeptWhileEnabled() {
        versionedBucket();
        put(UNVERSIONED, version("k", "n0", true, 1), newChunks("p1", 1));
        put(ENABLED, version("k", "v1", false, 2), newChunks("p2", 2));
        assertThat(listed(all("", null))).containsExactly("k:v1:latest", "k:null");
        assertThat(metadata().objectVersion("vb", "k", "null")).map(ObjectRecord::versionId).contains("n0");
        // suspended: the write replaces the null version (noncurrent here), v1 stays
        assertThat(put(SUSPENDED, version("k", "n1", true, 3), newChunks("p3", 3)))
                .extracting(ObjectRecord::versionId).containsExactly("n0");
        assertThat(refs(1)).isZero();
        assertThat(listed(all("", null))).containsExactly("k:null:latest", "k:v1");
        // a suspended write over the current null version replaces it
        assertThat(put(SUSPENDED, version("k", "n2", true, 1), NewChunks.NONE))
                .extracting(ObjectRecord::versionId).containsExactly("n1");
        assertThat(refs(3)).isZero();
        // a suspended delete replaces the null version by a null delete marker
        assertThat(metadata().deleteObject("vb", "k", null, SUSPENDED, marker("k", "m1", true)))
                .map(ObjectRecord::versionId).contains("n2");
        assertThat(listed(all("", null))).containsExactly("k:null:marker:latest", "k:v1");
        assertThat(metadata().deleteVersion("vb", "k", "null")).map(ObjectRecord::versionId).contains("m1");
        assertThat(metadata().object("vb", "k")).map(ObjectRecord::versionId).contains("v1");
        assertThat(metadata().versionIds()).containsExactly("v1");
    }

    @Test
    default void preconditionsSeeOnlyTheCurrentVersion() {
        versionedBucket();
        put(ENABLED, version("k", "v1", false), NewChunks.NONE);
        metadata().deleteObject("vb", "k", null, ENABLED, marker("k", "m1", false));
        // If-None-Match: * passes over a current delete marker, If-Match finds no object
        metadata().commitObject(version("k", "v2", false), NewChunks.NONE, new Precondition(null, true), null,
                ENABLED);
        assertThatThrownBy(() -> metadata().commitObject(version("k", "v3", false), NewChunks.NONE,
                new Precondition(null, true), null, ENABLED)).isInstanceOfSatisfying(CofferException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.PRECONDITION_FAILED));
        assertThatThrownBy(() -> metadata().deleteObject("vb", "none", "\"x\"", ENABLED, marker("none", "m2", false)))
                .isInstanceOfSatisfying(CofferException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.NO_SUCH_KEY));
        assertThat(listed(all("", null))).containsExactly("k:v2:latest", "k:m1:marker", "k:v1");
    }

    @Test
    default void versionListingsPageByKeyAndVersionMarkersAndGroupByDelimiter() {
        versionedBucket();
        String[] keys = {"a", "b/1", "b/2", "c", "d"};
        int n = 0;
        for (int round = 0; round < 3; round++) {
            for (String key : keys) {
                n++;
                if (key.equals("c") && round == 1) {
                    metadata().deleteObject("vb", key, null, ENABLED, marker(key, "x" + n, false));
                } else {
                    put(ENABLED, version(key, "x" + n, false), NewChunks.NONE);
                }
            }
        }
        VersionPage whole = all("", null);
        assertThat(whole.versions()).hasSize(15);
        assertThat(listed(whole).subList(0, 3)).containsExactly("a:x11:latest", "a:x6", "a:x1");
        assertThat(listed(whole).subList(9, 12)).containsExactly("c:x14:latest", "c:x9:marker", "c:x4");
        for (int pageSize : new int[] {1, 2, 4, 7}) {
            List<ObjectVersion> paged = new ArrayList<>();
            String keyMarker = null;
            String versionMarker = null;
            VersionPage page;
            do {
                page = metadata().listVersions("vb", "", null, keyMarker, versionMarker, pageSize);
                assertThat(page.versions()).hasSizeLessThanOrEqualTo(pageSize);
                paged.addAll(page.versions());
                keyMarker = page.nextKeyMarker();
                versionMarker = page.nextVersionIdMarker();
            } while (page.truncated());
            assertThat(paged).as("pages of %d", pageSize).isEqualTo(whole.versions());
        }
        // a key marker alone resumes after all of its versions; an unknown version id marker too
        assertThat(listed(metadata().listVersions("vb", "", null, "c", null, 2)))
                .containsExactly("d:x15:latest", "d:x10");
        assertThat(listed(metadata().listVersions("vb", "", null, "c", "ffff", 1)))
                .containsExactly("d:x15:latest");
        VersionPage grouped = all("", "/");
        assertThat(grouped.commonPrefixes()).containsExactly("b/");
        assertThat(grouped.versions()).extracting(ObjectVersion::key).containsOnly("a", "c", "d").hasSize(9);
        VersionPage prefixed = all("b/", null);
        assertThat(listed(prefixed).subList(0, 2)).containsExactly("b/1:x12:latest", "b/1:x7");
        assertThat(prefixed.versions()).hasSize(6);
        assertThatThrownBy(() -> metadata().listVersions("none", "", null, null, null, 10))
                .isInstanceOfSatisfying(CofferException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.NO_SUCH_BUCKET));
    }
}
