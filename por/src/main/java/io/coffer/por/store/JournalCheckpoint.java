package io.coffer.por.store;

import io.coffer.por.code.LogState;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * The record that begins each segment of the journal ({@link SegmentedJournal}): H's log state (epoch, t) when the
 * segment began, and its window: the adds windowStart + 1 .. t, whose records are the calls of segments
 * windowSegment .. this one - 1, from which a restart rebuilds H's levels below windowLevels (those held in memory
 * only) before it redoes this segment's calls. {@code fromFiles}: those levels were in their files where the window
 * starts (a clean close, a C rebuild, a former journal); otherwise the window is at least {@link
 * io.coffer.por.code.WriteLog#addsHeldBelow} adds long, so what they held before it no longer matters. An empty
 * window (windowSegment is this segment) means those levels were in their files at t.
 */
record JournalCheckpoint(long epoch, int t, int windowStart, int windowLevels, boolean fromFiles,
        long windowSegment) {
    /** The record type; the former journal's checkpoint (epoch and t, the levels in memory empty) was 101. */
    static final byte TYPE = 102;
    static final byte FORMER_TYPE = 101;
    private static final int BYTES = 8 + 4 + 4 + 1 + 1 + 8;

    /** A checkpoint at {@code state} with an empty window: segment {@code segment} is its own. */
    static JournalCheckpoint inFiles(LogState state, long segment) {
        return new JournalCheckpoint(state.epoch(), state.t(), state.t(), 0, true, segment);
    }

    boolean windowEmpty(long segment) {
        return windowSegment == segment;
    }

    ServerJournal.Entry entry() {
        return new ServerJournal.Entry(TYPE, ByteBuffer.allocate(BYTES).putLong(epoch).putInt(t).putInt(windowStart)
                .put((byte) windowLevels).put((byte) (fromFiles ? 1 : 0)).putLong(windowSegment).array());
    }

    /** The checkpoint that begins segment {@code segment}, checked against H's capacity exponent {@code k}. */
    static JournalCheckpoint of(ServerJournal.Entry entry, int k, long segment, Path dir) throws IOException {
        if (entry.type() != TYPE || entry.payload().length != BYTES) {
            throw new IOException("PoR journal in " + dir + ": segment " + segment + " does not start with a"
                    + " checkpoint");
        }
        ByteBuffer b = ByteBuffer.wrap(entry.payload());
        JournalCheckpoint c = new JournalCheckpoint(b.getLong(), b.getInt(), b.getInt(), b.get(), b.get() == 1,
                b.getLong());
        try {
            new LogState(k, c.t(), c.epoch());
            new LogState(k, c.windowStart(), c.epoch());
        } catch (IllegalArgumentException e) {
            throw new IOException("PoR journal in " + dir + ": a damaged checkpoint in segment " + segment + ": "
                    + e.getMessage(), e);
        }
        if (c.windowStart() > c.t() || c.windowLevels() < 0 || c.windowLevels() > k || c.windowSegment() > segment
                || c.windowSegment() < 1) {
            throw new IOException("PoR journal in " + dir + ": a damaged checkpoint in segment " + segment);
        }
        return c;
    }

    /**
     * The former journal's checkpoint as segment 1's: H's levels in memory were empty there (that was when it moved)
     * and the larger ones in files, so all are in their files and the window is empty.
     */
    static ServerJournal.Entry fromFormer(ServerJournal.Entry former) {
        if (former.type() != FORMER_TYPE || former.payload().length != 12) {
            return former; // refused as not a checkpoint when read
        }
        ByteBuffer b = ByteBuffer.wrap(former.payload());
        long epoch = b.getLong();
        int t = b.getInt();
        return new JournalCheckpoint(epoch, t, t, 0, true, 1).entry();
    }

    LogState state(int k) {
        return new LogState(k, t, epoch);
    }
}
