package io.coffer.sdk.meta.jdbc;

import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.T0;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.assertCode;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.ids;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.newChunks;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.object;
import static io.coffer.sdk.meta.jdbc.MetadataStoreContractTest.part;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.UploadPage;
import io.coffer.sdk.UploadRecord;
import io.coffer.sdk.meta.NewChunks;
import io.coffer.sdk.meta.ObjectRecord;
import io.coffer.sdk.meta.PartRecord;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Multipart uploads in the metadata store, mixed into {@link MetadataStoreContractTest} so that they run on every
 * dialect: parts referencing chunks, completion moving the references to the object, expiry and listing.
 */
interface MultipartUploadsContract extends StoreContract {
    @Test
    default void partsReferenceChunksAndReplacingAPartReleasesTheOldOne() {
        bucket("b");
        assertCode(ErrorCode.NO_SUCH_BUCKET,
                () -> metadata().createUpload(new UploadRecord("u0", "nope", "k", "alice", T0, null)));
        UploadRecord upload = new UploadRecord("u1", "b", "dir/ké", "alice", T0, new byte[] {3});
        metadata().createUpload(upload);
        UploadRecord read = metadata().upload("u1").orElseThrow();
        assertThat(read.key()).isEqualTo("dir/ké");
        assertThat(read.owner()).isEqualTo("alice");
        assertThat(read.initiated()).isEqualTo(T0);
        assertThat(read.attributes()).containsExactly(3);
        assertThat(metadata().upload("u2")).isEmpty();

        metadata().commitPart(part("u1", 1, 1, 2), newChunks("p1", 1, 2));
        metadata().commitPart(part("u1", 2, 2, 3), newChunks("p2", 3));
        metadata().commitPart(part("u1", 3, 4), newChunks("p3", 4));
        assertThat(List.of(refs(1), refs(2), refs(3), refs(4))).containsExactly(1L, 2L, 1L, 1L);

        metadata().commitPart(part("u1", 2, 3, 5), newChunks("p4", 5));
        assertThat(List.of(refs(1), refs(2), refs(3), refs(4), refs(5))).containsExactly(1L, 1L, 1L, 1L, 1L);

        assertThat(metadata().parts("u1", 0, 10)).extracting(PartRecord::partNumber).containsExactly(1, 2, 3);
        assertThat(metadata().parts("u1", 1, 1)).singleElement().satisfies(p -> {
            assertThat(p.partNumber()).isEqualTo(2);
            assertThat(p.chunkRefs()).containsExactlyElementsOf(ids(3, 5));
            assertThat(p.manifest()).containsExactly(8, 2);
            assertThat(p.etag()).isEqualTo("petag-2");
            assertThat(p.size()).isEqualTo(10);
        });
        assertThat(metadata().parts("u1", 3, 10)).isEmpty();
        assertThat(metadata().parts("nope", 0, 10)).isEmpty();

        assertCode(ErrorCode.NO_SUCH_UPLOAD, () -> metadata().commitPart(part("nope", 1, 1), NewChunks.NONE));
        assertCode(ErrorCode.CONFLICT_RETRY, () -> metadata().commitPart(part("u1", 4, 1, 77), NewChunks.NONE));
        assertThat(refs(1)).isEqualTo(1);

        metadata().abortUpload("u1");
        assertThat(metadata().upload("u1")).isEmpty();
        assertThat(metadata().parts("u1", 0, 10)).isEmpty();
        assertThat(List.of(refs(1), refs(2), refs(3), refs(4), refs(5))).containsOnly(0L);
        assertCode(ErrorCode.NO_SUCH_UPLOAD, () -> metadata().abortUpload("u1"));
    }

