package io.coffer.por.store;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.CopyOnWriteSnapshot;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * A paced C rebuild's window in a server's directory (docs/POR.md, "C's rebuild paced in the servers"; docs/FORMAT.md):
 * the record {@code window} (its epoch, phase and whether the client uploads the next C's sealed checksums in the
 * window: {@link NextSealedFile}), the frozen H ({@code hf-<l>-<x|y>.vectors}, {@code hf-<l>.sealed}:
 * H's files renamed aside), the next C ({@code cn-<k+1>-<x|y>.vectors}) and its sealed checksums
 * ({@code c.next.sealed}), and U's vectors kept aside ({@code window.copies}; with the client's part, each with U's
 * sealed checksum of that index at the freeze, which the client downloads).
 *
 * <p>Each multi-file step is decided by the record and completed at open ({@link #complete}), as a grow is: the
 * freeze writes {@code c.next.sealed}, then the record in phase freezing, renames H's files, then the record in phase
 * open; the switch forces the next C, writes the record in phase switching, renames the next C's files over C's, then
 * deletes the window's files and the record. A crash at any instant leaves the old store (no record) or a step that
 * the next open finishes. The copies are appended unforced and forced before any write of U reaches U's files
 * ({@link #forceCopies}), so a copy that a crash lost belongs to a write whose block never reached the disk.
 */
final class PacedWindowFiles implements AutoCloseable {
    static final String RECORD = "window";
    static final String NEXT_SEALED = "c.next.sealed";
    static final String COPIES = "window.copies";
    static final String FROZEN_PREFIX = "hf";
    static final String NEXT_PREFIX = "cn";
    /** The old C's files after the switch, deleted a share per add (RetiredFiles) or at open. */
    static final String FORMER_PREFIX = "co";
    static final byte FREEZING = 0;
    static final byte OPEN = 1;
    static final byte SWITCHING = 2;
    /** The record without flags (a window whose next C's sealed checksums came at the freeze), and with them. */
    private static final byte[] MAGIC = "CPORWIN1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MAGIC_FLAGS = "CPORWIN2".getBytes(StandardCharsets.US_ASCII);
    private static final int RECORD_BYTES = MAGIC.length + 8 + 1 + 4;
    /** Flag bit 0: the client uploads the next C's sealed checksums in the window (the only flag). */
    private static final byte CLIENT_PART = 1;

    /**
     * The record: the window's epoch (the one the freeze began), the phase its steps reached, and whether the client
     * uploads the next C's sealed checksums in the window ({@code c.next.sealed} made empty at the freeze).
     */
    record State(long epoch, byte phase, boolean clientPart) {
        State(long epoch, byte phase) {
            this(epoch, phase, false);
        }
    }

    private final long epoch;
    private final VectorStore frozenH;
    private final SealedHFiles frozenSealed;
    private final VectorStore nextC;
    private final Copies copies;
    /** The next C's sealed checksums the client uploads; null where they came at the freeze. */
    private final NextSealedFile nextSealed;

    private PacedWindowFiles(long epoch, VectorStore frozenH, SealedHFiles frozenSealed, VectorStore nextC,
            Copies copies, NextSealedFile nextSealed) {
        this.epoch = epoch;
        this.frozenH = frozenH;
        this.frozenSealed = frozenSealed;
        this.nextC = nextC;
        this.copies = copies;
        this.nextSealed = nextSealed;
    }

    /**
     * Opens the open window {@code state} (H frozen) over its stores of the frozen H and the next C (files or a
     * bucket's objects): the copies read back, a torn tail cut; with the client's part, {@code c.next.sealed}'s empty
     * positions (of n) counted and each copy keeping U's sealed checksum of its index ({@code uSealed}, U now) beside it.
     */
    static PacedWindowFiles open(Path dir, State state, VectorStore frozenH, SealedHFiles frozenSealed,
            VectorStore nextC, int blockWidth, int n, IntFunction<byte[]> uSealed) throws IOException {
        Copies copies = null;
        try {
            copies = new Copies(dir.resolve(COPIES), blockWidth, state.clientPart() ? uSealed : null);
            NextSealedFile next = state.clientPart() ? NextSealedFile.open(dir.resolve(NEXT_SEALED), n)
                    : null;
            return new PacedWindowFiles(state.epoch(), frozenH, frozenSealed, nextC, copies, next);
        } catch (IOException | RuntimeException e) {
            try (VectorStore f = frozenH; SealedHFiles s = frozenSealed; VectorStore c = nextC; Copies k = copies) {
                throw e;
            }
        }
    }

    long epoch() {
        return epoch;
    }

    VectorStore frozenH() {
        return frozenH;
    }

    SealedHFiles frozenSealed() {
        return frozenSealed;
    }

    VectorStore nextC() {
        return nextC;
    }

    Copies copies() {
        return copies;
    }

    /** The next C's sealed checksums as the client uploads them; null in a window whose freeze had them. */
    NextSealedFile nextSealed() {
        return nextSealed;
    }

    /** Before U's pending writes go to its files: the copies of their old vectors on disk first. */
    void forceCopies() throws IOException {
        copies.force();
    }

    @Override
    public void close() throws IOException {
        try (VectorStore f = frozenH; SealedHFiles s = frozenSealed; VectorStore c = nextC; Copies k = copies;
                NextSealedFile n = nextSealed) {
            // closes them all
        }
    }

    /**
     * The freeze's files, H's stores {@code h} and {@code hSealed} spilled and forced by the caller: a former window's
     * leftovers deleted, the next C's sealed checksums written (null: the client uploads them in the window, and
     * {@code c.next.sealed} is made with every position empty), H's stores closed, the record in phase freezing, the
     * renames, the record open.
     */
    static void freeze(Path dir, long epoch, int n, byte[][] nextX, byte[][] nextY, VectorStore h,
            SealedHFiles hSealed) throws IOException {
        deleteLeftovers(dir);
        if (nextX == null) {
            NextSealedFile.createEmpty(dir.resolve(NEXT_SEALED), n);
        } else {
            SealedLevelFile.write(dir.resolve(NEXT_SEALED), n, nextX, nextY);
        }
        try (VectorStore a = h; SealedHFiles b = hSealed) {
            // closed before their files are renamed
        }
        write(dir, new State(epoch, FREEZING, nextX == null));
        complete(dir, null, false);
    }

    /** The record in {@code dir}, or null where no window is open; a damaged one is refused. */
    static State read(Path dir) throws IOException {
        Path file = dir.resolve(RECORD);
        if (!Files.exists(file)) {
            return null;
        }
        byte[] bytes = Files.readAllBytes(file);
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, Math.max(0, bytes.length - 4));
        ByteBuffer b = ByteBuffer.wrap(bytes);
        byte[] magic = Arrays.copyOf(bytes, MAGIC.length);
        boolean flagged = Arrays.equals(magic, MAGIC_FLAGS);
        if (bytes.length != RECORD_BYTES + (flagged ? 1 : 0) || !flagged && !Arrays.equals(magic, MAGIC)
                || b.getInt(bytes.length - 4) != (int) crc.getValue() || bytes[MAGIC.length + 8] > SWITCHING
                || bytes[MAGIC.length + 8] < FREEZING || flagged && bytes[MAGIC.length + 9] != CLIENT_PART) {
            throw new IOException("PoR server in " + dir + ": the record of a paced C rebuild's window (" + RECORD
                    + ") is damaged");
        }
        return new State(b.getLong(MAGIC.length), bytes[MAGIC.length + 8], flagged);
    }

    /** {@link #write(Path, State)} of a window whose freeze had the next C's sealed checksums. */
    static void write(Path dir, long epoch, byte phase) throws IOException {
        write(dir, new State(epoch, phase));
    }

    /**
     * Writes the record: magic (8), epoch (8), phase (1), CRC-32C of the rest (4); with the client's part the magic
     * {@code CPORWIN2} and a flags byte (bit 0) before the CRC. Forced and renamed into place.
     */
    static void write(Path dir, State state) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(RECORD_BYTES - 4 + (state.clientPart() ? 1 : 0));
        b.put(state.clientPart() ? MAGIC_FLAGS : MAGIC).putLong(state.epoch()).put(state.phase());
        if (state.clientPart()) {
            b.put(CLIENT_PART);
        }
        Durable.writeChecked(dir.resolve(RECORD), b.array());
    }

    /**
     * Finishes a freeze or a switch a crash interrupted; returns the record of the window now open, or null. Every
     * step is a rename of the files that still have the old name, so it may be redone; with the vectors in a bucket
     * ({@code generations} not null) only the sealed checksums are files, and the switch records the window's
     * generation as C's before the record goes.
     */
    static State complete(Path dir, BlobGenerations generations) throws IOException {
        return complete(dir, generations, false);
    }

    /**
     * As {@link #complete(Path, BlobGenerations)}; with {@code keepRetired} a switch leaves the frozen H's and the old
     * C's vector files ({@code hf-*.vectors}, {@code co-*.vectors}) for the caller to delete a share at a time
     * ({@link RetiredFiles}): deleting them at once frees all of their pages in the write that switches.
     */
    static State complete(Path dir, BlobGenerations generations, boolean keepRetired) throws IOException {
        Files.deleteIfExists(dir.resolve(RECORD + ".tmp"));
        State state = read(dir);
        if (state == null || state.phase() == OPEN) {
            return state;
        }
        if (state.phase() == FREEZING) {
            renamePrefix(dir, "h-", FROZEN_PREFIX + "-");
            State open = new State(state.epoch(), OPEN, state.clientPart());
            write(dir, open);
            return open;
        }
        for (Path p : list(dir)) { // the old C's files aside, then the next C's in their place
            String name = p.getFileName().toString();
            if (name.startsWith(NEXT_PREFIX + "-") && name.endsWith(".vectors")) {
                String c = "c-" + name.substring(NEXT_PREFIX.length() + 1);
                if (Files.exists(dir.resolve(c))) {
                    Files.move(dir.resolve(c), dir.resolve(FORMER_PREFIX + "-" + c.substring(2)),
                            StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                }
                Files.move(p, dir.resolve(c), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Path nextSealed = dir.resolve(NEXT_SEALED);
        if (Files.exists(nextSealed)) {
            Files.move(nextSealed, dir.resolve("c.sealed"), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        }
        Durable.forceDirectory(dir);
        if (generations != null) {
            generations.switchTo(state.epoch());
        }
        deleteRecord(dir, keepRetired);
        return null;
    }

    /**
     * Ends the window: the record first (the store is then outside a window), then its files. In a bucket C first
     * takes the window's generation, where H is (the caller rebuilds C in full), and the former one is deleted.
     */
    static void drop(Path dir, BlobGenerations generations) throws IOException {
        State state = generations == null ? null : read(dir);
        if (state != null) {
            generations.switchTo(state.epoch());
        }
        deleteRecord(dir, false);
        if (generations != null) {
            generations.finishRetired();
        }
    }

    /**
     * Ends, at open, a window of {@code epoch}, an epoch the journal's checkpoint is neither at nor one before. No step
     * leaves one: a resync and a resize end their window (the record deleted and the directory forced) before the
     * checkpoint leaves its epoch, and a freeze's record is of the checkpoint's epoch or the next. Unlike
     * {@link #drop}, no C rebuild follows, so C keeps the generation that {@code generations} names; the window's own
     * objects (its fresh H and next C, under its generation) are deleted first when that is not C's, then the record
     * and the window's files.
     */
    static void dropStale(Path dir, BlobGenerations generations, long epoch) throws IOException {
        if (generations != null && generations.current() != epoch) {
            generations.deleteGeneration(epoch);
        }
        deleteRecord(dir, false);
    }

    private static void deleteRecord(Path dir, boolean keepRetired) throws IOException {
        Files.deleteIfExists(dir.resolve(RECORD));
        Durable.forceDirectory(dir);
        deleteLeftovers(dir, keepRetired);
    }

    /** Deletes a former window's files (a drop that a crash cut short leaves them; none is read outside a window). */
    static void deleteLeftovers(Path dir) throws IOException {
        deleteLeftovers(dir, false);
    }

    private static void deleteLeftovers(Path dir, boolean keepRetired) throws IOException {
        for (Path p : list(dir)) {
            String name = p.getFileName().toString();
            if (keepRetired && retired(name)) {
                continue;
            }
            if (name.startsWith(FROZEN_PREFIX + "-") || name.startsWith(NEXT_PREFIX + "-") || name.equals(COPIES)
                    || name.equals(NEXT_SEALED) || name.startsWith(FORMER_PREFIX + "-")) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The frozen H's and the old C's vector files, which a switch leaves to {@link RetiredFiles}. */
    static boolean retired(String name) {
        return (name.startsWith(FROZEN_PREFIX + "-") || name.startsWith(FORMER_PREFIX + "-"))
                && name.endsWith(".vectors");
    }

    /** The retired files in {@code dir} ({@link #retired}). */
    static List<Path> retiredFiles(Path dir) throws IOException {
        return list(dir).stream().filter(p -> retired(p.getFileName().toString())).sorted().toList();
    }

    /** Renames every H or next-C file (vectors or sealed checksums) whose name starts with {@code from}. */
    private static void renamePrefix(Path dir, String from, String to) throws IOException {
        for (Path p : list(dir)) {
            String name = p.getFileName().toString();
            if (name.startsWith(from) && (name.endsWith(".vectors") || name.endsWith(".sealed"))) {
                Files.move(p, dir.resolve(to + name.substring(from.length())), StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Durable.forceDirectory(dir);
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }

    /**
     * U's vectors as they were at the freeze, each at its first change in the window: records of index (4), the
     * tagged vector (width ints, big-endian), with the client's part U's sealed checksum of the index then (48, all
     * zero where it was never written), and CRC-32C of the rest (4), appended; a record cut short by a crash, and what
     * follows it, is dropped at open (its write never reached U's files).
     */
    static final class Copies implements CopyOnWriteSnapshot.Aside, AutoCloseable {
        private static final int SEALED = ChecksumSealer.SEALED_BYTES;
        private final Path file;
        private final int width;
        /** U's sealed checksum of an index now (before its first change), kept in its copy; null: not kept. */
        private final IntFunction<byte[]> uSealed;
        private final int recordBytes;
        private final FileChannel channel;
        private final Map<Integer, Long> at = new HashMap<>();
        private long end;
        private boolean dirty;

        Copies(Path file, int width, IntFunction<byte[]> uSealed) throws IOException {
            this.file = file;
            this.width = width;
            this.uSealed = uSealed;
            this.recordBytes = 4 + 4 * width + (uSealed == null ? 0 : SEALED) + 4;
            this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            try {
                long size = channel.size();
                ByteBuffer b = ByteBuffer.allocate(recordBytes);
                while (end + recordBytes <= size) {
                    b.clear();
                    PositionalIo.readFully(channel, b, end, file.toString());
                    if (!intact(b.array())) {
                        break;
                    }
                    at.putIfAbsent(b.getInt(0), end);
                    end += recordBytes;
                }
                channel.truncate(end);
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
        }

        private boolean intact(byte[] record) {
            CRC32C crc = new CRC32C();
            crc.update(record, 0, recordBytes - 4);
            return ByteBuffer.wrap(record).getInt(recordBytes - 4) == (int) crc.getValue();
        }

        @Override
        public int[] get(int index) {
            Long position = at.get(index);
            if (position == null) {
                return null;
            }
            ByteBuffer b = ByteBuffer.allocate(recordBytes);
            PositionalIo.readFully(channel, b, position, file.toString());
            int[] vector = new int[width];
            b.position(4);
            b.asIntBuffer().get(vector);
            return vector;
        }

        /** Whether index has a copy (its first change in the window has come). */
        boolean has(int index) {
            return at.containsKey(index);
        }

        /** U's sealed checksum of {@code index} at the freeze, kept with its copy; null where it was never written. */
        byte[] sealed(int index) {
            Long position = at.get(index);
            if (uSealed == null || position == null) {
                throw new IllegalStateException("no sealed checksum of U kept aside for " + index);
            }
            ByteBuffer b = ByteBuffer.allocate(SEALED);
            PositionalIo.readFully(channel, b, position + 4 + 4L * width, file.toString());
            byte[] sealed = b.array();
            return Arrays.equals(sealed, new byte[SEALED]) ? null : sealed;
        }

        @Override
        public void put(int index, int[] vector) {
            ByteBuffer b = ByteBuffer.allocate(recordBytes);
            b.putInt(index);
            for (int v : vector) {
                b.putInt(v);
            }
            if (uSealed != null) {
                byte[] sealed = uSealed.apply(index);
                b.put(sealed == null ? new byte[SEALED] : sealed);
            }
            CRC32C crc = new CRC32C();
            crc.update(b.array(), 0, recordBytes - 4);
            b.putInt((int) crc.getValue()).flip();
            PositionalIo.writeFully(channel, b, end, file.toString());
            at.put(index, end);
            end += recordBytes;
            dirty = true;
        }

        @Override
        public int size() {
            return at.size();
        }

        void force() throws IOException {
            if (dirty) {
                channel.force(false);
                dirty = false;
            }
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
