package io.coffer.sdk.deflate;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Reads a deflate bit stream least-significant bit first (RFC 1951 §3.1.1), and whole bytes once aligned. Bits are
 * held in a 64-bit buffer refilled from a fixed byte buffer, so memory is bounded whatever the input's size. Reading
 * past the end of the input is a {@link DeflateFormatException} ("truncated").
 *
 * <p>Refilling loads 8 bytes at once where 8 remain in the buffer (as libdeflate does): the bit buffer then holds, above
 * {@code count}, some bits of the next unconsumed byte. They are that byte's true bits, so OR-ing the byte in again
 * later changes nothing; reading a byte straight from the buffer clears them first.
 */
final class BitInput {
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final InputStream in;
    private final byte[] buf;
    private int pos;
    private int lim;
    private boolean eof;
    private long bits;
    private int count;
    private long bytesFromStream;

    BitInput(InputStream in) {
        this(in, new byte[64 * 1024], 0, 0);
    }

    /** Reads only the given bytes (a recorded dynamic header). */
    BitInput(byte[] bytes, int length) {
        this(InputStream.nullInputStream(), bytes, 0, length);
        this.bytesFromStream = length;
    }

    private BitInput(InputStream in, byte[] buf, int pos, int lim) {
        this.in = in;
        this.buf = buf;
        this.pos = pos;
        this.lim = lim;
    }

    /** Tops the bit buffer up to at least 57 bits where input remains. */
    private void refill() throws IOException {
        if (count <= 56 && lim - pos >= 8) {
            bits |= (long) LONG_LE.get(buf, pos) << count;
            int loaded = (63 - count) >>> 3;
            pos += loaded;
            count += loaded << 3;
            return;
        }
        while (count <= 56) {
            if (pos == lim && !fill()) {
                return;
            }
            bits |= (long) (buf[pos++] & 0xFF) << count;
            count += 8;
        }
    }

    private boolean fill() throws IOException {
        if (eof) {
            return false;
        }
        int n = in.read(buf, 0, buf.length);
        while (n == 0) {
            n = in.read(buf, 0, buf.length);
        }
        if (n < 0) {
            eof = true;
            return false;
        }
        pos = 0;
        lim = n;
        bytesFromStream += n;
        return true;
    }

    /** The next {@code n} (at most 32) bits without consuming them; bits past the end of input read as zero. */
    int peek(int n) throws IOException {
        if (count < n) {
            refill();
        }
        return (int) (bits & ((1L << n) - 1));
    }

    /** Bits available to consume without reaching past the end of the input (after a {@link #peek}). */
    int available() {
        return count;
    }

    void skip(int n) throws DeflateFormatException {
        if (n > count) {
            throw new DeflateFormatException("truncated deflate stream");
        }
        bits >>>= n;
        count -= n;
    }

    int read(int n) throws IOException {
        int v = peek(n);
        skip(n);
        return v;
    }

    /** Bits to discard to reach the next byte boundary. */
    int bitsToByteBoundary() {
        return count & 7;
    }

    /** Drops and returns the padding bits up to the next byte boundary. */
    int alignToByte() throws DeflateFormatException {
        int n = count & 7;
        int v = (int) (bits & ((1 << n) - 1));
        skip(n);
        return v;
    }

    /** The next whole byte (input must be aligned), or -1 at the end of input. */
    int readByte() throws IOException {
        if (count >= 8) {
            int v = (int) (bits & 0xFF);
            bits >>>= 8;
            count -= 8;
            return v;
        }
        if (pos == lim && !fill()) {
            return -1;
        }
        bits = 0; // count is 0 here: drop the look-ahead bits of the byte about to be consumed
        return buf[pos++] & 0xFF;
    }

    /** The next whole byte; the end of input is a truncation. */
    int readByteOrFail(String what) throws IOException {
        int b = readByte();
        if (b < 0) {
            throw new DeflateFormatException("truncated " + what);
        }
        return b;
    }

    /** The next byte without consuming it (input aligned), or -1 at the end of input. */
    int peekByte() throws IOException {
        if (count >= 8) {
            return (int) (bits & 0xFF);
        }
        if (pos == lim && !fill()) {
            return -1;
        }
        return buf[pos] & 0xFF;
    }

    /** The byte after the next one (input aligned), or -1; bytes move into the bit buffer to look ahead. */
    int peekSecondByte() throws IOException {
        refill();
        if (count < 16) {
            return -1;
        }
        return (int) ((bits >>> 8) & 0xFF);
    }

    /** Input bytes consumed so far (whole bytes; a partly read byte counts). */
    long bytesConsumed() {
        return bytesFromStream - (lim - pos) - count / 8;
    }
}
