package io.coffer.sdk.deflate;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Writes a deflate bit stream least-significant bit first, and whole bytes once aligned, through a fixed buffer. The bit
 * buffer holds {@code count} bits with zeros above them.
 */
final class BitOutput {
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final OutputStream out;
    private final byte[] buf;
    private int pos;
    private long bits;
    private int count;
    private long written;

    BitOutput(OutputStream out) {
        this(out, 64 * 1024);
    }

    /**
     * A writer whose buffer has {@code bufferBytes} (at least 8: a store writes 8 bytes at once); a small record (a
     * dynamic block's header, once per block) need not allocate and zero 64 KiB.
     */
    BitOutput(OutputStream out, int bufferBytes) {
        if (bufferBytes < 8) {
            throw new IllegalArgumentException("a bit output buffer needs at least 8 bytes, not " + bufferBytes);
        }
        this.out = out;
        this.buf = new byte[bufferBytes];
    }

    /** Appends the low {@code n} (at most 32) bits of {@code value}. */
    void write(int value, int n) throws IOException {
        bits |= (value & ((1L << n) - 1)) << count;
        count += n;
        if (count >= 32) {
            if (pos + 8 > buf.length) {
                flushBuffer();
            }
            // stores all 8 bytes, keeps the whole ones: the rest is overwritten by the next store
            LONG_LE.set(buf, pos, bits);
            int whole = count >>> 3;
            pos += whole;
            bits >>>= whole << 3;
            count &= 7;
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
