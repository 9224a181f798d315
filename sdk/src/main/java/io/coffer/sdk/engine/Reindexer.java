package io.coffer.sdk.engine;

import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.ProgressListener;
import io.coffer.sdk.ReindexReport;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.crypto.ChunkIntegrityException;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.manifest.ManifestCodec;
import io.coffer.sdk.meta.ChunkLocation;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.NewChunks;
import io.coffer.sdk.meta.ObjectRecord;
import io.coffer.sdk.meta.PackRecord;
import io.coffer.sdk.pack.PackIndex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds an empty metadata store from the backend alone: bucket records, then every pack's index (the chunk index),
 * then every manifest, on its own or in a group, replaying each key's versions oldest first as the writes that made
 * them: a null version replaces the key's null version (so of an unversioned key the newest wins: a crash between an
 * overwrite's commit and the deletion of the old manifest leaves both), a version with its own id (versioning
 * enabled) is kept beside the others, a delete marker is added as a delete does; a grouped version with a tombstone
 * is gone; last, Object Lock records give the restored versions their locks and version attribute records their tags
 * and ACLs. Versions of a key written in the same
 * millisecond are ordered by version id, which may differ from the order they were committed in.
 * Records that do not open under the master key (altered, truncated, moved or sealed under another key) are not
 * restored: each is named in the report's {@code damaged} list with the reason, and logged. Uploads in progress are
 * not on the backend and are not restored.
 */
final class Reindexer {
    private static final Logger LOG = LoggerFactory.getLogger(Reindexer.class);

    private static final Comparator<Manifest> AGE =
            Comparator.comparing(Manifest::lastModified).thenComparing(Manifest::versionId);

    private final EngineContext ctx;
    private final MetadataStore meta;
    private final BlobStore blobs;
    private final Map<String, List<Manifest>> versionsByKey = new HashMap<>();
    private final Map<Manifest, byte[]> sealedOf = new IdentityHashMap<>();
    private final List<String> damaged = new ArrayList<>();
    private final ProgressListener progress;

    Reindexer(EngineContext ctx, ProgressListener progress) {
        this.ctx = ctx;
        this.progress = progress;
        this.meta = ctx.config.metadata();
        this.blobs = ctx.config.blobs();
    }

