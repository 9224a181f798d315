package io.coffer.sdk.deflate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * Malformed, cut-short and hostile gzip input is refused with a {@link DeflateFormatException} naming the fault:
 * never another exception, never unbounded output, never a round trip that gives different bytes.
 */
class HostileInputTest {
    private static final byte[] SMALL = JavaZipRoundTripTest.corpus(6_000, 77);

    private static DecodeSummary decode(byte[] gzip) throws IOException {
        return decode(gzip, DecodeLimits.DEFAULT);
    }

    private static DecodeSummary decode(byte[] gzip, DecodeLimits limits) throws IOException {
        return new PartialDecoder(limits).decode(new ByteArrayInputStream(gzip), OutputStream.nullOutputStream(),
                OutputStream.nullOutputStream());
    }

    private static byte[] fixedBlockMember(Gzip.Bits symbols, byte[] claimedData) throws IOException {
        return Gzip.member(Gzip.plainHeader(), symbols.bytes(), claimedData);
    }

    @Test
    void everyTruncationOfAStreamIsRefusedAsTruncated() throws IOException {
        byte[] gzip = Gzip.member(SMALL, 6);
        for (int len = 0; len < gzip.length; len++) {
            byte[] prefix = Arrays.copyOf(gzip, len);
            assertThatThrownBy(() -> decode(prefix)).as("prefix of %d bytes", len)
                    .isInstanceOf(DeflateFormatException.class)
                    .hasMessageMatching("(?s).*(truncated|not a gzip stream).*");
        }
    }

    @Test
    void aDistanceTooFarBackIsRefused() throws IOException {
        Gzip.Bits bits = new Gzip.Bits().put(1, 1).put(1, 2).fixedSymbol('a').fixedSymbol(257).fixedDistance(1)
                .fixedSymbol(256);
        assertThatThrownBy(() -> decode(fixedBlockMember(bits, "aaaa".getBytes())))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("too far back");
    }

    @Test
    void invalidLengthAndDistanceCodesOfTheFixedCodeAreRefused() throws IOException {
        Gzip.Bits length286 = new Gzip.Bits().put(1, 1).put(1, 2).fixedSymbol('a').fixedSymbol(286);
        assertThatThrownBy(() -> decode(fixedBlockMember(length286, new byte[0])))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("invalid literal/length code 286");
        Gzip.Bits distance30 = new Gzip.Bits().put(1, 1).put(1, 2).fixedSymbol('a').fixedSymbol(257)
                .fixedDistance(30);
        assertThatThrownBy(() -> decode(fixedBlockMember(distance30, new byte[0])))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("invalid distance code 30");
    }

    @Test
    void blockType3IsRefused() throws IOException {
        Gzip.Bits bits = new Gzip.Bits().put(1, 1).put(3, 2);
        assertThatThrownBy(() -> decode(fixedBlockMember(bits, new byte[0])))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("block type 3");
    }

