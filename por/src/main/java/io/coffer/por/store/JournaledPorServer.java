package io.coffer.por.store;

import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.audit.AuditResponse;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.net.MessageType;
import io.coffer.por.net.PorCodec;
import io.coffer.por.net.ServerParameters;
import io.coffer.por.server.LeafProof;
import io.coffer.por.server.MemoryPorServer;
import io.coffer.por.server.PorServer;
import io.coffer.por.server.ProvenBlock;
import io.coffer.por.server.SealedLevel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A durable PoR server in a directory: the honest {@link MemoryPorServer} in memory, and a journal of every call that
 * changed it (write, flush, C rebuild, restore), each forced to disk before the call returns, so a restart replays
 * the journal into the same state. At every C rebuild the journal is replaced, atomically, by a snapshot of U and the
 * rebuild itself, so it holds at most one epoch of writes on top of U and a restart replays at most one CRebuild and
 * n writes. A call that the server refuses changes nothing and is not journaled.
 *
 * <p>Not memory-bounded: U, C and H are all held in memory (about 9.6 n blocks); a store that reads blocks from disk
 * needs the server's storage behind an interface (docs/POR.md, "The PoR server").
 */
public final class JournaledPorServer implements PorServer, AutoCloseable {
    private static final byte SNAPSHOT_U = 100;

    private final MemoryPorServer inner;
    private final PorCodec codec;
    private final ServerJournal journal;
    private final FileChannel lockFile;
    private final FileLock lock;
    private boolean failed;

    private JournaledPorServer(MemoryPorServer inner, PorCodec codec, ServerJournal journal, FileChannel lockFile,
            FileLock lock) {
        this.inner = inner;
        this.codec = codec;
        this.journal = journal;
        this.lockFile = lockFile;
        this.lock = lock;
    }

