package io.coffer.sdk.engine;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CustomerKey;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.FsckReport;
import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.ObjectPage;
import io.coffer.sdk.ObjectSummary;
import io.coffer.sdk.ProgressListener;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.crypto.ChunkCipher;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.crypto.ChunkIntegrityException;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.manifest.ManifestEntry;
import io.coffer.sdk.meta.ChunkLocation;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.ObjectRecord;
import io.coffer.sdk.pack.PackIndex;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks every committed object against the chunk index and the backend: its manifest opens, every chunk is indexed
 * and lies inside a pack that exists, and every bucket and manifest has its record on the backend. With
 * {@code readData} it also reads every backend record reindex would rebuild from and checks it: every chunk (once per
 * distinct chunk) is decrypted and authenticated, every pack index, bucket record, manifest blob and tombstone is
 * opened under the master key, and bucket records, manifest blobs and group members are compared with the metadata
 * store. Blobs no record refers to are reported as orphans (with {@code readData}, also group members that are neither
 * committed nor buried by a tombstone).
 */
final class Fsck {
    private final EngineContext ctx;
    private final MetadataStore meta;
    private final BlobStore blobs;
    private final List<String> damaged = new ArrayList<>();
    private final Set<ChunkId> verified = new HashSet<>();
    private long objects;
    private long chunks;
    private long bytesRead;
    private final Map<String, Long> groupSizes = new HashMap<>();
    private final Map<String, Long> manifestSizes = new HashMap<>();
    private final Map<String, List<byte[]>> groups = new HashMap<>();
    private final ProgressListener progress;

    Fsck(EngineContext ctx, ProgressListener progress) {
        this.ctx = ctx;
        this.progress = progress;
        this.meta = ctx.config.metadata();
        this.blobs = ctx.config.blobs();
    }

