package io.coffer.por.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One segment of the server's journal ({@link SegmentedJournal}): an append-only file of records (type byte and
 * payload), each framed by its length and a CRC32C and forced to disk before {@link #append} returns. Reading the
 * segment being appended to stops at the first record that is truncated or fails its CRC, the torn tail a crash during
 * an append leaves, and cuts the file there; an older segment was whole when the next one began, so there such a tail
 * is damage ({@link #readWhole}). {@link #create} writes a segment to a temporary file, forces it and renames it into
 * place, so a crash leaves it whole or absent.
 */
final class ServerJournal implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServerJournal.class);
    static final byte[] MAGIC = {'C', 'P', 'O', 'R', 'J', 'N', 'L', '3'};
    /** The former single-file journal ({@code journal}), whose checkpoint waited for empty levels in memory. */
    static final byte[] FORMER_MAGIC = {'C', 'P', 'O', 'R', 'J', 'N', 'L', '2'};
    /** The journal of the earlier server that held U, C and H in memory: a format this one does not read. */
    private static final byte[] MAGIC_IN_MEMORY = {'C', 'P', 'O', 'R', 'J', 'N', 'L', '1'};
    private static final int RECORD_HEADER = 4 + 4 + 1;
    private static final int MAX_REUSED_BYTES = 4 << 20;

    /** One record: its type and payload. */
    record Entry(byte type, byte[] payload) {
    }

    /**
     * Appends build their record here: a heap buffer would be copied again into the JDK's temporary direct buffer
     * (the server's appends are one at a time, as its calls are). Larger records take a buffer of their own.
     */
    private ByteBuffer reused = ByteBuffer.allocateDirect(0);
    private final FileChannel channel;

    private ServerJournal(FileChannel channel) {
        this.channel = channel;
    }

    /**
     * Opens the journal {@code file}, creating it with {@code initial} when there is none, and returns it with its
     * valid records in {@code into}; records longer than {@code maxRecordBytes} are refused as damage rather than
     * allocated.
     */
    static ServerJournal open(Path file, int maxRecordBytes, List<Entry> into, List<Entry> initial)
            throws IOException {
        return open(file, maxRecordBytes, into, initial, MAGIC);
    }

    /** As above, for a file that starts with {@code magic} (the former journal's, to convert it). */
    static ServerJournal open(Path file, int maxRecordBytes, List<Entry> into, List<Entry> initial, byte[] magic)
            throws IOException {
        if (!Files.exists(file)) {
            create(file, initial);
        }
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            long end = read(channel, file, magic, maxRecordBytes, into);
            if (end < channel.size()) {
                LOG.warn("PoR journal {}: {} bytes after the last whole record (an interrupted write) dropped", file,
                        channel.size() - end);
                channel.truncate(end);
                channel.force(true);
            }
            channel.position(end);
            return new ServerJournal(channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Appends one record and forces it to disk, with every record appended before it. */
    void append(byte type, byte[] payload) throws IOException {
        append(type, payload, true);
    }

    /**
     * Appends one record; with {@code force}, forces it (and every record before it) to disk. Without, the record is
     * durable at the next forced append or {@link #force}: a group commit.
     */
    void append(byte type, byte[] payload, boolean force) throws IOException {
        int size = RECORD_HEADER + payload.length;
        ByteBuffer record;
        if (size <= MAX_REUSED_BYTES) {
            if (reused.capacity() < size) {
                reused = ByteBuffer.allocateDirect(Math.min(MAX_REUSED_BYTES, Math.max(size, 2 * reused.capacity())));
            }
            record = fill(reused.clear(), type, payload);
        } else {
            record = record(type, payload);
        }
        while (record.hasRemaining()) {
            channel.write(record);
        }
        if (force) {
            channel.force(false);
        }
    }

    /** Forces every record appended so far to disk. */
    void force() throws IOException {
        channel.force(false);
    }

    /**
     * The records of a whole segment (magic {@code magic}) into {@code into}: one that is cut short or damaged is
     * refused, as an older segment was whole and forced before the next one began.
     */
    static void readWhole(Path file, byte[] magic, int maxRecordBytes, List<Entry> into) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long end = read(channel, file, magic, maxRecordBytes, into);
            if (end < channel.size()) {
                throw new IOException("PoR journal segment " + file + " is damaged: its record at byte " + end
                        + " is cut short or fails its CRC");
            }
        }
    }

    long size() throws IOException {
        return channel.size();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /** Writes a segment of {@code entries} atomically: a temporary file, forced, renamed into place. */
    static void create(Path file, Iterable<Entry> entries) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            writeFully(out, ByteBuffer.wrap(MAGIC));
            for (Entry e : entries) {
                writeFully(out, record(e.type(), e.payload()));
            }
            out.force(true);
        }
        Durable.replace(tmp, file);
    }

    private static long read(FileChannel channel, Path file, byte[] expected, int maxRecordBytes, List<Entry> into)
            throws IOException {
        ByteBuffer magic = ByteBuffer.allocate(MAGIC.length);
        readFully(channel, magic, 0);
        if (Arrays.equals(magic.array(), MAGIC_IN_MEMORY)) {
            throw new IOException("PoR journal " + file + " is of the earlier in-memory server, which this version"
                    + " does not read: start a new server directory and re-initialise the client");
        }
        if (magic.hasRemaining() || !Arrays.equals(magic.array(), expected)) {
            throw new IOException("PoR journal " + file + " does not start with the journal header");
        }
        long pos = MAGIC.length;
        long size = channel.size();
        List<Entry> entries = new ArrayList<>();
        ByteBuffer header = ByteBuffer.allocate(RECORD_HEADER);
        while (size - pos >= RECORD_HEADER) {
            header.clear();
            readFully(channel, header, pos);
            header.flip();
            int length = header.getInt();
            int crc = header.getInt();
            byte type = header.get();
            if (length < 0 || length > maxRecordBytes || size - pos - RECORD_HEADER < length) {
                break;
            }
            ByteBuffer payload = ByteBuffer.allocate(length);
            readFully(channel, payload, pos + RECORD_HEADER);
            if (crc(type, payload.array()) != crc) {
                break;
            }
            entries.add(new Entry(type, payload.array()));
            pos += RECORD_HEADER + length;
        }
        into.addAll(entries);
        return pos;
    }

    private static ByteBuffer record(byte type, byte[] payload) {
        return fill(ByteBuffer.allocate(RECORD_HEADER + payload.length), type, payload);
    }

    private static ByteBuffer fill(ByteBuffer b, byte type, byte[] payload) {
        return b.putInt(payload.length).putInt(crc(type, payload)).put(type).put(payload).flip();
    }

    private static int crc(byte type, byte[] payload) {
        CRC32C crc = new CRC32C();
        crc.update(type);
        crc.update(payload);
        return (int) crc.getValue();
    }

    private static void readFully(FileChannel channel, ByteBuffer into, long position) throws IOException {
        long p = position;
        while (into.hasRemaining()) {
            int n = channel.read(into, p);
            if (n < 0) {
                return;
            }
            p += n;
        }
    }

    private static void writeFully(FileChannel channel, ByteBuffer from) throws IOException {
        while (from.hasRemaining()) {
            channel.write(from);
        }
    }
}
