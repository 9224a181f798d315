package io.coffer.sdk.deflate;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Optional;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Finds whether a gzip object is the JDK's zlib output for its own decompressed bytes (SimEnc's decompressed space
 * made exact without reconstruction data beyond a few bytes, as preflate does where the encoder can be modelled):
 * decompresses the one member to a file, then deflates that again at each level, the ones the header's XFL suggests
 * first (zlib writes XFL 2 for level 9, 4 for level 1, 0 otherwise; java.util.zip's GZIPOutputStream always 0), and
 * compares with the original deflate stream byte for byte, stopping at the first difference (a few bytes into the
 * stream for another level; up to a few MB for an encoder that is almost zlib, as with the dev dataset's three-*.tgz). A single member with nothing after its trailer only; anything else, a malformed stream, or
 * more decompressed bytes than the limits allow (a decompression bomb), has no recipe. Memory: fixed buffers.
 */
public final class ZlibRecipeFinder {
    /** Segments of 1 MiB: 32 bytes of hash per MiB of object, one MiB held by a replay. */
    public static final int DEFAULT_SEGMENT_SIZE = 1 << 20;
    private static final int[] LEVELS_XFL_MAX = {9, 8, 7, 6, 5, 4, 3, 2, 1};
    private static final int[] LEVELS_XFL_FAST = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    private static final int[] LEVELS_OTHER = {6, 5, 4, 3, 2, 7, 8, 9, 1};
    private static final int XFL_OFFSET = 8;

    private final DecodeLimits limits;
    private final int segmentSize;

    public ZlibRecipeFinder() {
        this(DecodeLimits.DEFAULT, DEFAULT_SEGMENT_SIZE);
    }

    public ZlibRecipeFinder(DecodeLimits limits, int segmentSize) {
        this.limits = limits;
        this.segmentSize = segmentSize;
    }

    /**
     * The recipe that re-creates {@code original} ({@code size} bytes) from what it writes to {@code decompressed}, or
     * empty when no level reproduces it (the file's contents are then meaningless). IOExceptions are the files'.
     */
    public Optional<ZlibRecipe> find(Path original, long size, Path decompressed) throws IOException {
        byte[] header;
        try (InputStream in = Files.newInputStream(original)) {
            header = GzipHeader.read(new BitInput(in), limits.maxStringBytes());
        } catch (DeflateFormatException e) {
            return Optional.empty();
        }
        long deflated = inflate(original, header.length, size, decompressed);
        if (deflated < 0 || header.length + deflated + 8 != size) {
            return Optional.empty(); // not deflate, too large, or more members or bytes after the trailer
        }
        byte[] trailer = readAt(original, header.length + deflated, 8);
        for (int level : levelsFor(header[XFL_OFFSET] & 0xff)) {
            if (reproduces(level, original, header.length, deflated, decompressed)) {
                return Optional.of(new ZlibRecipe(header, level, deflated, trailer, ZlibIdentity.current(),
                        segmentSize, segmentHashes(original)));
            }
        }
        return Optional.empty();
    }

    private static int[] levelsFor(int xfl) {
        return xfl == 2 ? LEVELS_XFL_MAX : xfl == 4 ? LEVELS_XFL_FAST : LEVELS_OTHER;
    }

    /** Inflates the member's deflate stream into {@code out}; its compressed length, or -1 if it has none in bounds. */
    private long inflate(Path original, long offset, long size, Path out) throws IOException {
        long max = (long) Math.min(limits.maxUncompressed(),
                limits.maxExpansion() * size + DecodeLimits.EXPANSION_ALLOWANCE);
        Inflater inf = new Inflater(true);
        byte[] input = new byte[ZlibReplay.INPUT_PIECE];
        byte[] output = new byte[ZlibReplay.INPUT_PIECE];
        long produced = 0;
        try (InputStream in = Files.newInputStream(original); OutputStream o = Files.newOutputStream(out)) {
            in.skipNBytes(offset);
            while (!inf.finished()) {
                if (inf.needsInput()) {
                    int n = in.read(input);
                    if (n < 0) {
                        return -1; // truncated
                    }
                    inf.setInput(input, 0, n);
                }
                int k = inf.inflate(output);
                if (k == 0 && (inf.needsDictionary() || !inf.needsInput() && !inf.finished())) {
                    return -1; // a dictionary raw deflate cannot have, or no progress: never loop on it
                }
                produced += k;
                if (produced > max) {
                    return -1;
                }
                o.write(output, 0, k);
            }
            return inf.getBytesRead();
        } catch (DataFormatException e) {
            return -1;
        } finally {
            inf.end();
        }
    }

    /** Whether deflating {@code decompressed} at {@code level} gives exactly the original's deflate stream. */
    private static boolean reproduces(int level, Path original, long offset, long deflated, Path decompressed)
            throws IOException {
        try (InputStream expected = new BufferedInputStream(Files.newInputStream(original), ZlibReplay.INPUT_PIECE);
             InputStream data = Files.newInputStream(decompressed)) {
            expected.skipNBytes(offset);
            Comparing sink = new Comparing(expected, deflated);
            try {
                return ZlibReplay.deflate(level, data, sink) == deflated;
            } catch (Differs d) {
                return false;
            }
        }
    }

    private byte[] segmentHashes(Path original) throws IOException {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
        java.io.ByteArrayOutputStream hashes = new java.io.ByteArrayOutputStream();
        byte[] segment = new byte[segmentSize];
        try (InputStream in = Files.newInputStream(original)) {
            for (int n = in.readNBytes(segment, 0, segment.length); n > 0;
                 n = in.readNBytes(segment, 0, segment.length)) {
                sha256.update(segment, 0, n);
                hashes.write(sha256.digest());
            }
        }
        return hashes.toByteArray();
    }

    private static byte[] readAt(Path file, long position, int n) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(n);
            while (b.hasRemaining()) {
                if (ch.read(b, position + b.position()) < 0) {
                    throw new IOException(file + " ended early");
                }
            }
            return b.array();
        }
    }

    /** Thrown (without a stack trace) at the first byte that differs, to stop deflating. */
    private static final class Differs extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Differs() {
            super("differs", null, false, false);
        }
    }

    /** Compares deflater output with the original's deflate stream. */
    private static final class Comparing implements ZlibReplay.Sink {
        private final InputStream expected;
        private final long length;
        private final byte[] buf = new byte[ZlibReplay.INPUT_PIECE];
        private long seen;

        Comparing(InputStream expected, long length) {
            this.expected = expected;
            this.length = length;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (seen + len > length) {
                throw new Differs();
            }
            while (len > 0) {
                int n = expected.readNBytes(buf, 0, Math.min(len, buf.length));
                if (n <= 0 || Arrays.mismatch(b, off, off + n, buf, 0, n) >= 0) {
                    throw new Differs();
                }
                off += n;
                len -= n;
                seen += n;
            }
        }
    }
}
