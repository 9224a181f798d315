package io.coffer.gateway.cli;

import io.coffer.gateway.http.AccessLog;
import io.coffer.sdk.BucketStats;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.StorageStats;
import io.coffer.sdk.UsageStats;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code coffer stats}: what each bucket, tenant and the whole store hold, and what dedup and compression save. */
@Command(name = "stats", mixinStandardHelpOptions = true,
        description = {"Print per bucket, per tenant (bucket owner) and for the whole store: objects, logical bytes,"
                + " referenced and stored bytes, and the dedup, compression and total ratios.",
            "",
            "logical: the sum of object sizes (what clients see; one version per key). inline: objects small enough"
                + " to live in their sealed manifest, and their bytes (not chunked, so not deduplicated).",
            "chunks, referenced: the distinct chunks the objects reference and the sum of their plaintext lengths"
                + " (after dedup). stored: the sum of those chunks' stored lengths (after compression and"
                + " encryption).",
            "dedup = (logical - inline) / referenced; compression = referenced / stored;"
                + " total = (logical - inline) / stored; '-' (null in JSON) where nothing is chunked.",
            "A chunk shared by two buckets or tenants counts in each; the store counts it once. The store line adds"
                + " the sealed manifests' bytes and the live packs' size (referenced chunks, chunks awaiting gc,"
                + " pack indexes). Chunks indexed before plaintext lengths were recorded, or by reindex, count their"
                + " stored length as plaintext (the 'unknown' count)."})
final class StatsCommand extends EngineVerb {
    @Option(names = "--json", description = "Print one JSON object instead of tables.")
    boolean json;

    @Override
    boolean writesBackend() {
        return false;
    }

    @Override
    int run(Coffer coffer, PrintWriter out) {
        StorageStats stats = coffer.storageStats();
        out.println(json ? json(stats) : table(stats));
        return 0;
    }

    static String table(StorageStats s) {
        List<String[]> rows = new ArrayList<>();
        rows.add(header("bucket", "owner"));
        s.buckets().forEach(b -> rows.add(row(b.bucket(), b.owner(), b.usage())));
        rows.add(new String[0]);
        rows.add(header("tenant", ""));
        s.tenants().forEach((owner, u) -> rows.add(row(owner, "", u)));
        rows.add(new String[0]);
        rows.add(header("store", ""));
        rows.add(row("(all)", "", s.store()));
        StringBuilder sb = new StringBuilder(align(rows));
        sb.append(String.format(Locale.ROOT, "%nmanifests: %d bytes; packs: %d, %d bytes; chunks of unknown"
                        + " plaintext length: %d", s.store().manifestBytes(), s.packs(), s.packBytes(),
                s.store().chunksOfUnknownPlainLength()));
        return sb.toString();
    }

    private static String[] header(String name, String owner) {
        return new String[] {name, owner, "objects", "logical", "inline", "chunks", "referenced", "stored", "dedup",
            "compression", "total"};
    }

    private static String[] row(String name, String owner, UsageStats u) {
        return new String[] {name, owner, Long.toString(u.objects()), Long.toString(u.logicalBytes()),
            Long.toString(u.inlineBytes()), Long.toString(u.chunks()), Long.toString(u.referencedBytes()),
            Long.toString(u.storedBytes()), ratio(u.dedupRatio(), "-"), ratio(u.compressionRatio(), "-"),
            ratio(u.totalRatio(), "-")};
    }

    /** Columns padded to their widest cell, names left-aligned and numbers right-aligned; empty rows separate. */
    private static String align(List<String[]> rows) {
        int[] width = new int[11];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                String pad = " ".repeat(width[i] - r[i].length());
                line.append(i == 0 ? "" : "  ").append(i < 2 ? r[i] + pad : pad + r[i]);
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString().stripTrailing();
    }

    static String json(StorageStats s) {
        StringBuilder sb = new StringBuilder("{\"buckets\":[");
        for (int i = 0; i < s.buckets().size(); i++) {
            BucketStats b = s.buckets().get(i);
            sb.append(i == 0 ? "" : ",").append("{\"bucket\":").append(AccessLog.json(b.bucket()))
                    .append(",\"owner\":").append(AccessLog.json(b.owner())).append(',');
            usage(sb, b.usage()).append('}');
        }
        sb.append("],\"tenants\":[");
        boolean first = true;
        for (Map.Entry<String, UsageStats> t : s.tenants().entrySet()) {
            sb.append(first ? "" : ",").append("{\"owner\":").append(AccessLog.json(t.getKey())).append(',');
            usage(sb, t.getValue()).append('}');
            first = false;
        }
        sb.append("],\"store\":{");
        usage(sb, s.store()).append(",\"packs\":").append(s.packs()).append(",\"packBytes\":").append(s.packBytes());
        return sb.append("}}").toString();
    }

    private static StringBuilder usage(StringBuilder sb, UsageStats u) {
        return sb.append("\"objects\":").append(u.objects()).append(",\"logicalBytes\":").append(u.logicalBytes())
                .append(",\"inlineObjects\":").append(u.inlineObjects()).append(",\"inlineBytes\":")
                .append(u.inlineBytes()).append(",\"manifestBytes\":").append(u.manifestBytes())
                .append(",\"chunks\":").append(u.chunks()).append(",\"referencedBytes\":").append(u.referencedBytes())
                .append(",\"storedBytes\":").append(u.storedBytes()).append(",\"chunksOfUnknownPlainLength\":")
                .append(u.chunksOfUnknownPlainLength()).append(",\"dedupRatio\":").append(ratio(u.dedupRatio(), "null"))
                .append(",\"compressionRatio\":").append(ratio(u.compressionRatio(), "null"))
                .append(",\"totalRatio\":").append(ratio(u.totalRatio(), "null"));
    }

    private static String ratio(double r, String none) {
        return Double.isNaN(r) ? none : String.format(Locale.ROOT, "%.3f", r);
    }
}
