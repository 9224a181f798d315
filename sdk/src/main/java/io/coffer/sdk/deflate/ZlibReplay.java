package io.coffer.sdk.deflate;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.zip.Deflater;

/**
 * Re-creates a gzip object from its decompressed bytes and its {@link ZlibRecipe}: the header as it came, the bytes
 * deflated again by java.util.zip with the recipe's level, the trailer as it came. Every segment of the output is held
 * (one segment, 1 MiB by default) until its SHA-256 equals the recipe's, and only then written on: if this JDK's
 * zlib no longer deflates as the one at PUT did, the stream fails with a {@link ZlibMismatchException} and no byte
 * that differs from the original is ever written. Deflater state cannot be resumed mid-stream, so a range costs a
 * re-deflation from the start.
 */
public final class ZlibReplay {
    static final int INPUT_PIECE = 64 << 10;

    /** Writes the original object's bytes to {@code out}; returns how many. */
    public long encode(ZlibRecipe recipe, InputStream decompressed, OutputStream out) throws IOException {
        Checked checked = new Checked(recipe, out);
        checked.write(recipe.header());
        long deflated = deflate(recipe.level(), decompressed, checked::write);
        if (deflated != recipe.deflatedLength()) {
            throw checked.mismatch("the deflate stream came out " + deflated + " bytes long, not "
                    + recipe.deflatedLength());
        }
        checked.write(recipe.trailer());
        checked.finish();
        return checked.written;
    }

    /** Receives deflater output. */
    interface Sink {
        void write(byte[] b, int off, int len) throws IOException;
    }

    /**
     * Deflates {@code in} as raw deflate at {@code level} (zlib defaults otherwise) into {@code sink}, fed in fixed
     * pieces with no flush, as both the finder and the replay do; returns the deflate stream's length.
     */
    static long deflate(int level, InputStream in, Sink sink) throws IOException {
        Deflater d = new Deflater(level, true);
        byte[] input = new byte[INPUT_PIECE];
        byte[] output = new byte[INPUT_PIECE];
        long total = 0;
        try {
            for (int n = in.readNBytes(input, 0, input.length); n > 0; n = in.readNBytes(input, 0, input.length)) {
                d.setInput(input, 0, n);
                while (!d.needsInput()) {
                    int k = d.deflate(output);
                    sink.write(output, 0, k);
                    total += k;
                }
            }
            d.finish();
            while (!d.finished()) {
                int k = d.deflate(output);
                sink.write(output, 0, k);
                total += k;
            }
            return total;
        } finally {
            d.end();
        }
    }

    /** Buffers one segment, compares its hash, then passes it on. */
    private static final class Checked {
        private final ZlibRecipe recipe;
        private final OutputStream out;
        private final byte[] segment;
        private final MessageDigest sha256;
        private int filled;
        private int index;
        private long written;

        Checked(ZlibRecipe recipe, OutputStream out) {
            this.recipe = recipe;
            this.out = out;
            this.segment = new byte[(int) Math.min(recipe.segmentSize(), recipe.size())];
            try {
                this.sha256 = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every JDK has SHA-256", e);
            }
        }

        void write(byte[] b) throws IOException {
            write(b, 0, b.length);
        }

        void write(byte[] b, int off, int len) throws IOException {
            while (len > 0) {
                if (written + filled + len > recipe.size()) {
                    throw mismatch("the re-deflated object is longer than the original's " + recipe.size() + " bytes");
                }
                int n = Math.min(len, segment.length - filled);
                System.arraycopy(b, off, segment, filled, n);
                filled += n;
                off += n;
                len -= n;
                if (filled == segment.length) {
                    flushSegment();
                }
            }
        }

        void finish() throws IOException {
            if (filled > 0) {
                flushSegment();
            }
            if (written != recipe.size()) {
                throw mismatch("the re-deflated object has " + written + " bytes, not " + recipe.size());
            }
        }

        private void flushSegment() throws IOException {
            sha256.update(segment, 0, filled);
            if (!MessageDigest.isEqual(sha256.digest(), recipe.segmentHash(index))) {
                throw mismatch("segment " + index + " (bytes from " + written + ") differs from the original");
            }
            out.write(segment, 0, filled);
            written += filled;
            filled = 0;
            index++;
        }

        ZlibMismatchException mismatch(String what) {
            return new ZlibMismatchException("re-deflating at level " + recipe.level() + " with " + ZlibIdentity.current()
                    + " does not reproduce the object stored with " + recipe.zlib() + ": " + what
                    + "; nothing past the last matching segment was written (see docs/OPERATIONS.md, "
                    + "\"Layer objects whose zlib changed\")");
        }
    }
}
