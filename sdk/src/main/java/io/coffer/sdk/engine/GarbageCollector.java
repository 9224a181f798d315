package io.coffer.sdk.engine;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.GcReport;
import io.coffer.sdk.LeaseHeldException;
import io.coffer.sdk.ProgressListener;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.meta.ChunkLocation;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.PackRecord;
import io.coffer.sdk.meta.PackUsage;
import io.coffer.sdk.pack.PackWriter;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One garbage-collection pass (docs/FORMAT.md, "Garbage collection"). Each step is safe to interrupt at any instant:
 * <ol>
 *   <li>A pack with no live chunk is retired; a pack whose dead bytes reach the threshold is rewritten: its live
 *       chunks are copied (ciphertext as is) into a new pack, which is uploaded and registered, and then one
 *       transaction points the chunks at the new pack and retires the old one.</li>
 *   <li>A pack retired longer than the grace period ago is deleted: no reader can still hold a location in it.</li>
 *   <li>Packs and manifests on the backend that the metadata store does not know and that are older than the grace
 *       period are deleted: they were left by writes that crashed before their commit.</li>
 * </ol>
 * The grace period must exceed the longest upload (time from a pack's upload to its commit) and the longest read.
 */
final class GarbageCollector {
    private static final Logger LOG = LoggerFactory.getLogger(GarbageCollector.class);

    private final EngineContext ctx;
    private final MetadataStore meta;
    private final BlobStore blobs;

    GarbageCollector(EngineContext ctx) {
        this.ctx = ctx;
        this.meta = ctx.config.metadata();
        this.blobs = ctx.config.blobs();
    }

    /**
     * One pass under the gc lease ({@link GcLease}); {@link io.coffer.sdk.LeaseHeldException} when another process
     * holds it, changing nothing.
     */
    GcReport run(ProgressListener progress) {
        GcLease lease;
        try {
            lease = GcLease.take(meta, ctx.leaseHolder, Clock.systemUTC());
        } catch (LeaseHeldException e) {
            ctx.gcLeaseBusy.increment();
            throw e;
        }
        try (lease) {
            GcReport report = pass(lease, progress);
            ctx.gcRuns.increment();
            ctx.gcFreedBytes.increment(report.bytesFreed());
            LOG.info("gc: {} pack(s) rewritten, {} retired, {} blob(s) deleted, {} bytes copied, {} bytes freed",
                    report.packsRewritten(), report.packsRetired(), report.blobsDeleted(), report.bytesCopied(),
                    report.bytesFreed());
            return report;
        }
    }

    /**
     * Stages for {@code progress}: "packs" (each measured, then retired or rewritten), "retired packs" (deleted),
     * "listing the backend", "orphans" (deleted).
     */
    private GcReport pass(GcLease lease, ProgressListener progress) {
        Instant now = Instant.now();
        Instant cutoff = now.minus(ctx.config.gcGrace());
        int rewritten = 0;
        int retired = 0;
        int deleted = 0;
        long copied = 0;
        long freed = 0;
        try {
            List<PackUsage> usage = meta.packUsage(cutoff);
            progress.stage("packs", usage.size());
            for (PackUsage u : usage) {
                lease.renewIfDue();
                progress.advance(1);
                PackRecord p = u.pack();
                if (u.liveChunks() == 0) {
                    if (retireEmpty(p, cutoff)) {
                        retired++;
                    }
                } else if (u.deadBytes() >= ctx.config.gcDeadFraction() * p.size()) {
                    long moved = rewrite(p, cutoff);
                    if (moved >= 0) {
                        rewritten++;
                        retired++;
                        copied += moved;
                    }
                }
            }
            if (retired > 0) {
                // a retired pack's dead chunks left the index: this engine's caches must not offer them (other
                // engines' entries expire first: see EngineContext.reusable). Which chunks a wholly dead pack held
                // is not read here, so the caches are emptied: they refill from the store.
                ctx.locations.invalidateAll();
                ctx.reusable.invalidateAll();
            }
            List<String> retiredPacks = meta.retiredPacks(cutoff);
            progress.stage("retired packs", retiredPacks.size());
            for (String name : retiredPacks) {
                lease.renewIfDue();
                progress.advance(1);
                long size = blobs.head(name).map(BlobInfo::size).orElse(0L);
                blobs.delete(name);
                meta.forgetPack(name);
                deleted++;
                freed += size;
            }
            lease.renewIfDue();
            long[] orphans = deleteOrphans(cutoff, progress);
            deleted += (int) orphans[0];
            freed += orphans[1];
        } catch (IOException e) {
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "garbage collection stopped: " + e.getMessage(), e);
        }
        return new GcReport(rewritten, retired, deleted, copied, freed);
    }

    /**
     * Retires a pack that held no live chunk when it was measured; false if a write held or referenced one of its
     * chunks meanwhile (the pack stays, for the next pass to measure again).
     */
    private boolean retireEmpty(PackRecord p, Instant cutoff) {
        try {
            meta.retirePack(p.name(), List.of(), cutoff);
            return true;
        } catch (CofferException e) {
            if (e.code() != ErrorCode.CONFLICT_RETRY) {
                throw e;
            }
            LOG.info("pack {} came back to life before it was retired; left for the next pass", p.name());
            return false;
        }
    }

    /** Copies the live chunks of {@code old} into a new pack and retires {@code old}; -1 if a write raced it. */
    private long rewrite(PackRecord old, Instant cutoff) throws IOException {
        List<ChunkLocation> live = meta.liveChunks(old.name(), cutoff);
        PackWriter writer = new PackWriter(BackendLayout.pack(BackendLayout.newId()),
                (int) Math.min(Integer.MAX_VALUE - 64, live.stream().mapToLong(ChunkLocation::length).sum() + 1024));
        long bytes = 0;
        for (ChunkLocation c : live) {
            writer.append(c.id(), blobs.read(old.name(), c.offset(), c.length()));
            bytes += c.length();
        }
        int size = writer.finish(ctx.config.masterKey());
        blobs.put(writer.name(), BlobContent.of(writer.buffer(), 0, size));
        List<ChunkLocation> moved = writer.chunks();
        meta.registerPack(new PackRecord(writer.name(), size, Instant.now()), moved);
        try {
            meta.retirePack(old.name(), moved, cutoff);
        } catch (CofferException e) {
            if (e.code() != ErrorCode.CONFLICT_RETRY) {
                throw e;
            }
            // a chunk of the old pack came back to life meanwhile: keep it, the new copy is dead weight for later
            LOG.info("pack {} changed during its rewrite; left for the next pass", old.name());
            return -1;
        }
        moved.forEach(c -> ctx.locations.invalidate(c.id()));
        ctx.reusable.invalidateAll();
        return bytes;
    }

    /** Deletes what {@link OrphanBlobs} finds, in its order; returns {count, bytes}. */
    private long[] deleteOrphans(Instant cutoff, ProgressListener progress) throws IOException {
        long[] deleted = new long[2];
        progress.stage("listing the backend", -1);
        List<BlobInfo> orphans = OrphanBlobs.find(meta, blobs, cutoff);
        progress.stage("orphans", orphans.size());
        for (BlobInfo b : orphans) {
            progress.advance(1);
            blobs.delete(b.name());
            deleted[0]++;
            deleted[1] += b.size();
        }
        return deleted;
    }
}