    FsckReport run(boolean readData) {
        try {
            progress.stage("listing the backend", -1);
            Map<String, Long> packSizes = new HashMap<>();
            for (BlobInfo b : blobs.list(BackendLayout.PACKS)) {
                packSizes.put(b.name(), b.size());
            }
            Set<String> manifestBlobs = new HashSet<>();
            for (BlobInfo b : blobs.list(BackendLayout.MANIFESTS)) {
                manifestBlobs.add(b.name());
                manifestSizes.put(b.name(), b.size());
            }
            for (BlobInfo b : blobs.list(BackendLayout.GROUPS)) {
                manifestBlobs.add(b.name());
                groupSizes.put(b.name(), b.size());
            }
            Map<String, Long> bucketBlobs = new HashMap<>();
            for (BlobInfo b : blobs.list(BackendLayout.BUCKETS)) {
                bucketBlobs.put(b.name(), b.size());
            }
            progress.stage("objects", meta.stats().objects());
            for (Bucket bucket : meta.buckets()) {
                String blob = StoredRecords.bucketBlob(ctx.config.masterKey(), bucket.name());
                Long size = bucketBlobs.remove(blob);
                if (size == null) {
                    size = committedSince(blob);
                }
                if (size == null) {
                    damaged.add(bucket.name() + ": bucket record missing from the backend (reindex would lose it)");
                } else if (readData) {
                    checkBucketRecord(bucket, blob, size);
                }
                String after = null;
                ObjectPage page;
                do {
                    page = meta.listObjects(bucket.name(), "", null, after, 1000);
                    for (ObjectSummary s : page.objects()) {
                        meta.object(bucket.name(), s.key()).ifPresent(r -> checkObject(r, packSizes, manifestBlobs,
                                readData));
                        progress.advance(1);
                    }
                    after = page.nextAfter();
                } while (page.truncated());
            }
            List<String> orphans = new ArrayList<>(bucketBlobs.keySet());
            Set<String> knownPacks = new HashSet<>();
            meta.packs().forEach(p -> knownPacks.add(p.name()));
            knownPacks.addAll(meta.retiredPacks(Instant.now().plusSeconds(1)));
            progress.stage("packs", packSizes.size());
            for (Map.Entry<String, Long> pack : packSizes.entrySet()) {
                if (!knownPacks.contains(pack.getKey())) {
                    orphans.add(pack.getKey());
                } else if (readData) {
                    checkPackIndex(pack.getKey(), pack.getValue());
                }
                progress.advance(1);
            }
            Set<String> versions = new HashSet<>(meta.versionIds());
            Set<String> liveGroups = BackendLayout.groupsOf(versions);
            progress.stage("manifests", manifestBlobs.size());
            for (String m : manifestBlobs) {
                progress.advance(1);
                String id = BackendLayout.idOf(m);
                boolean group = groupSizes.containsKey(m);
                if (!(group ? liveGroups.contains(id) : versions.contains(id))) {
                    orphans.add(m);
                } else if (group && readData) {
                    orphans.addAll(deadMembers(m, versions));
                }
            }
            for (BlobInfo b : blobs.list(BackendLayout.TOMBSTONES)) {
                String v = BackendLayout.idOf(b.name());
                boolean groupExists = BackendLayout.isGrouped(v)
                        && groupSizes.containsKey(BackendLayout.group(BackendLayout.groupOf(v)));
                if (!groupExists) {
                    orphans.add(b.name());
                } else if (readData) {
                    checkTombstone(b);
                }
            }
            Set<String> lockRecords = new HashSet<>();
            for (BlobInfo b : blobs.list(BackendLayout.LOCKS)) {
                String v = BackendLayout.idOf(b.name());
                lockRecords.add(b.name());
                if (!versions.contains(v)) {
                    orphans.add(b.name());
                } else if (readData) {
                    checkLockRecord(b, v);
                }
            }
            checkLockedVersionsHaveRecords(versions, lockRecords);
            for (BlobInfo b : blobs.list(BackendLayout.ATTRIBUTES)) {
                String v = BackendLayout.idOf(b.name());
                if (!versions.contains(v)) {
                    orphans.add(b.name());
                } else if (readData) {
                    checkAttributeRecord(b, v);
                }
            }
            orphans.sort(null);
            return new FsckReport(objects, chunks, bytesRead, damaged, orphans);
        } catch (IOException | UncheckedIOException e) {
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "fsck could not read the backend: " + e.getMessage(),
                    e);
        }
    }

    /**
     * The size of a blob the listing at the start did not show, if it exists now: on a live deployment a write
     * commits after the listing (its blobs were uploaded after it), which is not damage.
     */
    private Long committedSince(String blob) {
        try {
            return blobs.head(blob).map(BlobInfo::size).orElse(null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void checkObject(ObjectRecord r, Map<String, Long> packSizes, Set<String> manifestBlobs,
                             boolean readData) {
        objects++;
        String where = r.bucket() + "/" + r.key();
        String blob = BackendLayout.manifest(r.versionId());
        String stored = BackendLayout.isGrouped(r.versionId())
                ? BackendLayout.group(BackendLayout.groupOf(r.versionId())) : blob;
        if (!manifestBlobs.contains(stored)) {
            Long size = committedSince(stored);
            if (size != null) {
                manifestBlobs.add(stored);
                (stored.equals(blob) ? manifestSizes : groupSizes).put(stored, size);
            }
        }
        if (!manifestBlobs.contains(stored)) {
            damaged.add(where + ": manifest blob " + stored + " missing from the backend (reindex would lose it)");
        } else if (readData && !stored.equals(blob)) {
            checkGroupMember(where, stored, r);
        } else if (readData) {
            checkManifestBlob(where, blob, r);
        }
        Manifest m;
        try {
            m = StoredRecords.openManifest(ctx.config.masterKey(), blob, r.manifest());
        } catch (ChunkIntegrityException | MalformedRecordException e) {
            damaged.add(where + ": manifest does not open (" + e.getMessage() + ")");
            return;
        }
        String mismatch = ObjectReads.mismatch(r, m);
        if (mismatch != null) {
            damaged.add(where + ": the metadata row does not match its sealed manifest (" + mismatch + ")");
            return;
        }
        boolean customerKey = CustomerKey.protects(m.attributes());
        Map<ChunkId, ChunkLocation> locs = meta.locate(m.distinctChunkIds());
        // an object's bytes in order must give its ETag: intact chunks in the wrong order fail only here
        EtagDigest etag = readData && !m.isLayer() && !customerKey ? new EtagDigest(m.partSizes()) : null;
        if (etag != null && m.isInline()) {
            etag.update(m.inline(), 0, m.inline().length);
        }
        int damagedBefore = damaged.size();
        for (ManifestEntry e : m.entries()) {
            chunks++;
            ChunkLocation loc = locs.get(e.id());
            if (loc == null) {
                damaged.add(where + ": chunk " + e.id() + " is not in the chunk index");
                continue;
            }
            Long packSize = packSizes.get(loc.pack());
            if (packSize == null && (packSize = committedSince(loc.pack())) != null) {
                packSizes.put(loc.pack(), packSize);
            }
            if (packSize == null) {
                damaged.add(where + ": chunk " + e.id() + " is in pack " + loc.pack() + ", missing from the backend");
                continue;
            }
            if (loc.offset() + loc.length() > packSize) {
                damaged.add(where + ": chunk " + e.id() + " lies past the end of pack " + loc.pack());
                continue;
            }
            if (etag != null) {
                // every entry is read, shared chunks again: the ETag needs the object's own bytes in its order
                verified.add(e.id());
                byte[] plain = verifyChunk(where, e, loc);
                if (plain != null) {
                    etag.update(plain, 0, e.length());
                }
            } else if (readData && !customerKey && verified.add(e.id())) {
                verifyChunk(where, e, loc);
            }
        }
        if (readData && m.isLayer()) {
            checkLayer(where, m);
        } else if (etag != null && damaged.size() == damagedBefore && !m.deleteMarker()
                && (etag.total() != m.size() || !etag.etag().equals(m.etag()))) {
            damaged.add(where + ": its chunks, read in the manifest's order, are not the bytes its ETag names ("
                    + etag.etag() + " for " + m.etag() + ")");
        }
    }

    /**
     * A layer-mode object's chunks re-encode to its original: as many bytes, with its ETag ({@link EtagDigest}).
     */
    private void checkLayer(String where, Manifest m) {
        EtagDigest etag = new EtagDigest(m.partSizes());
        try (InputStream in = new LayerReader().open(ctx, m, 0, m.size())) {
            byte[] buf = new byte[64 << 10];
            for (int got = in.read(buf); got >= 0; got = in.read(buf)) {
                etag.update(buf, 0, got);
            }
        } catch (IOException | RuntimeException ex) {
            damaged.add(where + ": layer does not re-encode (" + ex.getMessage() + ")");
            return;
        }
        if (etag.total() != m.size() || !etag.etag().equals(m.etag())) {
            damaged.add(where + ": layer re-encodes to other bytes than its ETag says");
        }
    }

    /** Reads and opens the chunk: its plaintext (the first {@code e.length()} bytes), or null if it is damaged. */
    private byte[] verifyChunk(String where, ManifestEntry e, ChunkLocation loc) {
        try {
            byte[] bytes = blobs.read(loc.pack(), loc.offset(), loc.length());
            bytesRead += bytes.length;
            // a compressed chunk (format 3) opens into its plaintext length, which the manifest bounds
            byte[] plain = ChunkCipher.isCompressed(bytes.length, e.length()) ? new byte[e.length()] : bytes;
            ctx.cipher().open(e.key(), bytes, 0, bytes.length, plain, 0, e.length(), e.hash());
            return plain;
        } catch (ChunkIntegrityException ex) {
            damaged.add(where + ": chunk " + e.id() + " in pack " + loc.pack() + " failed its integrity check");
        } catch (IOException ex) {
            damaged.add(where + ": chunk " + e.id() + " could not be read from pack " + loc.pack() + " ("
                    + ex.getMessage() + ")");
        }
        return null;
    }

    /**
     * With {@code readData}: the manifest blob holds this version's manifest, byte for byte as the metadata store does
     * (both are the same sealed value), and opens under its name.
     */
    private void checkManifestBlob(String where, String blob, ObjectRecord r) {
        byte[] stored;
        try {
            stored = read(blob, manifestSizes.get(blob));
        } catch (IOException e) {
            damaged.add(where + ": manifest blob " + blob + " unreadable (" + e.getMessage() + ")");
            return;
        }
        try {
            StoredRecords.openManifest(ctx.config.masterKey(), blob, stored);
        } catch (ChunkIntegrityException | MalformedRecordException e) {
            damaged.add(where + ": manifest blob " + blob + " does not open (" + e.getMessage() + ")");
            return;
        }
        if (!Arrays.equals(stored, r.manifest())) {
            damaged.add(where + ": manifest blob " + blob + " differs from the metadata store's manifest");
        }
    }

    /** With {@code readData}: the bucket's record on the backend opens and says what the metadata store says. */
    private void checkBucketRecord(Bucket bucket, String blob, long size) {
        try {
            Bucket stored = StoredRecords.openBucket(ctx.config.masterKey(), blob, read(blob, size));
            if (!stored.equals(bucket)) {
                damaged.add(bucket.name() + ": bucket record " + blob + " differs from the metadata store's");
            }
        } catch (ChunkIntegrityException | MalformedRecordException e) {
            damaged.add(bucket.name() + ": bucket record " + blob + " does not open (" + e.getMessage() + ")");
        } catch (IOException e) {
            damaged.add(bucket.name() + ": bucket record " + blob + " unreadable (" + e.getMessage() + ")");
        }
    }

    /**
     * With {@code readData}: a tombstone of a live group opens under its name; one that does not cannot keep reindex
     * from reviving the version it buries.
     */
    private void checkTombstone(BlobInfo b) {
        try {
            StoredRecords.openTombstone(ctx.config.masterKey(), b.name(), read(b.name(), b.size()));
        } catch (ChunkIntegrityException | MalformedRecordException e) {
            damaged.add(b.name() + ": tombstone does not open (" + e.getMessage() + "; reindex would revive "
                    + "the version it buries)");
        } catch (IOException e) {
            damaged.add(b.name() + ": tombstone unreadable (" + e.getMessage() + ")");
        }
    }

    /**
     * Every committed version with an Object Lock row has its sealed record: the record is written before the version
     * is committed ({@link ObjectLocks}), and without it reindex would restore the version unlocked. A record the
     * listing missed but that exists now belongs to a lock set since (not damage).
     */
    private void checkLockedVersionsHaveRecords(Set<String> versions, Set<String> lockRecords) {
        for (String v : meta.lockedVersionIds()) {
            String record = BackendLayout.lock(v);
            if (!versions.contains(v) || lockRecords.contains(record) || committedSince(record) != null) {
                continue;
            }
            ObjectLock row = meta.objectLock(v); // read again: a lock lifted since has no row and needs no record
            if (!row.equals(ObjectLock.NONE)) {
                damaged.add(record + ": missing, but version " + v + " has an Object Lock row (" + row
                        + "; reindex would restore the version unlocked)");
            }
        }
    }

    /**
     * With {@code readData}: the version's lock record opens and protects at least what its metadata row does. A
     * record stronger than the row is what a change that weakens a lock leaves when the gateway dies between its row
     * and its record ({@link ObjectLocks#change}); the next change of that version writes it again.
     */
    private void checkLockRecord(BlobInfo b, String versionId) {
        try {
            ObjectLockRecords.Opened opened = ObjectLockRecords.open(ctx.config.masterKey(), b.name(),
                    read(b.name(), b.size()));
            ObjectLock row = meta.objectLock(versionId);
            if (!opened.lock().covers(row)) {
                damaged.add(b.name() + ": the version's Object Lock row (" + row + ") is stronger than its sealed "
                        + "record (" + opened.lock() + "; reindex would restore the record's)");
            }
        } catch (ChunkIntegrityException | MalformedRecordException e) {
            damaged.add(b.name() + ": Object Lock record does not open (" + e.getMessage() + "; reindex would lose "
                    + "the version's lock)");
        } catch (IOException e) {
            damaged.add(b.name() + ": Object Lock record unreadable (" + e.getMessage() + ")");
        }
    }

    /**
     * With {@code readData}: the version's attribute record opens, names the version, and holds the tags and ACL its
     * metadata row does, or exactly those its change replaced: a change the gateway died in after writing the record
     * and before committing the row ({@link VersionAttributes}), which was never acknowledged and which reindex would
     * apply. Anything else would make reindex give the version other tags or another ACL than it has.
     */
    private void checkAttributeRecord(BlobInfo b, String versionId) {
        try {
            VersionAttributeRecords.Opened opened = VersionAttributeRecords.open(ctx.config.masterKey(), b.name(),
                    read(b.name(), b.size()));
            Optional<ObjectRecord> row = VersionAttributes.rowOf(meta, opened.bucket(), opened.key(),
                    versionId);
            if (row.isEmpty()) {
                damaged.add(b.name() + ": the attribute record names another bucket or key than its version's");
                return;
            }
            VersionAttributeRecords.Values held = VersionAttributeRecords.Values.of(
                    ObjectReads.info(row.get()).attributes());
            if (!held.equals(opened.values()) && !opened.replaced(held)) {
                damaged.add(b.name() + ": the version's tags and ACL differ from its sealed attribute record "
                        + "(reindex would restore the record's)");
            }
        } catch (ChunkIntegrityException | MalformedRecordException e) {
            damaged.add(b.name() + ": attribute record does not open (" + e.getMessage() + "; reindex would lose "
                    + "the version's tags and ACL)");
        } catch (IOException e) {
            damaged.add(b.name() + ": attribute record unreadable (" + e.getMessage() + ")");
        } catch (CofferException e) {
            damaged.add(b.name() + ": the version's row does not decode (" + e.getMessage() + ")");
        }
    }

    private byte[] read(String blob, long size) throws IOException {
        byte[] bytes = blobs.read(blob, 0, (int) size);
        bytesRead += bytes.length;
        return bytes;
    }

    /** With {@code readData}: the group holds this version's manifest, byte for byte as the metadata store does. */
    private void checkGroupMember(String where, String group, ObjectRecord r) {
        List<byte[]> members = groupMembers(group);
        int index = BackendLayout.memberIndex(r.versionId());
        if (members == null) {
            damaged.add(where + ": manifest group " + group + " unreadable");
        } else if (index < 0 || index >= members.size() || !Arrays.equals(members.get(index), r.manifest())) {
            damaged.add(where + ": manifest group " + group + " does not hold this version's manifest");
        }
    }

    /** With {@code readData}: a live group's members that are neither committed nor buried (reindex revives them). */
    private List<String> deadMembers(String group, Set<String> versions) throws IOException {
        List<byte[]> members = groupMembers(group);
        List<String> dead = new ArrayList<>();
        for (int i = 0; members != null && i < members.size(); i++) {
            String v = BackendLayout.groupMember(BackendLayout.idOf(group), i);
            if (!versions.contains(v) && blobs.head(BackendLayout.tombstone(v)).isEmpty()) {
                dead.add(group + " member " + i + " (no tombstone)");
            }
        }
        return dead;
    }

    /** A group's sealed manifests, read once per run; null if the group does not decode. */
    private List<byte[]> groupMembers(String group) {
        return groups.computeIfAbsent(group, g -> {
            try {
                byte[] bytes = blobs.read(g, 0, groupSizes.get(g).intValue());
                bytesRead += bytes.length;
                return ManifestGroups.decode(bytes);
            } catch (MalformedRecordException | IOException e) {
                return null;
            }
        });
    }

    private void checkPackIndex(String pack, long size) {
        try {
            PackIndex.read(blobs, pack, size, ctx.config.masterKey());
        } catch (ChunkIntegrityException | MalformedRecordException e) {
            damaged.add(pack + ": pack index does not open (" + e.getMessage() + ")");
        } catch (IOException e) {
            damaged.add(pack + ": pack index unreadable (" + e.getMessage() + ")");
        }
    }

}
