package io.coffer.sdk.meta.jdbc;

import static io.coffer.sdk.meta.jdbc.Columns.millis;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.meta.ChunkLocation;
import io.coffer.sdk.meta.PackRecord;
import io.coffer.sdk.meta.PackUsage;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Packs and the garbage collector's view of them: registered, measured, rewritten and retired, then forgotten. */
final class PackTable extends Table {
    private final ChunkTable chunkTable;

    PackTable(Database db, ChunkTable chunkTable) {
        super(db);
        this.chunkTable = chunkTable;
    }

    void registerPack(PackRecord pack, List<ChunkLocation> chunks) {
        db.write("registerPack", c -> {
            chunkTable.registerChunks(c, List.of(pack), chunks);
            return null;
        });
    }

    List<PackRecord> packs() {
        return db.read("packs", c -> rows(c, "SELECT name, size, created FROM packs WHERE retired_at IS NULL "
                + "ORDER BY name", PackTable::packRecord));
    }

    static PackRecord packRecord(ResultSet rs) throws SQLException {
        return new PackRecord(rs.getString(1), rs.getLong(2), Instant.ofEpochMilli(rs.getLong(3)));
    }

    List<PackUsage> packUsage(Instant graceCutoff) {
        long cutoff = millis(graceCutoff);
        String live = "(c.refs > 0 OR COALESCE(c.released_at, 0) >= ?)";
        String sql = "SELECT p.name, p.size, p.created, "
                + "COALESCE(SUM(CASE WHEN " + live + " THEN c.length ELSE 0 END), 0), "
                + "COUNT(CASE WHEN " + live + " THEN 1 END), "
                + "COUNT(CASE WHEN c.id IS NOT NULL AND NOT " + live + " THEN 1 END) "
                + "FROM packs p LEFT JOIN chunks c ON c.pack = p.name WHERE p.retired_at IS NULL "
                + "GROUP BY p.name, p.size, p.created ORDER BY p.name";
        return db.read("packUsage", c -> rows(c, sql,
                rs -> new PackUsage(packRecord(rs), rs.getLong(4), rs.getInt(5), rs.getInt(6)),
                cutoff, cutoff, cutoff));
    }

    List<ChunkLocation> liveChunks(String pack, Instant graceCutoff) {
        long cutoff = millis(graceCutoff);
        String sql = "SELECT id, pack_offset, length FROM chunks WHERE pack = ? "
                + "AND (refs > 0 OR COALESCE(released_at, 0) >= ?) ORDER BY pack_offset";
        return db.read("liveChunks", c -> rows(c, sql,
                rs -> new ChunkLocation(ChunkId.of(rs.getBytes(1)), pack, rs.getLong(2), rs.getInt(3)), pack, cutoff));
    }

    /**
     * Retiring a pack that is unknown or already retired changes nothing. Locations in {@code moved} whose chunk
     * is not (or no longer) in {@code oldPack} are ignored.
     */
    void retirePack(String oldPack, List<ChunkLocation> moved, Instant graceCutoff) {
        long cutoff = millis(graceCutoff);
        db.write("retirePack", c -> {
            if (!exists(c, "SELECT 1 FROM packs WHERE name = ? AND retired_at IS NULL" + dialect.forUpdate,
                    oldPack)) {
                return null;
            }
            if (!moved.isEmpty()) {
                List<ChunkLocation> sorted = new ArrayList<>(moved);
                sorted.sort((x, y) -> x.id().compareTo(y.id()));
                try (PreparedStatement ps = prepare(c, "UPDATE chunks SET pack = ?, pack_offset = ?, length = ? "
                        + "WHERE id = ? AND pack = ?")) {
                    for (ChunkLocation location : sorted) {
                        bind(ps, location.pack(), location.offset(), location.length(), location.id().toBytes(),
                                oldPack);
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            }
            try (PreparedStatement ps = prepare(c, "DELETE FROM chunks WHERE pack = ? AND refs = 0 "
                    + "AND COALESCE(released_at, 0) < ?")) {
                bind(ps, oldPack, cutoff);
                ps.executeUpdate();
            }
            if (exists(c, "SELECT 1 FROM chunks WHERE pack = ? LIMIT 1", oldPack)) {
                throw CofferException.of(ErrorCode.CONFLICT_RETRY, "pack " + oldPack
                        + " holds live chunks that were not moved; rewrite it again");
            }
            try (PreparedStatement ps = prepare(c, "UPDATE packs SET retired_at = ? WHERE name = ?")) {
                bind(ps, System.currentTimeMillis(), oldPack);
                ps.executeUpdate();
            }
            return null;
        });
    }

    List<String> retiredPacks(Instant cutoff) {
        return db.read("retiredPacks", c -> rows(c, "SELECT name FROM packs WHERE retired_at IS NOT NULL "
                + "AND retired_at < ? ORDER BY name", rs -> rs.getString(1), millis(cutoff)));
    }

    /**
     * Forgetting an unknown pack does nothing; a pack that is not retired is refused with
     * {@code INVALID_ARGUMENT}.
     */
    void forgetPack(String name) {
        db.write("forgetPack", c -> {
            int deleted;
            try (PreparedStatement ps = prepare(c, "DELETE FROM packs WHERE name = ? AND retired_at IS NOT NULL")) {
                ps.setString(1, name);
                deleted = ps.executeUpdate();
            }
            if (deleted == 0 && exists(c, "SELECT 1 FROM packs WHERE name = ?", name)) {
                throw CofferException.invalid("pack " + name + " is not retired");
            }
            return null;
        });
    }
}
