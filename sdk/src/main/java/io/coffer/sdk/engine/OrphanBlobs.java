package io.coffer.sdk.engine;

import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.meta.MetadataStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The blobs garbage collection deletes besides retired packs (and a gc plan counts): unindexed packs and manifests,
 * groups with no live member, tombstones whose group goes or is gone, and Object Lock records and version attribute
 * records of versions that are not (a crash between a lock record and its version's commit, or between a version's
 * removal and its record's; an attribute record is left to gc when its version is overwritten or removed), all older
 * than the cutoff. One rule for the
 * collector and the planner, so a dry run says what a pass does.
 */
final class OrphanBlobs {
    private OrphanBlobs() {
    }

    /**
     * The orphans in the order they are to be deleted: a group before its tombstones, so a crash in between leaves
     * tombstones without a group (deleted next pass), never a group whose dead members lost their tombstones.
     */
    static List<BlobInfo> find(MetadataStore meta, BlobStore blobs, Instant cutoff) throws IOException {
        try {
            // list the backend before reading the store: a blob committed in between is then in the store's answer
            List<BlobInfo> packBlobs = blobs.list(BackendLayout.PACKS).toList();
            List<BlobInfo> manifestBlobs = blobs.list(BackendLayout.MANIFESTS).toList();
            List<BlobInfo> groupBlobs = blobs.list(BackendLayout.GROUPS).toList();
            List<BlobInfo> tombstoneBlobs = blobs.list(BackendLayout.TOMBSTONES).toList();
            List<BlobInfo> lockBlobs = blobs.list(BackendLayout.LOCKS).toList();
            List<BlobInfo> attributeBlobs = blobs.list(BackendLayout.ATTRIBUTES).toList();
            Set<String> knownPacks = new HashSet<>();
            meta.packs().forEach(p -> knownPacks.add(p.name()));
            knownPacks.addAll(meta.retiredPacks(Instant.now().plusSeconds(1)));
            Set<String> versions = new HashSet<>(meta.versionIds());
            Set<String> liveGroups = BackendLayout.groupsOf(versions);
            Set<String> groupsLeft = new HashSet<>();
            List<BlobInfo> orphans = new ArrayList<>();
            for (BlobInfo b : packBlobs) {
                addIf(orphans, b, !knownPacks.contains(b.name()), cutoff);
            }
            for (BlobInfo b : manifestBlobs) {
                addIf(orphans, b, !versions.contains(BackendLayout.idOf(b.name())), cutoff);
            }
            for (BlobInfo b : groupBlobs) {
                if (!addIf(orphans, b, !liveGroups.contains(BackendLayout.idOf(b.name())), cutoff)) {
                    groupsLeft.add(BackendLayout.idOf(b.name()));
                }
            }
            for (BlobInfo b : tombstoneBlobs) {
                String versionId = BackendLayout.idOf(b.name());
                boolean wellFormed = BackendLayout.isGrouped(versionId);
                addIf(orphans, b, !wellFormed || !groupsLeft.contains(BackendLayout.groupOf(versionId)), cutoff);
            }
            for (BlobInfo b : lockBlobs) {
                addIf(orphans, b, !versions.contains(BackendLayout.idOf(b.name())), cutoff);
            }
            for (BlobInfo b : attributeBlobs) {
                addIf(orphans, b, !versions.contains(BackendLayout.idOf(b.name())), cutoff);
            }
            return orphans;
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static boolean addIf(List<BlobInfo> orphans, BlobInfo b, boolean unreferenced, Instant cutoff) {
        if (!unreferenced || !b.lastModified().isBefore(cutoff)) {
            return false;
        }
        orphans.add(b);
        return true;
    }
}
