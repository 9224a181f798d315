package io.coffer.sdk.meta.jdbc;

import io.coffer.sdk.StoreStats;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;

/** Views over the whole store: its statistics, every version id, whether it holds anything. */
final class StoreViews extends Table {
    StoreViews(Database db) {
        super(db);
    }

    StoreStats stats() {
        return db.read("stats", c -> {
            try (PreparedStatement ps = prepare(c, "SELECT "
                    + "(SELECT COUNT(*) FROM objects), (SELECT COALESCE(SUM(size), 0) FROM objects), "
                    + "(SELECT COUNT(*) FROM chunks), (SELECT COALESCE(SUM(length), 0) FROM chunks), "
                    + "(SELECT COUNT(*) FROM packs WHERE retired_at IS NULL), "
                    + "(SELECT COALESCE(SUM(size), 0) FROM packs WHERE retired_at IS NULL)");
                 ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new StoreStats(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                        rs.getLong(6));
            }
        });
    }

    List<String> versionIds() {
        return db.read("versionIds", c -> rows(c, "SELECT version_id FROM objects UNION ALL "
                + "SELECT version_id FROM object_versions", rs -> rs.getString(1)));
    }

    boolean isEmpty() {
        return db.read("isEmpty", c -> {
            for (String table : List.of("buckets", "objects", "packs", "chunks")) {
                try (PreparedStatement ps = prepare(c, "SELECT 1 FROM " + table + " LIMIT 1");
                     ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        return false;
                    }
                }
            }
            return true;
        });
    }
}
