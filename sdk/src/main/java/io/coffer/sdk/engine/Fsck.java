package io.coffer.sdk.engine;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.FsckReport;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.crypto.ChunkIntegrityException;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.manifest.ManifestEntry;
import io.coffer.sdk.meta.BucketRecord;
import io.coffer.sdk.meta.ChunkLocation;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.ObjectPage;
import io.coffer.sdk.meta.ObjectRecord;
import io.coffer.sdk.meta.ObjectSummary;
import io.coffer.sdk.pack.PackIndex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks every committed object against the chunk index and the backend: its manifest opens, every chunk is indexed
 * and lies inside a pack that exists; with {@code readData}, every chunk (once per distinct chunk) is read, decrypted
 * and compared with its hash, and every pack index is opened. Blobs no record refers to are reported as orphans.
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

    Fsck(EngineContext ctx) {
        this.ctx = ctx;
        this.meta = ctx.config.metadata();
        this.blobs = ctx.config.blobs();
    }

    FsckReport run(boolean readData) {
        try {
            Map<String, Long> packSizes = new HashMap<>();
            for (BlobInfo b : blobs.list(BackendLayout.PACKS)) {
                packSizes.put(b.name(), b.size());
            }
            Set<String> manifestBlobs = new HashSet<>();
            for (BlobInfo b : blobs.list(BackendLayout.MANIFESTS)) {
                manifestBlobs.add(b.name());
            }
            for (BucketRecord bucket : meta.buckets()) {
                if (blobs.head(StoredRecords.bucketBlob(ctx.config.masterKey(), bucket.name())).isEmpty()) {
                    damaged.add(bucket.name() + ": bucket record missing from the backend (reindex would lose it)");
                }
                String after = null;
                ObjectPage page;
                do {
                    page = meta.listObjects(bucket.name(), "", null, after, 1000);
                    for (ObjectSummary s : page.objects()) {
                        meta.object(bucket.name(), s.key()).ifPresent(r -> checkObject(r, packSizes, manifestBlobs,
                                readData));
                    }
                    after = page.nextAfter();
                } while (page.truncated());
            }
            List<String> orphans = new ArrayList<>();
            Set<String> knownPacks = new HashSet<>();
            meta.packs().forEach(p -> knownPacks.add(p.name()));
            knownPacks.addAll(meta.retiredPacks(Instant.now().plusSeconds(1)));
            for (String pack : packSizes.keySet()) {
                if (!knownPacks.contains(pack)) {
                    orphans.add(pack);
                } else if (readData) {
                    checkPackIndex(pack, packSizes.get(pack));
                }
            }
            Set<String> versions = new HashSet<>(meta.versionIds());
            for (String m : manifestBlobs) {
                if (!versions.contains(BackendLayout.idOf(m))) {
                    orphans.add(m);
                }
            }
            orphans.sort(null);
            return new FsckReport(objects, chunks, bytesRead, damaged, orphans);
        } catch (IOException | UncheckedIOException e) {
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "fsck could not read the backend: " + e.getMessage(),
                    e);
        }
    }

    private void checkObject(ObjectRecord r, Map<String, Long> packSizes, Set<String> manifestBlobs,
                             boolean readData) {
        objects++;
        String where = r.bucket() + "/" + r.key();
        String blob = BackendLayout.manifest(r.versionId());
        if (!manifestBlobs.contains(blob)) {
            damaged.add(where + ": manifest blob " + blob + " missing from the backend (reindex would lose it)");
        }
        Manifest m;
        try {
            m = StoredRecords.openManifest(ctx.config.masterKey(), blob, r.manifest());
        } catch (ChunkIntegrityException | MalformedRecordException e) {
            damaged.add(where + ": manifest does not open (" + e.getMessage() + ")");
            return;
        }
        Map<ChunkId, ChunkLocation> locs = meta.locate(m.distinctChunkIds());
        for (ManifestEntry e : m.entries()) {
            chunks++;
            ChunkLocation loc = locs.get(e.id());
            if (loc == null) {
                damaged.add(where + ": chunk " + e.id() + " is not in the chunk index");
                continue;
            }
            Long packSize = packSizes.get(loc.pack());
            if (packSize == null) {
                damaged.add(where + ": chunk " + e.id() + " is in pack " + loc.pack() + ", missing from the backend");
                continue;
            }
            if (loc.offset() + loc.length() > packSize) {
                damaged.add(where + ": chunk " + e.id() + " lies past the end of pack " + loc.pack());
                continue;
            }
            if (readData && verified.add(e.id())) {
                verifyChunk(where, e, loc);
            }
        }
    }

    private void verifyChunk(String where, ManifestEntry e, ChunkLocation loc) {
        try {
            byte[] bytes = blobs.read(loc.pack(), loc.offset(), loc.length());
            bytesRead += bytes.length;
            ctx.cipher().open(e.key(), bytes, 0, bytes.length, e.length(), e.hash());
        } catch (ChunkIntegrityException ex) {
            damaged.add(where + ": chunk " + e.id() + " in pack " + loc.pack() + " failed its integrity check");
        } catch (IOException ex) {
            damaged.add(where + ": chunk " + e.id() + " could not be read from pack " + loc.pack() + " ("
                    + ex.getMessage() + ")");
        }
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