    ReindexReport run() {
        if (!meta.isEmpty()) {
            throw CofferException.invalid("reindex writes only into an empty metadata store");
        }
        try {
            int buckets = 0;
            progress.stage("bucket records", -1);
            for (BlobInfo b : blobs.list(BackendLayout.BUCKETS)) {
                progress.advance(1);
                try {
                    StoredRecords.BucketRecord r = StoredRecords.openBucketRecord(ctx.config.masterKey(), b.name(),
                            blobs.read(b.name(), 0, (int) b.size()));
                    meta.createBucket(r.bucket());
                    r.configs().forEach((name, doc) -> meta.putBucketConfig(r.bucket().name(), name, doc));
                    buckets++;
                } catch (ChunkIntegrityException | MalformedRecordException e) {
                    skip(b.name(), e);
                }
            }
            int packs = 0;
            long chunks = 0;
            progress.stage("pack indexes", -1);
            for (BlobInfo b : blobs.list(BackendLayout.PACKS)) {
                progress.advance(1);
                try {
                    List<ChunkLocation> locs = PackIndex.read(blobs, b.name(), b.size(), ctx.config.masterKey());
                    meta.registerPack(new PackRecord(b.name(), b.size(), b.lastModified()), locs);
                    packs++;
                    chunks += locs.size();
                } catch (ChunkIntegrityException | MalformedRecordException e) {
                    skip(b.name(), e);
                }
            }
            Set<String> buried = new HashSet<>();
            progress.stage("tombstones", -1);
            for (BlobInfo b : blobs.list(BackendLayout.TOMBSTONES)) {
                progress.advance(1);
                try {
                    buried.add(StoredRecords.openTombstone(ctx.config.masterKey(), b.name(),
                            blobs.read(b.name(), 0, (int) b.size())));
                } catch (ChunkIntegrityException | MalformedRecordException e) {
                    skip(b.name(), e);
                }
            }
            progress.stage("manifests", -1);
            for (BlobInfo b : blobs.list(BackendLayout.MANIFESTS)) {
                progress.advance(1);
                try {
                    byte[] sealed = blobs.read(b.name(), 0, (int) b.size());
                    consider(StoredRecords.openManifest(ctx.config.masterKey(), b.name(), sealed), sealed);
                } catch (ChunkIntegrityException | MalformedRecordException e) {
                    skip(b.name(), e);
                }
            }
            progress.stage("manifest groups", -1);
            for (BlobInfo b : blobs.list(BackendLayout.GROUPS)) {
                progress.advance(1);
                List<byte[]> members;
                try {
                    members = ManifestGroups.decode(blobs.read(b.name(), 0, (int) b.size()));
                } catch (MalformedRecordException e) {
                    skip(b.name(), e);
                    continue;
                }
                for (int i = 0; i < members.size(); i++) {
                    String versionId = BackendLayout.groupMember(BackendLayout.idOf(b.name()), i);
                    if (buried.contains(versionId)) {
                        continue;
                    }
                    String name = BackendLayout.manifest(versionId);
                    try {
                        consider(StoredRecords.openManifest(ctx.config.masterKey(), name, members.get(i)),
                                members.get(i));
                    } catch (ChunkIntegrityException | MalformedRecordException e) {
                        skip(b.name() + " member " + i, e);
                    }
                }
            }
            long objects = 0;
            progress.stage("objects", versionsByKey.size());
            for (List<Manifest> versions : versionsByKey.values()) {
                progress.advance(1);
                versions.sort(AGE);
                boolean current = false;
                for (Manifest m : versions) {
                    current = replay(m) ? !m.deleteMarker() : current;
                }
                objects += current ? 1 : 0;
            }
            restoreLocks();
            restoreAttributes();
            return new ReindexReport(buckets, objects, packs, chunks, damaged);
        } catch (IOException | UncheckedIOException e) {
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "reindex could not read the backend: "
                    + e.getMessage(), e);
        }
    }

    /**
     * Object Lock records: each restores the lock of the version it names if that version was restored (a record of a
     * version that is gone, or was never committed, is left out).
     */
    private void restoreLocks() throws IOException {
        progress.stage("object locks", -1);
        for (BlobInfo b : blobs.list(BackendLayout.LOCKS)) {
            progress.advance(1);
            try {
                ObjectLockRecords.Opened r = ObjectLockRecords.open(ctx.config.masterKey(), b.name(),
                        blobs.read(b.name(), 0, (int) b.size()));
                Optional<ObjectRecord> version = meta.objectVersion(r.bucket(), r.key(), r.versionId())
                        .or(() -> meta.objectVersion(r.bucket(), r.key(), BucketVersioning.NULL_VERSION))
                        .filter(v -> v.versionId().equals(r.versionId()));
                if (version.isPresent()) {
                    meta.putObjectLock(r.bucket(), r.versionId(), r.lock());
                }
            } catch (ChunkIntegrityException | MalformedRecordException e) {
                skip(b.name(), e);
            }
        }
    }

    /**
     * Version attribute records: each gives the version it names, if that version was restored, the tags and ACL it
     * holds in place of its manifest's (a record of a version that is gone is left out).
     */
    private void restoreAttributes() throws IOException {
        progress.stage("version attributes", -1);
        for (BlobInfo b : blobs.list(BackendLayout.ATTRIBUTES)) {
            progress.advance(1);
            try {
                VersionAttributes.restore(meta, VersionAttributeRecords.open(ctx.config.masterKey(), b.name(),
                        blobs.read(b.name(), 0, (int) b.size())));
            } catch (ChunkIntegrityException | MalformedRecordException e) {
                skip(b.name(), e);
            }
        }
    }

    private void consider(Manifest m, byte[] sealed) {
        versionsByKey.computeIfAbsent(m.bucket() + "\u0000" + m.key(), k -> new ArrayList<>()).add(m);
        sealedOf.put(m, sealed);
    }

    /** Commits one version as the write or delete that made it did; false (reported) if it cannot be restored. */
    private boolean replay(Manifest m) {
        ObjectRecord r = new ObjectRecord(m.bucket(), m.key(), m.versionId(), m.size(), m.etag(), m.lastModified(),
                ManifestCodec.encodeAttributes(m), sealedOf.get(m), m.distinctChunkIds(), m.nullVersion(),
                m.deleteMarker());
        BucketVersioning as = m.nullVersion() ? BucketVersioning.SUSPENDED : BucketVersioning.ENABLED;
        try {
            if (m.deleteMarker()) {
                meta.deleteObject(m.bucket(), m.key(), null, as, r);
            } else {
                meta.commitObject(r, NewChunks.NONE, Precondition.NONE, null, as);
            }
            return true;
        } catch (CofferException e) {
            if (e.code() != ErrorCode.CONFLICT_RETRY && e.code() != ErrorCode.NO_SUCH_BUCKET) {
                throw e;
            }
            skip(BackendLayout.manifest(m.versionId()), e);
            return false;
        }
    }

    private void skip(String blob, Exception why) {
        String reason = why instanceof CofferException ce && ce.code() == ErrorCode.NO_SUCH_BUCKET
                ? "its bucket record is missing or damaged" : why.getMessage();
        damaged.add(blob + ": " + reason);
        LOG.warn("reindex could not restore {}: {}", blob, reason);
    }
}
