package io.coffer.sdk.deflate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.zip.GZIPInputStream;

/** Test helper: decode partially, re-encode, and check both the bytes and what the tokens mean. */
final class RoundTrip {
    final DecodeSummary summary;
    final byte[] tokens;
    final byte[] side;
    final byte[] reencoded;

    private RoundTrip(DecodeSummary summary, byte[] tokens, byte[] side, byte[] reencoded) {
        this.summary = summary;
        this.tokens = tokens;
        this.side = side;
        this.reencoded = reencoded;
    }

    static RoundTrip of(byte[] gzip) throws IOException {
        ByteArrayOutputStream tokens = new ByteArrayOutputStream();
        ByteArrayOutputStream side = new ByteArrayOutputStream();
        DecodeSummary summary = new PartialDecoder().decode(new ByteArrayInputStream(gzip), tokens, side);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long n = new PartialEncoder().encode(new ByteArrayInputStream(tokens.toByteArray()),
                new ByteArrayInputStream(side.toByteArray()), out);
        assertThat(n).isEqualTo(out.size());
        return new RoundTrip(summary, tokens.toByteArray(), side.toByteArray(), out.toByteArray());
    }

    /** Asserts the round trip is bit-exact, and that the tokens expand to what java.util.zip decompresses. */
    static RoundTrip assertExact(byte[] gzip) throws IOException {
        RoundTrip rt = of(gzip);
        assertSameBytes(rt.reencoded, gzip);
        assertThat(rt.summary.compressedBytes()).isEqualTo(gzip.length);
        assertThat(rt.summary.tokenBytes()).isEqualTo(rt.tokens.length);
        assertThat(rt.summary.sideInfoBytes()).isEqualTo(rt.side.length);
        return rt;
    }

    /** Equal bytes, or a failure naming the first differing offset (whole arrays are too long to print). */
    static void assertSameBytes(byte[] actual, byte[] expected) {
        int mismatch = java.util.Arrays.mismatch(actual, expected);
        assertThat(mismatch).as("first offset where the re-encoded gzip (" + actual.length
                + " bytes) differs from the original (" + expected.length + " bytes)").isEqualTo(-1);
    }

    /** Asserts the tokens expand (LZ77) to {@code expected}. */
    RoundTrip assertTokensExpandTo(byte[] expected) throws IOException {
        byte[] expanded = expand(tokens);
        assertThat(expanded).as("tokens expanded").isEqualTo(expected);
        assertThat(summary.uncompressedBytes()).isEqualTo(expected.length);
        return this;
    }

    /** Asserts the tokens expand to what GZIPInputStream reads from the gzip (all members). */
    RoundTrip assertTokensMatchGunzip(byte[] gzip) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
            return assertTokensExpandTo(in.readAllBytes());
        }
    }

    /** LZ77 expansion of a token stream; matches copy from the output so far (end-of-block markers ignored). */
    static byte[] expand(byte[] tokens) throws IOException {
        TokenReader reader = new TokenReader(new ByteArrayInputStream(tokens));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[0];
        int size = 0;
        for (int t = reader.next(); t != TokenReader.END_OF_STREAM; t = reader.next()) {
            if (t == TokenReader.END_OF_BLOCK) {
                continue;
            }
            if (size + 258 > buf.length) {
                buf = java.util.Arrays.copyOf(buf, Math.max(1024, buf.length * 2));
            }
            if (t < 256) {
                buf[size++] = (byte) t;
            } else {
                int len = t >>> 16;
                int dist = t & 0xFFFF;
                for (int i = 0; i < len; i++, size++) {
                    buf[size] = buf[size - dist];
                }
            }
        }
        out.write(buf, 0, size);
        return out.toByteArray();
    }
}