    @Test
    void length258WrittenAsCode284Plus31IsRefusedThoughInflateAcceptsIt() throws IOException {
        byte[] expected = new byte[259];
        Arrays.fill(expected, (byte) 'a');
        Gzip.Bits bits = new Gzip.Bits().put(1, 1).put(1, 2).fixedSymbol('a').fixedSymbol(284).put(31, 5)
                .fixedDistance(0).fixedSymbol(256);
        byte[] gzip = fixedBlockMember(bits, expected);
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
            assertThat(in.readAllBytes()).as("what zlib's inflate makes of it").isEqualTo(expected);
        }
        assertThatThrownBy(() -> decode(gzip)).isInstanceOf(DeflateFormatException.class)
                .hasMessageContaining("non-canonical");
    }

    @Test
    void overSubscribedCodeLengthCodeIsRefused() throws IOException {
        int[] lengths = new int[19];
        Arrays.fill(lengths, 1);
        assertThatThrownBy(() -> decode(dynamicMember(lengths, 0, 0, new int[0][])))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("over-subscribed code-length code");
    }

    @Test
    void incompleteCodeLengthCodeIsRefused() throws IOException {
        int[] lengths = new int[19];
        lengths[0] = 2;
        lengths[1] = 2;
        assertThatThrownBy(() -> decode(dynamicMember(lengths, 0, 0, new int[0][])))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("incomplete code-length code");
    }

    @Test
    void incompleteLiteralLengthCodeIsRefused() throws IOException {
        // 'a' with length 1 and end of block with length 2 leave a quarter of the code space unused
        int[][] sequence = {{18, 97 - 11}, {1}, {18, 138 - 11}, {18, 20 - 11}, {2}, {1}};
        assertThatThrownBy(() -> decode(dynamicMember(fourCodes(), 0, 0, sequence)))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("incomplete literal/length code");
    }

    @Test
    void overSubscribedLiteralLengthCodeIsRefused() throws IOException {
        // 'a', 'b' and end of block all with length 1
        int[][] sequence = {{18, 97 - 11}, {1}, {1}, {18, 138 - 11}, {18, 19 - 11}, {1}, {1}};
        assertThatThrownBy(() -> decode(dynamicMember(fourCodes(), 0, 0, sequence)))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("over-subscribed literal/length code");
    }

    @Test
    void invalidCodeLengthSequencesAreRefused() throws IOException {
        int[] clLengths = new int[19];
        clLengths[16] = 1;
        clLengths[1] = 1;
        assertThatThrownBy(() -> decode(dynamicMember(clLengths, 0, 0, new int[][] {{16, 0}})))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("none before it");
        assertThatThrownBy(() -> decode(dynamicMember(fourCodes(), 0, 0,
                new int[][] {{18, 127}, {18, 127}, {18, 127}})))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("past the end");
        assertThatThrownBy(() -> decode(dynamicMember(fourCodes(), 30, 0, new int[0][])))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("too many literal/length codes");
        assertThatThrownBy(() -> decode(dynamicMember(fourCodes(), 0, 30, new int[0][])))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("too many distance codes");
        // every length zero: no end-of-block code
        assertThatThrownBy(() -> decode(dynamicMember(fourCodes(), 0, 0, new int[][] {{18, 127}, {18, 120 - 11}})))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("without an end-of-block code");
    }

    @Test
    void malformedGzipHeadersAreRefused() throws IOException {
        byte[] good = Gzip.member(SMALL, 6);
        byte[] magic = good.clone();
        magic[1] = (byte) 0x8c;
        assertThatThrownBy(() -> decode(magic)).hasMessageContaining("not a gzip stream");
        byte[] method = good.clone();
        method[2] = 7;
        assertThatThrownBy(() -> decode(method)).hasMessageContaining("method 7");
        byte[] reserved = good.clone();
        reserved[3] = (byte) 0x20;
        assertThatThrownBy(() -> decode(reserved)).hasMessageContaining("reserved flag");
        byte[] longName = Gzip.member(Gzip.header(Gzip.FNAME, null, "x".repeat(100), null),
                Gzip.rawDeflate(SMALL, 6), SMALL);
        assertThatThrownBy(() -> decode(longName, new DecodeLimits(64, 20, Long.MAX_VALUE)))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("FNAME longer than 64");
        assertThat(RoundTrip.assertExact(longName).summary.members()).isEqualTo(1);
    }

    @Test
    void randomCorruptionIsRefusedOrRoundTripsExactlyNeverAnythingElse() throws IOException {
        byte[] good = Gzip.concat(Gzip.member(SMALL, 6), Gzip.member(SMALL, 1));
        Random r = new Random(2026);
        int refused = 0;
        for (int trial = 0; trial < 3000; trial++) {
            byte[] bad = good.clone();
            int flips = 1 + r.nextInt(3);
            for (int i = 0; i < flips; i++) {
                bad[r.nextInt(bad.length)] ^= (byte) (1 << r.nextInt(8));
            }
            try {
                RoundTrip rt = RoundTrip.of(bad);
                RoundTrip.assertSameBytes(rt.reencoded, bad);
            } catch (DeflateFormatException e) {
                assertThat(e.getMessage()).isNotBlank();
                refused++;
            }
        }
        assertThat(refused).as("corruptions refused").isPositive();
    }

    @Test
    void aDecompressionBombGivesCompactTokensAndIsRefusedPastTheConfiguredBounds() throws IOException {
        long size = 128L << 20;
        byte[] bomb = zeros(size);
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
        DecodeSummary s = decode(bomb);
        long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
        assertThat(allocated).as("bytes allocated decoding %d bytes of output", size).isLessThan(8L << 20);
        assertThat(s.uncompressedBytes()).isEqualTo(size);
        assertThat(s.tokenBytes() + s.sideInfoBytes()).as("partially decoded bytes of a %d-byte bomb", bomb.length)
                .isLessThanOrEqualTo(17L * bomb.length);
        assertThatThrownBy(() -> decode(bomb, DecodeLimits.DEFAULT.withMaxUncompressed(64L << 20)))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("decompressed size exceeds");
        assertThatThrownBy(() -> decode(bomb, DecodeLimits.DEFAULT.withMaxExpansion(2)))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("expansion bound");
    }

    /** A gzip member of {@code size} zero bytes, compressed at level 9 (about 1000:1). */
    static byte[] zeros(long size) {
        Deflater d = new Deflater(9, true);
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        byte[] in = new byte[1 << 20];
        byte[] buf = new byte[64 * 1024];
        for (long done = 0; done < size; done += in.length) {
            d.setInput(in);
            while (!d.needsInput()) {
                raw.write(buf, 0, d.deflate(buf));
            }
        }
        d.finish();
        while (!d.finished()) {
            raw.write(buf, 0, d.deflate(buf));
        }
        d.end();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(Gzip.plainHeader());
        out.writeBytes(raw.toByteArray());
        out.writeBytes(new byte[] {0, 0, 0, 0});
        JavaZipRoundTripTest.writeIntLe(out, (int) size);
        return out.toByteArray();
    }

    /** Code-length code with symbols 0, 1, 2 and 18 of length 2 each (complete). */
    private static int[] fourCodes() {
        int[] lengths = new int[19];
        lengths[0] = 2;
        lengths[1] = 2;
        lengths[2] = 2;
        lengths[18] = 2;
        return lengths;
    }

    /**
     * A gzip member with one final dynamic block whose header is written as given: the code-length code lengths
     * (all 19 sent), HLIT and HDIST, and a sequence of code-length symbols each with its extra bits; no data follows.
     */
    private static byte[] dynamicMember(int[] codeLengthLengths, int hlit, int hdist, int[][] sequence)
            throws IOException {
        Gzip.Bits bits = new Gzip.Bits().put(1, 1).put(2, 2).put(hlit, 5).put(hdist, 5).put(15, 4);
        for (int i = 0; i < 19; i++) {
            bits.put(codeLengthLengths[DeflateTables.CODE_LENGTH_ORDER[i]], 3);
        }
        HuffmanCode code = codeOrNull(codeLengthLengths);
        for (int[] step : sequence) {
            bits.symbol(code, step[0]);
            if (step[0] >= 16) {
                bits.put(step[1], step[0] == 16 ? 2 : step[0] == 17 ? 3 : 7);
            }
        }
        bits.put(0, 32);
        return Gzip.member(Gzip.plainHeader(), bits.bytes(), new byte[0]);
    }

    /** The code for writing the sequence; a set the decoder must refuse is written with nothing after it. */
    private static HuffmanCode codeOrNull(int[] lengths) {
        try {
            return HuffmanCode.of(lengths, 19, HuffmanCode.Kind.CODE_LENGTHS);
        } catch (DeflateFormatException e) {
            return null;
        }
    }
}
