package io.coffer.por.store;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PoR server's journal as segments {@code journal-<seq>} (16 decimal digits, ascending) in its directory, each a
 * {@link ServerJournal} that begins with a checkpoint. Records are appended to the newest; a checkpoint starts the
 * next segment, and the older ones are deleted once no checkpoint's window needs them ({@link #startSegment}), so no
 * record is ever written twice. A crash while a segment is made leaves it whole or absent, and one after it leaves
 * older segments that the next open deletes ({@link #deleteBefore}).
 */
final class SegmentedJournal implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentedJournal.class);
    static final String PREFIX = "journal-";
    /** The former journal: one file, rewritten at each checkpoint. */
    static final String FORMER = "journal";

    private final Path dir;
    private final int maxRecordBytes;
    private final TreeSet<Long> segments;
    private ServerJournal current;

    private SegmentedJournal(Path dir, int maxRecordBytes, TreeSet<Long> segments, ServerJournal current) {
        this.dir = dir;
        this.maxRecordBytes = maxRecordBytes;
        this.segments = segments;
        this.current = current;
    }

    /**
     * Opens the journal in {@code dir} and returns the newest segment's records in {@code into} (a torn last record
     * cut off). With no segment: a former journal ({@link #FORMER}) becomes segment 1, its first record (the
     * checkpoint) mapped by {@code formerCheckpoint}, and the former file is deleted; with neither, segment 1 holds
     * {@code initial}.
     */
    static SegmentedJournal open(Path dir, int maxRecordBytes, List<ServerJournal.Entry> into,
            List<ServerJournal.Entry> initial, UnaryOperator<ServerJournal.Entry> formerCheckpoint)
            throws IOException {
        TreeSet<Long> segments = list(dir);
        Path former = dir.resolve(FORMER);
        if (segments.isEmpty()) {
            List<ServerJournal.Entry> first = initial;
            if (Files.exists(former)) {
                List<ServerJournal.Entry> entries = new ArrayList<>();
                ServerJournal.open(former, maxRecordBytes, entries, List.of(), ServerJournal.FORMER_MAGIC).close();
                if (entries.isEmpty()) {
                    throw new IOException("PoR journal " + former + " has lost its checkpoint: the directory is"
                            + " damaged");
                }
                entries.set(0, formerCheckpoint.apply(entries.get(0)));
                first = entries;
                LOG.info("PoR journal {}: converted to segments (docs/FORMAT.md)", former);
            }
            ServerJournal.create(dir.resolve(name(1)), first);
            segments.add(1L);
        }
        if (Files.deleteIfExists(former)) {
            Durable.forceDirectory(dir);
        }
        long newest = segments.last();
        ServerJournal current = ServerJournal.open(dir.resolve(name(newest)), maxRecordBytes, into, List.of());
        return new SegmentedJournal(dir, maxRecordBytes, segments, current);
    }

    /** The file name of segment {@code seq}. */
    static String name(long seq) {
        return PREFIX + String.format("%016d", seq);
    }

    private static TreeSet<Long> list(Path dir) throws IOException {
        TreeSet<Long> out = new TreeSet<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, PREFIX + "*")) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                String digits = name.substring(PREFIX.length());
                if (name.endsWith(".tmp")) {
                    Files.delete(file); // a segment a crash interrupted before its rename
                } else if (digits.length() == 16 && digits.chars().allMatch(Character::isDigit)) {
                    out.add(Long.parseLong(digits));
                }
            }
        }
        return out;
    }

    /** The newest segment's number: the one appended to. */
    long currentSegment() {
        return segments.last();
    }

    /** Whether segment {@code seq} is in the directory. */
    boolean has(long seq) {
        return segments.contains(seq);
    }

    /** The records of older segment {@code seq}, refused if it is cut short or damaged. */
    List<ServerJournal.Entry> read(long seq) throws IOException {
        List<ServerJournal.Entry> entries = new ArrayList<>();
        ServerJournal.readWhole(dir.resolve(name(seq)), ServerJournal.MAGIC, maxRecordBytes, entries);
        return entries;
    }

    void append(byte type, byte[] payload, boolean force) throws IOException {
        current.append(type, payload, force);
    }

    void force() throws IOException {
        current.force();
    }

    /**
     * Begins segment {@link #currentSegment()} + 1 with {@code checkpoint} (forced and in place before it returns),
     * appends go there from now, then deletes the segments before {@code keepFrom}.
     */
    void startSegment(ServerJournal.Entry checkpoint, long keepFrom) throws IOException {
        long next = segments.last() + 1;
        ServerJournal.create(dir.resolve(name(next)), List.of(checkpoint));
        current.close();
        segments.add(next);
        current = ServerJournal.open(dir.resolve(name(next)), maxRecordBytes, new ArrayList<>(), List.of());
        deleteBefore(keepFrom);
    }

    /** Deletes the segments before {@code seq}: outside the newest checkpoint's window. */
    void deleteBefore(long seq) throws IOException {
        while (!segments.isEmpty() && segments.first() < seq) {
            Files.deleteIfExists(dir.resolve(name(segments.pollFirst())));
        }
    }

    /** Bytes in all segments. */
    long size() throws IOException {
        long total = 0;
        for (long seq : segments) {
            total += Files.size(dir.resolve(name(seq)));
        }
        return total;
    }

    @Override
    public void close() throws IOException {
        current.close();
    }
}
