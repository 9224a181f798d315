package io.coffer.sdk.deflate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Bit-exact round trips of what java.util.zip writes: every level and strategy, with flushes in the middle. */
class JavaZipRoundTripTest {

    /** Text-like data with repeats near and far, some random bytes, zero runs and the token escape byte. */
    static byte[] corpus(int size, long seed) {
        Random r = new Random(seed);
        String[] words = {"coffer ", "layer ", "deflate ", "huffman ", "token\n", "\u00fe", "tar ", "0000000 "};
        ByteArrayOutputStream out = new ByteArrayOutputStream(size);
        while (out.size() < size) {
            int kind = r.nextInt(10);
            if (kind < 6) {
                out.writeBytes(words[r.nextInt(words.length)].getBytes(StandardCharsets.UTF_8));
            } else if (kind < 8) {
                byte[] b = new byte[r.nextInt(64)];
                r.nextBytes(b);
                out.writeBytes(b);
            } else if (kind == 8) {
                out.writeBytes(new byte[r.nextInt(600)]);
            } else {
                out.write(0xFE);
            }
        }
        return java.util.Arrays.copyOf(out.toByteArray(), size);
    }

    static java.util.stream.Stream<int[]> levelsAndStrategies() {
        java.util.List<int[]> cases = new java.util.ArrayList<>();
        for (int level = 0; level <= 9; level++) {
            for (int strategy : new int[] {Deflater.DEFAULT_STRATEGY, Deflater.FILTERED, Deflater.HUFFMAN_ONLY}) {
                cases.add(new int[] {level, strategy});
            }
        }
        return cases.stream();
    }

    @ParameterizedTest
    @MethodSource("levelsAndStrategies")
    void deflaterOutputAtEveryLevelAndStrategyRoundTripsBitExactly(int[] levelAndStrategy) throws IOException {
        byte[] data = corpus(300_000, levelAndStrategy[0] * 7L + levelAndStrategy[1]);
        byte[] gzip = gzipWithFlushes(data, levelAndStrategy[0], levelAndStrategy[1]);
        RoundTrip.assertExact(gzip).assertTokensExpandTo(data);
    }

    @Test
    void gzipOutputStreamRoundTripsAndKeepsLiteralRunsAsTheirOwnBytes() throws IOException {
        byte[] data = corpus(200_000, 42);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write(data);
        }
        RoundTrip rt = RoundTrip.assertExact(bytes.toByteArray()).assertTokensMatchGunzip(bytes.toByteArray());
        String tokens = new String(rt.tokens, StandardCharsets.ISO_8859_1);
        assertThat(tokens).contains("coffer ");
        assertThat(rt.summary.members()).isEqualTo(1);
        assertThat(rt.summary.dynamicBlocks()).isPositive();
        assertThat(rt.summary.feature().source()).isEqualTo(HuffmanTreeFeature.Source.FIRST_DYNAMIC_BLOCK);
    }

    /**
     * A gzip member written by hand around Deflater output, so that SYNC_FLUSH and FULL_FLUSH land in the middle of
     * the stream (empty stored blocks, byte alignment, a reset window), and NO_COMPRESSION gives stored blocks.
     */
    static byte[] gzipWithFlushes(byte[] data, int level, int strategy) {
        Deflater deflater = new Deflater(level, true);
        deflater.setStrategy(strategy);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff});
        byte[] buf = new byte[8192];
        int third = data.length / 3;
        int[][] pieces = {{0, third, Deflater.SYNC_FLUSH}, {third, third, Deflater.FULL_FLUSH},
            {2 * third, data.length - 2 * third, Deflater.NO_FLUSH}};
        for (int[] piece : pieces) {
            deflater.setInput(data, piece[0], piece[1]);
            int n;
            do {
                n = deflater.deflate(buf, 0, buf.length, piece[2]);
                out.write(buf, 0, n);
            } while (n > 0 || !deflater.needsInput());
        }
        deflater.finish();
        while (!deflater.finished()) {
            int n = deflater.deflate(buf);
            out.write(buf, 0, n);
        }
        deflater.end();
        CRC32 crc = new CRC32();
        crc.update(data);
        writeIntLe(out, (int) crc.getValue());
        writeIntLe(out, data.length);
        return out.toByteArray();
    }

    static void writeIntLe(ByteArrayOutputStream out, int v) {
        out.write(v);
        out.write(v >>> 8);
        out.write(v >>> 16);
        out.write(v >>> 24);
    }
}
