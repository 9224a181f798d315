package io.coffer.por.store;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.DeamortizedLog;
import io.coffer.sdk.blob.BlobStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.function.IntFunction;

/**
 * The paced C rebuild's window of a {@link DirectoryStorage} (docs/POR.md, "C's rebuild paced in the servers"): its
 * files ({@link PacedWindowFiles}) from the freeze to the switch or a drop, the next C forced a share at a time in the
 * window, and after a switch the former window's files or objects deleted a share per add. The storage keeps H and C;
 * this class keeps what the window adds beside them.
 */
final class DirectoryWindow implements AutoCloseable {
    private final Path dir;
    private final BlobStore objects;
    private final BlobGenerations generations;
    private final ByteOrder vectorOrder;
    private final CodeParameters cParams;
    private final CodeParameters hParams;
    private final int hWidth;
    private final int blockWidth;
    /** U's sealed checksum of an index now, kept with its copy in a window that takes the client's part. */
    private final IntFunction<byte[]> uSealed;
    /**
     * In files, the adds between two shares of the next C's force and of the former window's deletes: at most 32 (an
     * fsync per add doubled the median add: docs/BENCHMARKS.md, "C's rebuild paced (cdeam)"), and at least 32 shares
     * in the half epoch after the switch.
     */
    private final int shareAdds;
    private int addsSinceShare;
    /** In files, after a switch: the frozen H's and the old C's files, deleted a share per add; else null. */
    private RetiredFiles retired;
    /** The open window, null outside one. */
    private PacedWindowFiles window;

    DirectoryWindow(Path dir, BlobStore objects, BlobGenerations generations, ByteOrder vectorOrder,
            CodeParameters cParams, CodeParameters hParams, int hWidth, int blockWidth, IntFunction<byte[]> uSealed) {
        this.dir = dir;
        this.objects = objects;
        this.generations = generations;
        this.vectorOrder = vectorOrder;
        this.cParams = cParams;
        this.hParams = hParams;
        this.hWidth = hWidth;
        this.blockWidth = blockWidth;
        this.uSealed = uSealed;
        this.shareAdds = Math.max(1, Math.min(32, hParams.n() / 64));
    }

    /** At open: the window that the record in the directory names (its steps completed). */
    void resume(PacedWindowFiles.State state) throws IOException {
        window = openFiles(state);
    }

    /** The open window {@code state}: the frozen H and the next C as files or in the bucket, the rest in files. */
    private PacedWindowFiles openFiles(PacedWindowFiles.State state) throws IOException {
        long epoch = state.epoch();
        String frozen = generations == null ? PacedWindowFiles.FROZEN_PREFIX
                : BlobGenerations.prefix(generations.current()) + "h";
        String next = generations == null ? PacedWindowFiles.NEXT_PREFIX : BlobGenerations.prefix(epoch) + "c";
        return PacedWindowFiles.open(dir, state, DirectoryStorage.vectors(dir, objects, frozen, hParams, hWidth,
                vectorOrder, DeamortizedLog.SLOTS), new SealedHFiles(dir, PacedWindowFiles.FROZEN_PREFIX, hParams, 0),
                DirectoryStorage.vectors(dir, objects, next, cParams, blockWidth, vectorOrder, 1), blockWidth,
                cParams.n(), uSealed);
    }

    boolean isOpen() {
        return window != null;
    }

    /** The epoch of the open window, or -1 outside one. */
    long epoch() {
        return window == null ? -1 : window.epoch();
    }

    /** The open window's files; refused outside one. */
    PacedWindowFiles open() {
        if (window == null) {
            throw new IllegalStateException("no paced C rebuild is in its window");
        }
        return window;
    }

    /**
     * The freeze's files, H's stores {@code h} and {@code hSealed} spilled and forced by the caller (and closed here):
     * any former window's left deleted, the record and the renames ({@link PacedWindowFiles#freeze}), the window open;
     * {@code nextX} null: the client uploads the next C's sealed checksums in the window.
     */
    void freeze(long epoch, byte[][] nextX, byte[][] nextY, VectorStore h, SealedHFiles hSealed) throws IOException {
        if (generations != null) {
            generations.finishRetired(); // none is left in a paced epoch: the share ends them before its end
        }
        retired = null; // any left are deleted with the former window's files
        PacedWindowFiles.freeze(dir, epoch, cParams.n(), nextX, nextY, h, hSealed);
        window = openFiles(new PacedWindowFiles.State(epoch, PacedWindowFiles.OPEN, nextX == null));
    }

    /**
     * The switch's files: the next C forced, the record in phase switching, then, with C's store {@code c} closed, the
     * renames; the former window's files (or generation) left to be deleted a share per add ({@link #afterAdd}).
     */
    void switchC(VectorStore c) throws IOException {
        PacedWindowFiles w = open();
        w.nextC().force();
        PacedWindowFiles.write(dir, new PacedWindowFiles.State(w.epoch(), PacedWindowFiles.SWITCHING,
                w.nextSealed() != null));
        window = null;
        w.close();
        c.close();
        PacedWindowFiles.complete(dir, generations, true);
        long adds = Math.max(1, hParams.n() / 2); // the switch is at most half an epoch in: the rest deletes them
        if (generations != null) {
            generations.paceRetired(cParams, hParams, adds);
        } else {
            retired = RetiredFiles.of(dir, Math.max(1, adds / shareAdds));
        }
    }

    /**
     * After an H add: in a bucket, the next share of a former generation's deletes; in files, every
     * {@link #shareAdds} adds, in a window the next C forced with what the adds' shares wrote, so that the switch has
     * one share left to force, not 2n vectors, and after the switch the next share of the former window's files
     * deleted.
     */
    void afterAdd() {
        if (generations != null) {
            generations.afterAdd();
            return;
        }
        if (++addsSinceShare < shareAdds) {
            return;
        }
        addsSinceShare = 0;
        if (window != null) {
            try {
                window.nextC().force();
            } catch (IOException e) {
                throw new UncheckedIOException("PoR storage: cannot force the next C in " + dir, e);
            }
        } else if (retired != null && !retired.afterAdd()) {
            retired = null;
        }
    }

    /** Whether a former generation's objects are being deleted a share per add (never with files), for tests. */
    boolean retiredDeletesPaced() {
        return generations != null && generations.pacing();
    }

    /** Ends the window without a switch (also a former window's files left by a crash). */
    void drop() throws IOException {
        try (PacedWindowFiles w = window) {
            window = null;
            retired = null; // deleted with the window's files
            PacedWindowFiles.drop(dir, generations);
        }
    }

    /** Before U's pending writes go to its files: in a window, the copies of their old vectors on disk first. */
    void beforeUWrites() {
        if (window != null) {
            try {
                window.forceCopies();
            } catch (IOException e) {
                throw new UncheckedIOException("PoR storage: cannot force " + PacedWindowFiles.COPIES, e);
            }
        }
    }

    @Override
    public void close() throws IOException {
        if (window != null) {
            window.close();
        }
    }
}
