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
import java.util.List;
import java.util.Map;

/**
 * Storage statistics as SQL aggregates, grouped by bucket, by owner and over the whole store, on either dialect.
 *
 * <p>An object's chunk references are one BLOB of concatenated 32-byte ids, so the distinct chunks of a group come
 * from a recursive query that halves each list until single ids remain: every level copies each list's bytes once,
 * so a list of n ids costs n log n bytes copied (peeling one id at a time would cost n squared, a problem for an
 * object of 100 000 chunks). The split ids are computed once per call and grouped three ways (SQLite and PostgreSQL
 * materialize a common table expression used more than once); the database removes duplicates per group and joins
 * the chunk index. Nothing is held in this process's memory but one row per group.
 */
final class UsageViews extends Table {
    /** Row kinds of the grouped queries: per bucket, per owner, the whole store. */
    private static final String BUCKET = "b";
    private static final String OWNER = "o";
    private static final String STORE = "s";

    private static final String OBJECTS = "SELECT kind, g, COUNT(*), COALESCE(SUM(size), 0), "
            + "SUM(CASE WHEN n = 0 THEN 1 ELSE 0 END), COALESCE(SUM(CASE WHEN n = 0 THEN size ELSE 0 END), 0), "
            + "COALESCE(SUM(m), 0) FROM ("
            + groupedThreeWays("o.size AS size, COALESCE(length(o.chunk_refs), 0) AS n, "
                    + "COALESCE(length(o.manifest), 0) AS m FROM objects o JOIN buckets b ON b.name = o.bucket")
            + ") x GROUP BY kind, g";

    private static final String CHUNKS = "WITH RECURSIVE refs (bucket, owner, ids) AS ("
            + "SELECT o.bucket, b.owner, o.chunk_refs FROM objects o JOIN buckets b ON b.name = o.bucket "
            + "WHERE length(o.chunk_refs) >= 32 "
            + "UNION ALL "
            + "SELECT r.bucket, r.owner, CASE WHEN h.side = 0 THEN substr(r.ids, 1, length(r.ids) / 64 * 32) "
            + "ELSE substr(r.ids, length(r.ids) / 64 * 32 + 1) END "
            + "FROM refs r CROSS JOIN (SELECT 0 AS side UNION ALL SELECT 1) h WHERE length(r.ids) > 32), "
            + "split (bucket, owner, id) AS (SELECT bucket, owner, ids FROM refs WHERE length(ids) = 32) "
            + "SELECT d.kind, d.g, COUNT(*), COALESCE(SUM(COALESCE(c.plain_length, c.length)), 0), "
            + "COALESCE(SUM(c.length), 0), SUM(CASE WHEN c.plain_length IS NULL THEN 1 ELSE 0 END) FROM ("
            + "SELECT DISTINCT '" + BUCKET + "' AS kind, bucket AS g, id FROM split "
            + "UNION ALL SELECT DISTINCT '" + OWNER + "', owner, id FROM split "
            + "UNION ALL SELECT DISTINCT '" + STORE + "', '', id FROM split"
            + ") d JOIN chunks c ON c.id = d.id GROUP BY d.kind, d.g";

    UsageViews(Database db) {
        super(db);
    }

    /** {@code columns} (a select list and its FROM clause over {@code o} and {@code b}) once per grouping. */
    private static String groupedThreeWays(String columns) {
        return "SELECT '" + BUCKET + "' AS kind, o.bucket AS g, " + columns
                + " UNION ALL SELECT '" + OWNER + "', b.owner, " + columns
                + " UNION ALL SELECT '" + STORE + "', '', " + columns;
    }

    StorageStats storageStats() {
        return db.read("storageStats", c -> {
            Map<String, Map<String, UsageStats>> usage = usage(c);
            Map<String, UsageStats> perBucket = usage.get(BUCKET);
            Map<String, UsageStats> perOwner = usage.get(OWNER);
            UsageStats store = usage.get(STORE).getOrDefault("", UsageStats.EMPTY);
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

    /** Usage by row kind, then by group; groups without objects are absent. */
    private Map<String, Map<String, UsageStats>> usage(Connection c) throws SQLException {
        Map<String, long[]> objects = new HashMap<>();
        try (PreparedStatement ps = prepare(c, OBJECTS);
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                objects.put(rs.getString(1) + "/" + rs.getString(2), new long[] {rs.getLong(3), rs.getLong(4),
                        rs.getLong(5), rs.getLong(6), rs.getLong(7)});
            }
        }
        Map<String, long[]> chunks = new HashMap<>();
        try (PreparedStatement ps = prepare(c, CHUNKS);
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                chunks.put(rs.getString(1) + "/" + rs.getString(2), new long[] {rs.getLong(3), rs.getLong(4),
                        rs.getLong(5), rs.getLong(6)});
            }
        }
        Map<String, Map<String, UsageStats>> out = new HashMap<>();
        for (String kind : List.of(BUCKET, OWNER, STORE)) {
            out.put(kind, new HashMap<>());
        }
        objects.forEach((kindAndGroup, o) -> {
            long[] k = chunks.getOrDefault(kindAndGroup, new long[4]);
            int slash = kindAndGroup.indexOf('/');
            out.get(kindAndGroup.substring(0, slash)).put(kindAndGroup.substring(slash + 1),
                    new UsageStats(o[0], o[1], o[2], o[3], o[4], k[0], k[1], k[2], k[3]));
        });
        return out;
    }
}