    /**
     * Opens the server in {@code dir}, creating it with {@code requested} (k, batch exponent, block size) the first
     * time; later {@code requested} may be null, and must otherwise match. Only one process may hold the directory.
     */
    public static JournaledPorServer open(Path dir, ServerParameters requested) throws IOException {
        Files.createDirectories(dir);
        FileChannel lockFile = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = lockFile.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // held by this process
        } catch (IOException | RuntimeException e) {
            lockFile.close();
            throw e;
        }
        if (lock == null) {
            lockFile.close();
            throw new IOException("the PoR server directory " + dir + " is in use by another process");
        }
        try {
            ServerParameters params = ParametersFile.fix(dir.resolve("parameters"), requested);
            MemoryPorServer inner = new MemoryPorServer(params.k(), params.batchExponent(), params.blockBytes());
            PorCodec codec = new PorCodec(params);
            List<ServerJournal.Entry> entries = new ArrayList<>();
            ServerJournal journal = ServerJournal.open(dir.resolve("journal"), params.maxFrameBytes(), entries);
            try {
                replay(inner, codec, entries, dir);
            } catch (IOException | RuntimeException e) {
                journal.close();
                throw e;
            }
            return new JournaledPorServer(inner, codec, journal, lockFile, lock);
        } catch (IOException | RuntimeException e) {
            lock.release();
            lockFile.close();
            throw e;
        }
    }

    /** The server in memory, for tests that damage it. */
    public MemoryPorServer memory() {
        return inner;
    }

    /** Bytes in the journal now. */
    public long journalBytes() throws IOException {
        return journal.size();
    }

    @Override
    public int blockBytes() {
        return inner.blockBytes();
    }

    @Override
    public int k() {
        return inner.k();
    }

    @Override
    public int batchExponent() {
        return inner.batchExponent();
    }

    @Override
    public ProvenBlock read(int index) {
        return inner.read(index);
    }

    @Override
    public LeafProof leaf(int index) {
        return inner.leaf(index);
    }

    @Override
    public SealedLevel sealedLevel(int level) {
        return inner.sealedLevel(level);
    }

    @Override
    public void write(int index, byte[] block, byte[] sealedChecksum, SealedLevel newLevel) {
        usable();
        inner.write(index, block, sealedChecksum, newLevel);
        append(MessageType.WRITE, codec.write(index, block, sealedChecksum, newLevel));
    }

    @Override
    public void flush(SealedLevel newLevel) {
        usable();
        boolean pending = newLevel != null;
        inner.flush(newLevel);
        if (pending) {
            append(MessageType.FLUSH, codec.flush(newLevel));
        }
    }

    @Override
    public List<byte[]> sealedU() {
        return inner.sealedU();
    }

    @Override
    public void rebuildC(SealedLevel c) {
        usable();
        inner.rebuildC(c);
        try {
            journal.replaceWith(snapshot(c));
        } catch (IOException e) {
            failed = true;
            throw new UncheckedIOException("PoR journal: the C rebuild could not be saved; restart the server", e);
        }
    }

    @Override
    public AuditResponse audit(AuditChallenge challenge) {
        return inner.audit(challenge);
    }

    @Override
    public List<ProvenBlock> decode(List<Integer> indices) {
        return inner.decode(indices);
    }

    @Override
    public void restore(int index, byte[] block) {
        usable();
        inner.restore(index, block);
        append(MessageType.RESTORE, codec.restore(index, block));
    }

    @Override
    public void close() throws IOException {
        try {
            journal.close();
        } finally {
            lock.release();
            lockFile.close();
        }
    }

    private void usable() {
        if (failed) {
            throw new IllegalStateException("the PoR server could not save an earlier change: restart it");
        }
    }

    /** After the change is made in memory: a change that cannot be saved stops the server's changes. */
    private void append(MessageType type, byte[] payload) {
        try {
            journal.append(type.code(), payload);
        } catch (IOException e) {
            failed = true;
            throw new UncheckedIOException("PoR journal: a " + type + " could not be saved; restart the server", e);
        }
    }

    /** U's non-empty positions, then the C rebuild: made one record at a time as the journal writes them. */
    private Iterable<ServerJournal.Entry> snapshot(SealedLevel c) {
        return () -> new Iterator<>() {
            private int next = advance(0);

            private int advance(int from) {
                int i = from;
                while (i < inner.storage().n() && inner.storage().u(i) == null && inner.storage().uSealed(i) == null) {
                    i++;
                }
                return i;
            }

            @Override
            public boolean hasNext() {
                return next <= inner.storage().n();
            }

            @Override
            public ServerJournal.Entry next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                int i = next;
                if (i == inner.storage().n()) {
                    next++;
                    return new ServerJournal.Entry(MessageType.REBUILD_C.code(), codec.rebuildC(c));
                }
                next = advance(i + 1);
                return new ServerJournal.Entry(SNAPSHOT_U, snapshotU(i, inner.storage().u(i),
                        inner.storage().uSealed(i)));
            }
        };
    }

    private static byte[] snapshotU(int index, byte[] block, byte[] sealed) {
        ByteBuffer b = ByteBuffer.allocate(4 + 2 + (block == null ? 0 : block.length)
                + (sealed == null ? 0 : sealed.length));
        b.putInt(index).put((byte) (block == null ? 0 : 1));
        if (block != null) {
            b.put(block);
        }
        b.put((byte) (sealed == null ? 0 : 1));
        if (sealed != null) {
            b.put(sealed);
        }
        return b.array();
    }

    private static void replay(MemoryPorServer server, PorCodec codec, List<ServerJournal.Entry> entries, Path dir)
            throws IOException {
        for (int i = 0; i < entries.size(); i++) {
            ServerJournal.Entry e = entries.get(i);
            try {
                if (e.type() == SNAPSHOT_U) {
                    restoreU(server, e.payload());
                    continue;
                }
                MessageType type = MessageType.of(e.type());
                if (type == null) {
                    throw new IllegalArgumentException("unknown record type " + e.type());
                }
                switch (type) {
                    case WRITE -> {
                        PorCodec.WriteRequest w = codec.readWrite(e.payload());
                        server.write(w.index(), w.block(), w.sealedChecksum(), w.newLevel());
                    }
                    case FLUSH -> server.flush(codec.readFlush(e.payload()));
                    case REBUILD_C -> server.rebuildC(codec.readRebuildC(e.payload()));
                    case RESTORE -> {
                        PorCodec.RestoreRequest r = codec.readRestore(e.payload());
                        server.restore(r.index(), r.block());
                    }
                    default -> throw new IllegalArgumentException("unexpected record " + type);
                }
            } catch (RuntimeException ex) {
                throw new IOException("PoR journal in " + dir + ", record " + i + ": cannot replay: " + ex.getMessage(),
                        ex);
            }
        }
    }

    private static void restoreU(MemoryPorServer server, byte[] payload) {
        ByteBuffer b = ByteBuffer.wrap(payload);
        int index = b.getInt();
        if (index < 0 || index >= server.storage().n()) {
            throw new IllegalArgumentException("U index " + index + " out of range");
        }
        if (b.get() == 1) {
            byte[] block = new byte[server.blockBytes()];
            b.get(block);
            server.storage().setU(index, block);
        }
        if (b.get() == 1) {
            byte[] sealed = new byte[ChecksumSealer.SEALED_BYTES];
            b.get(sealed);
            server.storage().setUSealed(index, sealed);
        }
        if (b.hasRemaining()) {
            throw new IllegalArgumentException("a U snapshot record of " + payload.length + " bytes");
        }
    }
}
