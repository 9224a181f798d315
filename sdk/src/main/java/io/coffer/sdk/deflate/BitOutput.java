package io.coffer.sdk.deflate;

import java.io.IOException;
import java.io.OutputStream;

/** Writes a deflate bit stream least-significant bit first, and whole bytes once aligned, through a fixed buffer. */
final class BitOutput {
    private final OutputStream out;
    private final byte[] buf = new byte[64 * 1024];
    private int pos;
    private long bits;
    private int count;
    private long written;

    BitOutput(OutputStream out) {
        this.out = out;
    }

    /** Appends the low {@code n} (at most 32) bits of {@code value}. */
    void write(int value, int n) throws IOException {
        bits |= (value & ((1L << n) - 1)) << count;
        count += n;
        if (count >= 32) {
            if (pos + 4 > buf.length) {
                flushBuffer();
            }
            buf[pos] = (byte) bits;
            buf[pos + 1] = (byte) (bits >>> 8);
            buf[pos + 2] = (byte) (bits >>> 16);
            buf[pos + 3] = (byte) (bits >>> 24);
            pos += 4;
            bits >>>= 32;
            count -= 32;
        }
    }

    int bitsToByteBoundary() {
        return (8 - (count & 7)) & 7;
    }

    /** Appends a whole byte; the output must be aligned. */
    void writeByte(int b) throws IOException {
        if ((count & 7) != 0) {
            throw new IllegalStateException("output not byte-aligned");
        }
        write(b, 8);
    }

    void writeBytes(byte[] b, int off, int len) throws IOException {
        for (int i = 0; i < len; i++) {
            writeByte(b[off + i] & 0xFF);
        }
    }

    /** Total bytes written, counting a partly filled last byte. */
    long bytesWritten() {
        return written + pos + (count + 7) / 8;
    }

    /** Writes out every whole byte; a partial byte stays buffered. */
    private void drain() throws IOException {
        while (count >= 8) {
            if (pos == buf.length) {
                flushBuffer();
            }
            buf[pos++] = (byte) bits;
            bits >>>= 8;
            count -= 8;
        }
        flushBuffer();
    }

    private void flushBuffer() throws IOException {
        out.write(buf, 0, pos);
        written += pos;
        pos = 0;
    }

    /** Writes everything out; the output must be aligned. */
    void flush() throws IOException {
        if ((count & 7) != 0) {
            throw new IllegalStateException("output not byte-aligned");
        }
        drain();
        out.flush();
    }
}
