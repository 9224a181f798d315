package io.coffer.sdk.deflate;

import java.io.IOException;
import java.io.InputStream;

/**
 * Reads what {@link TokenWriter} wrote, one token per call, without allocating: a literal is returned as 0..255, an
 * end of block as {@link #END_OF_BLOCK}, a match as {@code length << 16 | distance} (so at least {@code 3 << 16}),
 * the end of the stream as {@link #END_OF_STREAM}. Any other escape is malformed.
 */
final class TokenReader {
    static final int END_OF_BLOCK = 256;
    static final int END_OF_STREAM = -1;

    private final InputStream in;
    private final byte[] buf = new byte[64 * 1024];
    private int pos;
    private int lim;

    TokenReader(InputStream in) {
        this.in = in;
    }

    int next() throws IOException {
        int b = nextByte();
        if (b != TokenWriter.ESCAPE) {
            return b;
        }
        int tag = required();
        if (tag == TokenWriter.ESCAPED_LITERAL) {
            return TokenWriter.ESCAPE;
        }
        if (tag == TokenWriter.END_OF_BLOCK) {
            return END_OF_BLOCK;
        }
        if ((tag & TokenWriter.MATCH_FLAG) == 0) {
            throw new DeflateFormatException("malformed token stream: escape tag " + tag);
        }
        int distance = ((tag & 0x7F) << 8 | required()) + 1;
        int length = required() + 3;
        return length << 16 | distance;
    }

    private int nextByte() throws IOException {
        if (pos == lim) {
            int n = in.read(buf, 0, buf.length);
            while (n == 0) {
                n = in.read(buf, 0, buf.length);
            }
            if (n < 0) {
                return END_OF_STREAM;
            }
            pos = 0;
            lim = n;
        }
        return buf[pos++] & 0xFF;
    }

    private int required() throws IOException {
        int b = nextByte();
        if (b < 0) {
            throw new DeflateFormatException("token stream ends inside a token");
        }
        return b;
    }
}
