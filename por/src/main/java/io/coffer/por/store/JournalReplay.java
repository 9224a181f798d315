package io.coffer.por.store;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.DeamortizedLog;
import io.coffer.por.code.LogState;
import io.coffer.por.net.MessageType;
import io.coffer.por.net.PorCodec;
import io.coffer.por.server.HonestPorServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What {@link JournaledPorServer} replays at open: the memory budget its window allows, the window, the calls. */
final class JournalReplay {
    private static final Logger LOG = LoggerFactory.getLogger(JournaledPorServer.class);

    private JournalReplay() {
    }

    /**
     * The memory budget to open with: {@code memoryBudget}, unless the levels it holds (m) differ from those the
     * checkpoint's window was kept for (L) where that is not safe, and then exactly L levels' worth (the budget's m
     * takes effect at a later start). Safe: a window from the epoch's start (it reads nothing it did not write); L = 0
     * or an empty window of addsHeldBelow(L) = 0 adds (nothing in memory was part of the code: the files hold it all);
     * a window of at least addsHeldBelow(L) adds with m < L (it rebuilds levels m..L-1 into their files, the same at
     * every replay); a window from the files with m > L (levels L..m-1 are then written to memory only, so the files
     * it reads stay as they were), or with m < L and nothing to replay or redo. Not safe: m > L with a non-empty
     * window that needs no files (later windows would need addsHeldBelow(m) adds, which the journal no longer has),
     * m < L with a window from the files and calls to redo (the redo writes levels m..L-1 into files it may read
     * again after a second crash).
     */
    static long budget(JournalCheckpoint checkpoint, long segment, boolean calls, CodeParameters h, int width,
            long memoryBudget, Path dir) {
        int wanted = SmallLevelsInMemory.memoryLevels(h, width, DeamortizedLog.SLOTS, memoryBudget);
        int kept = checkpoint.windowLevels();
        boolean safe = wanted == kept || checkpoint.windowStart() == 0 || kept == 0
                || (checkpoint.fromFiles() ? wanted > kept || checkpoint.windowEmpty(segment) && !calls
                        : wanted < kept || checkpoint.windowEmpty(segment));
        if (safe) {
            return memoryBudget;
        }
        LOG.warn("PoR server in {}: H's levels 0..{} stay in memory, as the journal's window was kept for them, not"
                + " the {} levels of the memory budget; those take effect at a later start (after a clean close)", dir,
                kept - 1, wanted);
        return SmallLevelsInMemory.budgetFor(kept, width, DeamortizedLog.SLOTS);
    }

    /**
     * Rebuilds H's levels below the checkpoint's window levels from the window's adds, one older segment at a time,
     * each read and checked whole (its checkpoint must be where the segments before it ended); returns where each
     * began.
     */
    static Map<Long, Integer> replayWindow(DirectoryStorage storage, SegmentedJournal journal,
            JournalCheckpoint checkpoint, PorCodec codec, Path dir) throws IOException {
        Map<Long, Integer> starts = new TreeMap<>();
        long current = journal.currentSegment();
        if (checkpoint.windowEmpty(current)) {
            return starts;
        }
        int k = storage.hParameters().k();
        HonestPorServer<MemoryLevelsOnly> window = new HonestPorServer<>(new MemoryLevelsOnly(storage,
                checkpoint.windowLevels(), !checkpoint.fromFiles()), new LogState(k, checkpoint.windowStart(),
                checkpoint.epoch()));
        for (long seq = checkpoint.windowSegment(); seq < current; seq++) {
            if (!journal.has(seq)) {
                throw badWindow(dir, checkpoint, current, "segment " + seq + " is missing", null);
            }
            List<ServerJournal.Entry> entries;
            JournalCheckpoint start;
            try {
                entries = journal.read(seq);
                if (entries.isEmpty()) {
                    throw new IOException("segment " + seq + " holds no checkpoint");
                }
                start = JournalCheckpoint.of(entries.get(0), k, seq, dir);
            } catch (IOException e) {
                throw badWindow(dir, checkpoint, current, e.getMessage(), e);
            }
            if (!start.state(k).equals(window.state()) || window.pending() != 0) {
                throw badWindow(dir, checkpoint, current, "segment " + seq + " begins at t = " + start.t()
                        + " (epoch " + start.epoch() + "), the segments before it end at " + window.state(), null);
            }
            starts.put(seq, start.t());
            try {
                redo(window, codec, entries, true);
            } catch (IllegalStateException e) {
                throw badWindow(dir, checkpoint, current, "segment " + seq + ", " + e.getMessage(), e);
            }
        }
        if (!checkpoint.state(k).equals(window.state()) || window.pending() != 0) {
            throw badWindow(dir, checkpoint, current, "it ends at " + window.state() + " with " + window.pending()
                    + " blocks pending, the checkpoint is at t = " + checkpoint.t(), null);
        }
        return starts;
    }

    static IOException badWindow(Path dir, JournalCheckpoint checkpoint, long current, String why,
            Exception cause) {
        return new IOException("PoR journal in " + dir + ": the window of segment " + current + " (segments "
                + checkpoint.windowSegment() + ".." + (current - 1) + ", adds " + checkpoint.windowStart() + ".."
                + checkpoint.t() + "), from which H's levels in memory are rebuilt, is damaged or incomplete: " + why
                + "; not replayed (restore the journal's segments, or start a new server directory and re-initialise"
                + " the client)", cause);
    }

    /** Redoes a segment's calls (its records after the checkpoint); a window holds writes and flushes only. */
    static void redo(HonestPorServer<?> server, PorCodec codec, List<ServerJournal.Entry> entries,
            boolean window) {
        for (int i = 1; i < entries.size(); i++) {
            ServerJournal.Entry e = entries.get(i);
            try {
                MessageType type = MessageType.of(e.type());
                if (type == null) {
                    throw new IllegalArgumentException("unknown record type " + e.type());
                }
                switch (type) {
                    case WRITE -> {
                        PorCodec.WriteRequest w = codec.readWrite(e.payload());
                        server.write(w.index(), w.block(), w.sealedChecksum(), w.written());
                    }
                    case FLUSH -> server.flush(codec.readFlush(e.payload()));
                    case REBUILD_C -> server.rebuildC(codec.readRebuildC(notInWindow(type, window, e)));
                    case REBUILD_C_PACED -> {
                        if (notInWindow(type, window, e).length != 0) {
                            throw new IllegalArgumentException("a " + type + " record carries nothing");
                        }
                        server.rebuildCPaced();
                    }
                    case RESYNC -> {
                        PorCodec.ResyncRequest r = codec.readResync(notInWindow(type, window, e));
                        server.resync(r.epoch(), r.c());
                    }
                    default -> throw new IllegalArgumentException("unexpected record " + type);
                }
            } catch (RuntimeException ex) {
                throw new IllegalStateException("record " + i + ": " + ex.getMessage(), ex);
            }
        }
    }

    /** A window's adds begin after a C rebuild or a resync (a new epoch needs no window), never before one. */
    static byte[] notInWindow(MessageType type, boolean window, ServerJournal.Entry e) {
        if (window) {
            throw new IllegalArgumentException("a " + type + " in a window");
        }
        return e.payload();
    }
}
