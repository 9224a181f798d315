package io.coffer.sdk.meta.jdbc;

import static io.coffer.sdk.meta.jdbc.Columns.string;
import static io.coffer.sdk.meta.jdbc.Columns.utf8;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.meta.BlockMapStore;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The {@link BlockMapStore} in tables {@code block_map} (one row per blob, its indices as big-endian ints),
 * {@code block_free} (freed indices below the next never-used one) and {@code block_state} (one row: the next
 * never-used index and the opaque state).
 */
final class BlockMapTable extends Table implements BlockMapStore {
    private static final int MAX_PAGE = 10_000;

    BlockMapTable(Database db) {
        super(db);
    }

    @Override
    public Optional<byte[]> state() {
        return db.read("blockState", c -> rows(c, "SELECT state FROM block_state WHERE id = 1",
                rs -> rs.getBytes(1))).stream().findFirst();
    }

    @Override
    public Optional<Entry> entry(String name) {
        return db.read("blockEntry", c -> rows(c, "SELECT name_utf8, length, blocks, created FROM block_map "
                + "WHERE name_utf8 = ?", BlockMapTable::entry, (Object) utf8(name))).stream().findFirst();
    }

    @Override
    public List<Entry> list(String prefix, String after, int max) {
        if (max < 1 || max > MAX_PAGE) {
            throw CofferException.invalid("a block map page holds 1 to " + MAX_PAGE + " entries, not " + max);
        }
        byte[] p = utf8(prefix);
        boolean fromPrefix = after == null || Arrays.compareUnsigned(utf8(after), p) < 0;
        String sql = "SELECT name_utf8, length, blocks, created FROM block_map WHERE name_utf8 "
                + (fromPrefix ? ">=" : ">") + " ? ORDER BY name_utf8 LIMIT ?";
        List<Entry> rows = db.read("blockList", c -> rows(c, sql, BlockMapTable::entry,
                fromPrefix ? p : utf8(after), max));
        List<Entry> out = new ArrayList<>(rows.size());
        for (Entry e : rows) {
            if (!e.name().startsWith(prefix)) {
                break; // past the prefix's range: names are in byte order
            }
            out.add(e);
        }
        return out;
    }

    @Override
    public FreeBlocks freeBlocks() {
        return db.read("blockFree", c -> {
            List<Integer> next = rows(c, "SELECT next_unused FROM block_state WHERE id = 1", rs -> rs.getInt(1));
            List<Integer> freed = rows(c, "SELECT idx FROM block_free ORDER BY idx", rs -> rs.getInt(1));
            return new FreeBlocks(next.isEmpty() ? 0 : next.get(0),
                    freed.stream().mapToInt(Integer::intValue).toArray());
        });
    }

    @Override
    public void put(Entry entry, int nextUnused, byte[] state) {
        byte[] name = utf8(entry.name());
        db.write("blockPut", c -> {
            List<byte[]> old = rows(c, "SELECT blocks FROM block_map WHERE name_utf8 = ?", rs -> rs.getBytes(1),
                    (Object) name);
            if (!old.isEmpty()) {
                freeAll(c, decode(old.get(0)));
                execute(c, "DELETE FROM block_map WHERE name_utf8 = ?", (Object) name);
            }
            execute(c, "INSERT INTO block_map (name_utf8, length, blocks, created) VALUES (?, ?, ?, ?)", name,
                    entry.length(), encode(entry.blocks()), entry.created().toEpochMilli());
            try (PreparedStatement ps = prepare(c, "DELETE FROM block_free WHERE idx = ?")) {
                for (int index : entry.blocks()) {
                    ps.setInt(1, index);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            storeState(c, nextUnused, state);
            return null;
        });
    }

    @Override
    public void remove(String name, byte[] state) {
        byte[] key = utf8(name);
        db.write("blockRemove", c -> {
            List<byte[]> old = rows(c, "SELECT blocks FROM block_map WHERE name_utf8 = ?", rs -> rs.getBytes(1),
                    (Object) key);
            if (!old.isEmpty()) {
                freeAll(c, decode(old.get(0)));
                execute(c, "DELETE FROM block_map WHERE name_utf8 = ?", (Object) key);
            }
            List<Integer> next = rows(c, "SELECT next_unused FROM block_state WHERE id = 1", rs -> rs.getInt(1));
            storeState(c, next.isEmpty() ? 0 : next.get(0), state);
            return null;
        });
    }

    @Override
    public void saveState(byte[] state) {
        db.write("blockSaveState", c -> {
            List<Integer> next = rows(c, "SELECT next_unused FROM block_state WHERE id = 1", rs -> rs.getInt(1));
            storeState(c, next.isEmpty() ? 0 : next.get(0), state);
            return null;
        });
    }

    @Override
    public void replaceAll(List<Entry> entries, FreeBlocks free, byte[] state) {
        db.write("blockReplaceAll", c -> {
            execute(c, "DELETE FROM block_map");
            execute(c, "DELETE FROM block_free");
            try (PreparedStatement ps = prepare(c,
                    "INSERT INTO block_map (name_utf8, length, blocks, created) VALUES (?, ?, ?, ?)")) {
                for (Entry e : entries) {
                    bind(ps, utf8(e.name()), e.length(), encode(e.blocks()), e.created().toEpochMilli());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            freeAll(c, free.freed());
            storeState(c, free.nextUnused(), state);
            return null;
        });
    }

    private void freeAll(Connection c, int[] indices) throws SQLException {
        try (PreparedStatement ps = prepare(c, "INSERT INTO block_free (idx) VALUES (?) ON CONFLICT DO NOTHING")) {
            for (int index : indices) {
                ps.setInt(1, index);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    private void storeState(Connection c, int nextUnused, byte[] state) throws SQLException {
        if (state == null || nextUnused < 0) {
            throw CofferException.invalid("a block map needs a state and a next unused index >= 0");
        }
        execute(c, "DELETE FROM block_state WHERE id = 1");
        execute(c, "INSERT INTO block_state (id, next_unused, state) VALUES (1, ?, ?)", nextUnused, state);
    }

    private void execute(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql)) {
            bind(ps, args);
            ps.executeUpdate();
        }
    }

    private static Entry entry(ResultSet rs) throws SQLException {
        return new Entry(string(rs.getBytes(1)), rs.getLong(2), decode(rs.getBytes(3)),
                Instant.ofEpochMilli(rs.getLong(4)));
    }

    static byte[] encode(int[] blocks) {
        ByteBuffer out = ByteBuffer.allocate(blocks.length * Integer.BYTES);
        for (int b : blocks) {
            out.putInt(b);
        }
        return out.array();
    }

    static int[] decode(byte[] bytes) {
        if (bytes.length % Integer.BYTES != 0) {
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "corrupt block list in the block map");
        }
        int[] out = new int[bytes.length / Integer.BYTES];
        ByteBuffer.wrap(bytes).asIntBuffer().get(out);
        return out;
    }
}