    @Test
    default void completingAnUploadMovesReferencesFromPartsToTheObject() {
        bucket("b");
        metadata().createUpload(new UploadRecord("u1", "b", "k", "alice", T0, null));
        metadata().commitPart(part("u1", 1, 1, 2), newChunks("p1", 1, 2));
        metadata().commitPart(part("u1", 2, 3), newChunks("p2", 3));
        metadata().commitPart(part("u1", 3, 4), newChunks("p3", 4));
        put("b", "k", "old", 4);
        assertThat(refs(4)).isEqualTo(2);

        assertCode(ErrorCode.NO_SUCH_UPLOAD, () -> metadata().commitObject(object("b", "k", "v1", 1, 2, 3),
                NewChunks.NONE, Precondition.NONE, "u9"));
        assertThat(metadata().object("b", "k")).map(ObjectRecord::versionId).contains("old");

        // part 3 is left out of the completed object: its chunk is released with the part
        Optional<ObjectRecord> replaced = metadata().commitObject(object("b", "k", "v1", 1, 2, 3), NewChunks.NONE,
                Precondition.NONE, "u1");
        assertThat(replaced).map(ObjectRecord::versionId).contains("old");
        assertThat(List.of(refs(1), refs(2), refs(3), refs(4))).containsExactly(1L, 1L, 1L, 0L);
        assertThat(metadata().upload("u1")).isEmpty();
        assertThat(metadata().parts("u1", 0, 100)).isEmpty();
        assertThat(metadata().object("b", "k")).map(ObjectRecord::versionId).contains("v1");
        assertCode(ErrorCode.NO_SUCH_UPLOAD, () -> metadata().commitObject(object("b", "k", "v2", 1), NewChunks.NONE,
                Precondition.NONE, "u1"));
        assertCode(ErrorCode.BUCKET_NOT_EMPTY, () -> metadata().deleteBucket("b"));
    }

    @Test
    default void uploadsInitiatedBeforeACutoffArePagedAndExpiredButACompletedOneIsLeftAlone() {
        bucket("b");
        bucket("other");
        Instant cutoff = T0.plusSeconds(60);
        metadata().createUpload(new UploadRecord("u1", "b", "k1", "alice", T0, null));
        metadata().createUpload(new UploadRecord("u2", "other", "k2", "alice", T0, null));
        metadata().createUpload(new UploadRecord("u3", "b", "k3", "alice", T0, null));
        metadata().createUpload(new UploadRecord("young", "b", "k4", "alice", cutoff, null));
        metadata().commitPart(part("u1", 1, 1, 2), newChunks("p1", 1, 2));
        metadata().commitPart(part("u3", 1, 3), newChunks("p2", 3));

        assertThat(metadata().uploadsInitiatedBefore(cutoff, null, 2)).extracting(UploadRecord::uploadId)
                .containsExactly("u1", "u2");
        assertThat(metadata().uploadsInitiatedBefore(cutoff, "u2", 2)).extracting(UploadRecord::uploadId)
                .containsExactly("u3");

        // u3 was completed meanwhile: its row is gone, so expiry leaves the object and its references alone
        metadata().commitObject(object("b", "k3", "v1", 3), NewChunks.NONE, Precondition.NONE, "u3");
        assertThat(metadata().expireUpload("u3", cutoff)).isFalse();
        assertThat(refs(3)).isEqualTo(1);
        assertThat(metadata().object("b", "k3")).map(ObjectRecord::versionId).contains("v1");

        assertThat(metadata().expireUpload("young", cutoff)).isFalse();
        assertThat(metadata().upload("young")).isPresent();
        assertThat(metadata().expireUpload("u1", cutoff)).isTrue();
        assertThat(metadata().expireUpload("u1", cutoff)).isFalse();
        assertThat(metadata().upload("u1")).isEmpty();
        assertThat(metadata().parts("u1", 0, 10)).isEmpty();
        assertThat(List.of(refs(1), refs(2))).containsExactly(0L, 0L);
        assertThat(metadata().uploadsInitiatedBefore(cutoff, null, 10)).extracting(UploadRecord::uploadId)
                .containsExactly("u2");
    }

