package io.coffer.sdk.deflate;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes the token stream of the partially decoded form, one byte encoding for one token so that equal content gives
 * equal bytes (docs/FORMAT.md, "Partially decoded gzip"): a literal is its own byte, except the escape byte
 * {@code 0xFE}, which is written {@code FE 00}; an end of block is {@code FE 01}; a match of length L at distance D
 * is {@code FE, 0x80 | (D-1) >> 8, (D-1) & 0xFF, L-3}.
 */
final class TokenWriter {
    static final int ESCAPE = 0xFE;
    static final int ESCAPED_LITERAL = 0x00;
    static final int END_OF_BLOCK = 0x01;
    static final int MATCH_FLAG = 0x80;

    private final OutputStream out;
    private final byte[] buf = new byte[64 * 1024];
    private int pos;
    private long written;

    TokenWriter(OutputStream out) {
        this.out = out;
    }

    void literal(int b) throws IOException {
        if (pos + 2 > buf.length) {
            drain();
        }
        if (b == ESCAPE) {
            buf[pos++] = (byte) ESCAPE;
            buf[pos++] = ESCAPED_LITERAL;
        } else {
            buf[pos++] = (byte) b;
        }
    }

    void match(int length, int distance) throws IOException {
        if (pos + 4 > buf.length) {
            drain();
        }
        int d = distance - 1;
        buf[pos++] = (byte) ESCAPE;
        buf[pos++] = (byte) (MATCH_FLAG | d >>> 8);
        buf[pos++] = (byte) d;
        buf[pos++] = (byte) (length - 3);
    }

    void endOfBlock() throws IOException {
        if (pos + 2 > buf.length) {
            drain();
        }
        buf[pos++] = (byte) ESCAPE;
        buf[pos++] = END_OF_BLOCK;
    }

    long bytesWritten() {
        return written + pos;
    }

    private void drain() throws IOException {
        out.write(buf, 0, pos);
        written += pos;
        pos = 0;
    }

    void flush() throws IOException {
        drain();
        out.flush();
    }
}
