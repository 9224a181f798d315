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
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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

    /**
     * The unindexed packs and manifests, groups with no live member and tombstones whose group would go, older than
     * the cutoff: {count, bytes}.
     */
    private long[] orphans(Instant cutoff) throws IOException {
        Set<String> knownPacks = new HashSet<>();
        meta.packs().forEach(p -> knownPacks.add(p.name()));
        knownPacks.addAll(meta.retiredPacks(Instant.now().plusSeconds(1)));
        Set<String> versions = new HashSet<>(meta.versionIds());
        Set<String> liveGroups = BackendLayout.groupsOf(versions);
        Set<String> groupsLeft = new HashSet<>();
        long[] found = new long[2];
        for (BlobInfo b : list(BackendLayout.PACKS)) {
            count(b, !knownPacks.contains(b.name()), cutoff, found);
        }
        for (BlobInfo b : list(BackendLayout.MANIFESTS)) {
            count(b, !versions.contains(BackendLayout.idOf(b.name())), cutoff, found);
        }
        for (BlobInfo b : list(BackendLayout.GROUPS)) {
            if (!count(b, !liveGroups.contains(BackendLayout.idOf(b.name())), cutoff, found)) {
                groupsLeft.add(BackendLayout.idOf(b.name()));
            }
        }
        for (BlobInfo b : list(BackendLayout.TOMBSTONES)) {
            String versionId = BackendLayout.idOf(b.name());
            boolean wellFormed = BackendLayout.isGrouped(versionId);
            count(b, !wellFormed || !groupsLeft.contains(BackendLayout.groupOf(versionId)), cutoff, found);
        }
        return found;
    }

    private List<BlobInfo> list(String prefix) throws IOException {
        return blobs.list(prefix).toList();
    }

    private static boolean count(BlobInfo b, boolean unreferenced, Instant cutoff, long[] found) {
        if (!unreferenced || !b.lastModified().isBefore(cutoff)) {
            return false;
        }
        found[0]++;
        found[1] += b.size();
        return true;
    }
}
