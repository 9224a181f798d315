package io.coffer.sdk.meta.jdbc;

import static io.coffer.sdk.meta.jdbc.Columns.millis;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.meta.ChunkLocation;
import io.coffer.sdk.meta.PackRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * The chunk index and its reference counts: new packs and chunks registered, chunk rows locked, references added and
 * released, in the order {@link JdbcMetadataStore} describes.
 */
final class ChunkTable extends Table {
    private static final int IN_BATCH = 500;

    ChunkTable(Database db) {
        super(db);
    }

    Map<ChunkId, ChunkLocation> locate(Collection<ChunkId> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        List<ChunkId> distinct = new ArrayList<>(new LinkedHashSet<>(ids));
        return db.read("locate", c -> {
            Map<ChunkId, ChunkLocation> out = new HashMap<>();
            selectByIds(c, "", distinct, rs -> {
                ChunkLocation l = location(rs);
                out.put(l.id(), l);
                return null;
            });
            return out;
        });
    }

    /**
     * Locations of the indexed ids, each held for reuse: an unreferenced one gets {@code released_at} = now, so that
     * garbage collection counts it live for a grace period from now. The stamp is written in a transaction that
     * locks the row: a chunk that a concurrent {@code retirePack} removed first is left out of the answer.
     */
    Map<ChunkId, ChunkLocation> locateForReuse(Collection<ChunkId> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        List<ChunkId> distinct = new ArrayList<>(new LinkedHashSet<>(ids));
        List<ChunkId> unreferenced = new ArrayList<>();
        Map<ChunkId, ChunkLocation> found = db.read("locateForReuse", c -> {
            Map<ChunkId, ChunkLocation> out = new HashMap<>();
            selectByIds(c, ", refs", distinct, rs -> {
                ChunkLocation l = location(rs);
                out.put(l.id(), l);
                if (rs.getLong(5) == 0) {
                    unreferenced.add(l.id());
                }
                return null;
            });
            return out;
        });
        if (unreferenced.isEmpty()) {
            return found;
        }
        List<ChunkId> sorted = sorted(unreferenced);
        Map<ChunkId, ChunkLocation> held = db.write("holdChunks", c -> {
            long now = System.currentTimeMillis();
            try (PreparedStatement ps = prepare(c, "UPDATE chunks SET released_at = ? WHERE id = ? AND refs = 0")) {
                for (ChunkId id : sorted) {
                    bind(ps, now, id.toBytes());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return locateIn(c, sorted);
        });
        for (ChunkId id : sorted) {
            ChunkLocation now = held.get(id);
            if (now == null) {
                found.remove(id);
            } else {
                found.put(id, now);
            }
        }
        return found;
    }

    void registerChunks(Connection c, List<PackRecord> packs, List<ChunkLocation> chunks) throws SQLException {
        if (!packs.isEmpty()) {
            try (PreparedStatement ps = prepare(c, "INSERT INTO packs (name, size, created, retired_at) "
                    + "VALUES (?, ?, ?, NULL) ON CONFLICT (name) DO NOTHING")) {
                for (PackRecord pack : packs) {
                    bind(ps, pack.name(), pack.size(), millis(pack.created()));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }
        if (!chunks.isEmpty()) {
            long now = System.currentTimeMillis();
            List<ChunkLocation> sorted = new ArrayList<>(chunks);
            sorted.sort((x, y) -> x.id().compareTo(y.id()));
            try (PreparedStatement ps = prepare(c, "INSERT INTO chunks (id, pack, pack_offset, length, plain_length, "
                    + "refs, released_at) VALUES (?, ?, ?, ?, ?, 0, ?) ON CONFLICT (id) DO NOTHING")) {
                for (ChunkLocation chunk : sorted) {
                    Long plainLength = chunk.plainLength() < 0 ? null : (long) chunk.plainLength();
                    bind(ps, chunk.id().toBytes(), chunk.pack(), chunk.offset(), chunk.length(), plainLength, now);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }
    }

    /**
     * On PostgreSQL, locks the rows of every chunk the transaction will add or release references on, all at once in
     * id order: concurrent writes then wait for each other instead of deadlocking (each deadlock costs the server's
     * {@code deadlock_timeout} to detect). SQLite has a single writer and needs no row locks.
     */
    @SafeVarargs
    final void lockChunks(Connection c, List<ChunkId>... groups) throws SQLException {
        if (!dialect.locksChunkRows) {
            return;
        }
        List<ChunkId> all = new ArrayList<>();
        for (List<ChunkId> group : groups) {
            all.addAll(group);
        }
        List<ChunkId> sorted = new ArrayList<>(new TreeSet<>(all));
        for (int from = 0; from < sorted.size(); from += IN_BATCH) {
            List<ChunkId> batch = sorted.subList(from, Math.min(sorted.size(), from + IN_BATCH));
            try (PreparedStatement ps = prepare(c, "SELECT id FROM chunks WHERE id IN ("
                    + "?, ".repeat(batch.size() - 1) + "?) ORDER BY id" + dialect.forUpdate)) {
                for (int i = 0; i < batch.size(); i++) {
                    ps.setBytes(i + 1, batch.get(i).toBytes());
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rs.getBytes(1);
                    }
                }
            }
        }
    }

    /** Adds one reference to each id; {@code CONFLICT_RETRY} (the transaction rolls back) if one is not indexed. */
    void addRefs(Connection c, List<ChunkId> ids) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        List<ChunkId> sorted = sorted(ids);
        int[] counts;
        try (PreparedStatement ps = prepare(c, "UPDATE chunks SET refs = refs + 1, released_at = NULL WHERE id = ?")) {
            for (ChunkId id : sorted) {
                ps.setBytes(1, id.toBytes());
                ps.addBatch();
            }
            counts = ps.executeBatch();
        }
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == Statement.SUCCESS_NO_INFO) {
                continue;
            }
            if (counts[i] != 1) {
                throw CofferException.of(ErrorCode.CONFLICT_RETRY,
                        "chunk " + sorted.get(i) + " was collected while a write referenced it; retry the write");
            }
        }
        if (Arrays.stream(counts).anyMatch(n -> n == Statement.SUCCESS_NO_INFO)) {
            Map<ChunkId, ChunkLocation> present = locateIn(c, sorted);
            for (ChunkId id : sorted) {
                if (!present.containsKey(id)) {
                    throw CofferException.of(ErrorCode.CONFLICT_RETRY,
                            "chunk " + id + " was collected while a write referenced it; retry the write");
                }
            }
        }
    }

    /**
     * Runs {@code SELECT id, pack, pack_offset, length EXTRA FROM chunks WHERE id IN (...)} over {@code ids} in
     * batches of {@link #IN_BATCH}, handing each row to {@code row}.
     */
    private void selectByIds(Connection c, String extraColumns, List<ChunkId> ids, RowReader<Void> row)
            throws SQLException {
        for (int from = 0; from < ids.size(); from += IN_BATCH) {
            List<ChunkId> batch = ids.subList(from, Math.min(ids.size(), from + IN_BATCH));
            String sql = "SELECT id, pack, pack_offset, length" + extraColumns + " FROM chunks WHERE id IN ("
                    + "?, ".repeat(batch.size() - 1) + "?)";
            try (PreparedStatement ps = prepare(c, sql)) {
                for (int i = 0; i < batch.size(); i++) {
                    ps.setBytes(i + 1, batch.get(i).toBytes());
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        row.read(rs);
                    }
                }
            }
        }
    }

    /** The location in columns 1 to 4 (id, pack, pack_offset, length) of the current row. */
    private static ChunkLocation location(ResultSet rs) throws SQLException {
        return new ChunkLocation(ChunkId.of(rs.getBytes(1)), rs.getString(2), rs.getLong(3), rs.getInt(4));
    }

    private Map<ChunkId, ChunkLocation> locateIn(Connection c, List<ChunkId> ids) throws SQLException {
        Map<ChunkId, ChunkLocation> out = new HashMap<>();
        try (PreparedStatement ps = prepare(c, "SELECT pack, pack_offset, length FROM chunks WHERE id = ?")) {
            for (ChunkId id : ids) {
                ps.setBytes(1, id.toBytes());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        out.put(id, new ChunkLocation(id, rs.getString(1), rs.getLong(2), rs.getInt(3)));
                    }
                }
            }
        }
        return out;
    }

    /** Releases one reference from each id, stamping {@code released_at} on those that reach zero. */
    void releaseRefs(Connection c, List<ChunkId> ids) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        List<ChunkId> sorted = sorted(ids);
        long now = System.currentTimeMillis();
        int[] counts;
        try (PreparedStatement ps = prepare(c, "UPDATE chunks SET refs = refs - 1, "
                + "released_at = CASE WHEN refs = 1 THEN ? ELSE released_at END WHERE id = ? AND refs > 0")) {
            for (ChunkId id : sorted) {
                ps.setLong(1, now);
                ps.setBytes(2, id.toBytes());
                ps.addBatch();
            }
            counts = ps.executeBatch();
        }
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] != 1 && counts[i] != Statement.SUCCESS_NO_INFO) {
                throw CofferException.of(ErrorCode.INTERNAL_ERROR, "metadata invariant broken: chunk "
                        + sorted.get(i) + " is not referenced but a record held a reference to it");
            }
        }
    }

    private static List<ChunkId> sorted(List<ChunkId> ids) {
        List<ChunkId> sorted = new ArrayList<>(ids);
        sorted.sort(null);
        return sorted;
    }

    /** The reference count of a chunk, or empty if it is not indexed (for tests and fsck-style checks). */
    OptionalLong refCount(ChunkId id) {
        return db.read("refCount", c -> {
            try (PreparedStatement ps = prepare(c, "SELECT refs FROM chunks WHERE id = ?")) {
                ps.setBytes(1, id.toBytes());
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
                }
            }
        });
    }
}
