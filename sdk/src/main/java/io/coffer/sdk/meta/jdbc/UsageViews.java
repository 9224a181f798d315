package io.coffer.sdk.meta.jdbc;

import io.coffer.sdk.BucketStats;
import io.coffer.sdk.StorageStats;
import io.coffer.sdk.UsageStats;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Storage statistics as a few SQL aggregates, grouped by bucket, by owner and over the whole store, on either dialect.
 *
 * <p>An object's chunk references are one BLOB of concatenated 32-byte ids, so the distinct chunks of a group come
 * from a recursive query that halves each list until single ids remain: every level copies each list's bytes once,
 * so a list of n ids costs n log n bytes copied (peeling one id at a time would cost n squared, a problem for an
 * object of 100 000 chunks). The database then removes duplicates per group and joins the chunk index; nothing is
 * held in this process's memory but one row per group.
 */
final class UsageViews extends Table {
    /** The grouping expressions over {@code objects o JOIN buckets b}: per bucket, per owner, one group. */
    private static final String BY_BUCKET = "o.bucket";
    private static final String BY_OWNER = "b.owner";
    private static final String WHOLE_STORE = "CAST('' AS TEXT)";

    UsageViews(Database db) {
        super(db);
    }

    StorageStats storageStats() {
        return db.read("storageStats", c -> {
            Map<String, UsageStats> perBucket = usage(c, BY_BUCKET);
            Map<String, UsageStats> perOwner = new HashMap<>(usage(c, BY_OWNER));
            UsageStats store = usage(c, WHOLE_STORE).getOrDefault("", UsageStats.EMPTY);
            List<BucketStats> buckets = new ArrayList<>();
            for (String[] b : rows(c, "SELECT name, owner FROM buckets ORDER BY name",
                    rs -> new String[] {rs.getString(1), rs.getString(2)})) {
                buckets.add(new BucketStats(b[0], b[1], perBucket.getOrDefault(b[0], UsageStats.EMPTY)));
                perOwner.putIfAbsent(b[1], UsageStats.EMPTY);
            }
            long packs;
            long packBytes;
            try (PreparedStatement ps = prepare(c,
                    "SELECT COUNT(*), COALESCE(SUM(size), 0) FROM packs WHERE retired_at IS NULL");
                 ResultSet rs = ps.executeQuery()) {
                rs.next();
                packs = rs.getLong(1);
                packBytes = rs.getLong(2);
            }
            return new StorageStats(buckets, perOwner, store, packs, packBytes);
        });
    }

    /** Usage per value of {@code group}; groups without objects are absent. */
    private Map<String, UsageStats> usage(Connection c, String group) throws SQLException {
        Map<String, long[]> objects = new HashMap<>();
        try (PreparedStatement ps = prepare(c, "SELECT g, COUNT(*), COALESCE(SUM(size), 0), "
                + "SUM(CASE WHEN n = 0 THEN 1 ELSE 0 END), COALESCE(SUM(CASE WHEN n = 0 THEN size ELSE 0 END), 0), "
                + "COALESCE(SUM(m), 0) FROM (SELECT " + group + " AS g, o.size AS size, "
                + "COALESCE(length(o.chunk_refs), 0) AS n, COALESCE(length(o.manifest), 0) AS m "
                + "FROM objects o JOIN buckets b ON b.name = o.bucket) x GROUP BY g");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                objects.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                        rs.getLong(6)});
            }
        }
        Map<String, long[]> chunks = new HashMap<>();
        try (PreparedStatement ps = prepare(c, "WITH RECURSIVE refs (g, ids) AS ("
                + "SELECT " + group + ", o.chunk_refs FROM objects o JOIN buckets b ON b.name = o.bucket "
                + "WHERE length(o.chunk_refs) >= 32 "
                + "UNION ALL "
                + "SELECT r.g, CASE WHEN h.side = 0 THEN substr(r.ids, 1, length(r.ids) / 64 * 32) "
                + "ELSE substr(r.ids, length(r.ids) / 64 * 32 + 1) END "
                + "FROM refs r CROSS JOIN (SELECT 0 AS side UNION ALL SELECT 1) h WHERE length(r.ids) > 32) "
                + "SELECT d.g, COUNT(*), COALESCE(SUM(COALESCE(c.plain_length, c.length)), 0), "
                + "COALESCE(SUM(c.length), 0), SUM(CASE WHEN c.plain_length IS NULL THEN 1 ELSE 0 END) "
                + "FROM (SELECT DISTINCT g, ids FROM refs WHERE length(ids) = 32) d "
                + "JOIN chunks c ON c.id = d.ids GROUP BY d.g");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                chunks.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)});
            }
        }
        Map<String, UsageStats> out = new LinkedHashMap<>();
        objects.forEach((g, o) -> {
            long[] k = chunks.getOrDefault(g, new long[4]);
            out.put(g, new UsageStats(o[0], o[1], o[2], o[3], o[4], k[0], k[1], k[2], k[3]));
        });
        return out;
    }
}
