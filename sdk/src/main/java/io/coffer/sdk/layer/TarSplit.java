package io.coffer.sdk.layer;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A layer's decompressed tar split into two streams stored one after the other (docs/FORMAT.md "Zlib recipes",
 * version 2): the <b>metadata</b> (every 512-byte header, and the data of pax and GNU long-name members, which is
 * metadata too) and the <b>bodies</b> (the other members' data with its padding, then whatever follows the last
 * member: end-of-archive zeros, trailing bytes, or all of it when the bytes are not tar). Successive versions of a
 * tarball rewrite every header (mtimes, pax times) while most files stay equal: kept apart, the headers compress
 * together and the bodies deduplicate with no header among them, and neither needs a sub-chunk (a manifest entry)
 * per member. {@link #join} reverses {@link #split} exactly, reading both streams forward once.
 */
public final class TarSplit {
    private static final int BUFFER = 64 << 10;

    private TarSplit() {
    }

    /**
     * Writes {@code tar}'s metadata stream followed by its bodies stream to {@code out} (created or replaced); returns
     * the metadata stream's length (0 when {@code tar} does not start with a tar header: {@code out} is then a copy).
     */
    public static long split(Path tar, Path out) throws IOException {
        long total = Files.size(tar);
        Path bodies = Files.createTempFile(out.toAbsolutePath().getParent(), "coffer-tar-", ".bodies");
        try {
            long metadata = 0;
            try (InputStream in = new BufferedInputStream(Files.newInputStream(tar), BUFFER);
                 OutputStream meta = new BufferedOutputStream(Files.newOutputStream(out), BUFFER);
                 OutputStream body = new BufferedOutputStream(Files.newOutputStream(bodies), BUFFER)) {
                byte[] header = new byte[TarHeaders.BLOCK];
                byte[] buffer = new byte[BUFFER];
                long position = 0;
                while (true) {
                    int n = in.readNBytes(header, 0, header.length);
                    long data = n == header.length ? TarHeaders.memberDataLength(header, 0) : -1;
                    if (data < 0 || data > total - position - n) {
                        body.write(header, 0, n); // not a member (or one cut short): the rest is bodies as it is
                        in.transferTo(body);
                        break;
                    }
                    meta.write(header);
                    metadata += header.length;
                    OutputStream to = isMetadata(header) ? meta : body;
                    copy(in, to, data, buffer);
                    if (to == meta) {
                        metadata += data;
                    }
                    position += header.length + data;
                }
            }
            try (InputStream in = Files.newInputStream(bodies);
                 OutputStream append = Files.newOutputStream(out, StandardOpenOption.APPEND)) {
                in.transferTo(append);
            }
            return metadata;
        } finally {
            Files.deleteIfExists(bodies);
        }
    }

    /**
     * The tar that {@link #split} split: {@code metadata} holds the metadata stream ({@code metadataLength} bytes),
     * {@code bodies} the bodies stream. The result fails with an IOException if the streams do not fit together
     * (damaged): a header that does not parse, or a stream that ends early.
     */
    public static InputStream join(InputStream metadata, long metadataLength, InputStream bodies) {
        return new Joined(metadata, metadataLength, bodies);
    }

    /** Whether a member's data belongs to the metadata stream: pax extended or global headers, GNU long names. */
    private static boolean isMetadata(byte[] header) {
        char type = TarHeaders.type(header, 0);
        return type == 'x' || type == 'g' || type == 'L' || type == 'K';
    }

    private static void copy(InputStream in, OutputStream out, long n, byte[] buf) throws IOException {
        while (n > 0) {
            int k = in.read(buf, 0, (int) Math.min(buf.length, n));
            if (k < 0) {
                throw new EOFException("the tar ended inside a member");
            }
            out.write(buf, 0, k);
            n -= k;
        }
    }

    /** Headers from the metadata stream, each followed by its data from the stream its type says. */
    private static final class Joined extends InputStream {
        private final InputStream metadata;
        private final InputStream bodies;
        private final byte[] header = new byte[TarHeaders.BLOCK];
        private long metadataLeft;
        private int headerAt = header.length;
        private InputStream source;
        private long sourceLeft;
        private boolean tail;

        Joined(InputStream metadata, long metadataLength, InputStream bodies) {
            this.metadata = metadata;
            this.metadataLeft = metadataLength;
            this.bodies = bodies;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            while (true) {
                if (headerAt < header.length) {
                    int n = Math.min(len, header.length - headerAt);
                    System.arraycopy(header, headerAt, b, off, n);
                    headerAt += n;
                    return n;
                }
                if (sourceLeft > 0) {
                    int n = source.read(b, off, (int) Math.min(len, sourceLeft));
                    if (n < 0) {
                        throw new EOFException("the split tar's " + (source == metadata ? "metadata" : "bodies")
                                + " ended inside a member");
                    }
                    sourceLeft -= n;
                    return n;
                }
                if (tail) {
                    return bodies.read(b, off, len);
                }
                if (metadataLeft == 0) {
                    tail = true;
                    continue;
                }
                nextHeader();
            }
        }

        private void nextHeader() throws IOException {
            if (metadataLeft < header.length || metadata.readNBytes(header, 0, header.length) != header.length) {
                throw new EOFException("the split tar's metadata ends inside a header");
            }
            metadataLeft -= header.length;
            long data = TarHeaders.memberDataLength(header, 0);
            if (data < 0) {
                throw new IOException("the split tar's metadata holds a damaged header");
            }
            source = isMetadata(header) ? metadata : bodies;
            if (source == metadata) {
                if (data > metadataLeft) {
                    throw new EOFException("the split tar's metadata ends inside a member");
                }
                metadataLeft -= data;
            }
            sourceLeft = data;
            headerAt = 0;
        }

        @Override
        public void close() throws IOException {
            try (metadata) {
                bodies.close();
            }
        }
    }
}
