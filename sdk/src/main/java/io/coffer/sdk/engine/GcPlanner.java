package io.coffer.sdk.engine;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.GcReport;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.PackUsage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;

/**
 * What a {@link GarbageCollector} pass would do now, found with reads only (a gc dry run): the same selections as the
 * pass, each counted instead of carried out. It is kept apart from the collector so that nothing in it can write; the
 * two must choose alike, which {@code GcPlannerTest} checks by running the pass after the plan.
 */
final class GcPlanner {
    private final EngineContext ctx;
    private final MetadataStore meta;
    private final BlobStore blobs;

    GcPlanner(EngineContext ctx) {
        this.ctx = ctx;
        this.meta = ctx.config.metadata();
        this.blobs = ctx.config.blobs();
    }

    GcReport plan() {
        Instant cutoff = Instant.now().minus(ctx.config.gcGrace());
        int rewritten = 0;
        int retired = 0;
        int deleted = 0;
        long copied = 0;
        long freed = 0;
        try {
            for (PackUsage u : meta.packUsage(cutoff)) {
                if (u.liveChunks() == 0) {
                    retired++;
                } else if (u.deadBytes() >= ctx.config.gcDeadFraction() * u.pack().size()) {
                    rewritten++;
                    retired++;
                    copied += u.liveBytes();
                }
            }
            for (String name : meta.retiredPacks(cutoff)) {
                deleted++;
                freed += blobs.head(name).map(BlobInfo::size).orElse(0L);
            }
            long[] orphans = orphans(cutoff);
            deleted += (int) orphans[0];
            freed += orphans[1];
        } catch (IOException | UncheckedIOException e) {
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "garbage collection plan stopped: " + e.getMessage(),
                    e);
        }
        return new GcReport(rewritten, retired, deleted, copied, freed);
    }

    /** What {@link OrphanBlobs} finds: {count, bytes}. */
    private long[] orphans(Instant cutoff) throws IOException {
        List<BlobInfo> orphans = OrphanBlobs.find(meta, blobs, cutoff);
        return new long[] {orphans.size(), orphans.stream().mapToLong(BlobInfo::size).sum()};
    }
}