    @Test
    default void anObjectRemembersTheUploadItWasCompletedFromUntilReplaced() {
        bucket("b");
        metadata().createUpload(new UploadRecord("u1", "b", "k", "alice", T0, null));
        metadata().commitPart(part("u1", 1, 1), newChunks("p1", 1));
        put("b", "k", "old", 1);
        assertThat(metadata().completedUpload("b", "k", "u1")).isEmpty();

        metadata().commitObject(object("b", "k", "v1", 1), NewChunks.NONE, Precondition.NONE, "u1");
        assertThat(metadata().completedUpload("b", "k", "u1")).map(ObjectRecord::versionId).contains("v1");
        assertThat(metadata().completedUpload("b", "k", "u2")).isEmpty();
        assertThat(metadata().completedUpload("b", "k2", "u1")).isEmpty();
        assertThat(metadata().completedUpload("other", "k", "u1")).isEmpty();

        put("b", "k", "v2", 1);
        assertThat(metadata().completedUpload("b", "k", "u1")).isEmpty();
    }

    @Test
    default void uploadsAreListedByKeyThenUploadIdWithMarkersAndDelimiters() {
        bucket("b");
        bucket("other");
        List<String[]> uploads = List.of(new String[] {"a/1", "u3"}, new String[] {"a/1", "u1"},
                new String[] {"a/2", "u2"}, new String[] {"b", "u5"}, new String[] {"b", "u4"},
                new String[] {"bé", "u6"}, new String[] {"b😀", "u7"}, new String[] {"c/x/y", "u8"});
        for (String[] u : uploads) {
            metadata().createUpload(new UploadRecord(u[1], "b", u[0], "alice", T0, null));
        }
        metadata().createUpload(new UploadRecord("u9", "other", "a/1", "alice", T0, null));

        UploadPage all = metadata().listUploads("b", "", null, null, null, 100);
        assertThat(all.uploads()).extracting(u -> u.key() + "#" + u.uploadId()).containsExactly(
                "a/1#u1", "a/1#u3", "a/2#u2", "b#u4", "b#u5", "bé#u6", "b😀#u7", "c/x/y#u8");
        assertThat(all.truncated()).isFalse();

        UploadPage first = metadata().listUploads("b", "", null, null, null, 4);
        assertThat(first.truncated()).isTrue();
        assertThat(first.nextKeyMarker()).isEqualTo("b");
        assertThat(first.nextUploadIdMarker()).isEqualTo("u4");
        UploadPage second = metadata().listUploads("b", "", null, first.nextKeyMarker(), first.nextUploadIdMarker(), 4);
        assertThat(second.uploads()).extracting(UploadRecord::uploadId).containsExactly("u5", "u6", "u7", "u8");
        assertThat(second.truncated()).isFalse();

        assertThat(metadata().listUploads("b", "", null, "b", null, 100).uploads()).extracting(UploadRecord::uploadId)
                .containsExactly("u6", "u7", "u8");

        UploadPage grouped = metadata().listUploads("b", "", "/", null, null, 3);
        assertThat(grouped.commonPrefixes()).containsExactly("a/");
        assertThat(grouped.uploads()).extracting(UploadRecord::uploadId).containsExactly("u4", "u5");
        assertThat(grouped.truncated()).isTrue();
        assertThat(grouped.nextKeyMarker()).isEqualTo("b");
        UploadPage rest = metadata().listUploads("b", "", "/", grouped.nextKeyMarker(), grouped.nextUploadIdMarker(), 3);
        assertThat(rest.uploads()).extracting(UploadRecord::uploadId).containsExactly("u6", "u7");
        assertThat(rest.commonPrefixes()).containsExactly("c/");
        assertThat(rest.truncated()).isFalse();

        UploadPage prefixed = metadata().listUploads("b", "c/", "/", null, null, 10);
        assertThat(prefixed.commonPrefixes()).containsExactly("c/x/");
        assertThat(prefixed.uploads()).isEmpty();
        UploadPage byPrefix = metadata().listUploads("b", "a/", null, null, null, 10);
        assertThat(byPrefix.uploads()).extracting(UploadRecord::uploadId).containsExactly("u1", "u3", "u2");
        assertCode(ErrorCode.NO_SUCH_BUCKET, () -> metadata().listUploads("nope", "", null, null, null, 10));
    }
}
