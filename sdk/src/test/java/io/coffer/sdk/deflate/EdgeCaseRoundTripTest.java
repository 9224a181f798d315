package io.coffer.sdk.deflate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** Bit-exact round trips of the gzip and deflate features encoders rarely use, built by hand. */
class EdgeCaseRoundTripTest {
    private static final byte[] TEXT = "partially decoded space, partially decoded space, \u00fe\u00fe and more text"
            .getBytes(StandardCharsets.ISO_8859_1);

    @Test
    void headerFieldsFtextFextraFnameFcommentAndFhcrcComeBackAsTheyWere() throws IOException {
        byte[] extra = {'A', 'p', 4, 0, 1, 2, 3, 4};
        byte[] header = Gzip.header(Gzip.FTEXT | Gzip.FHCRC | Gzip.FEXTRA | Gzip.FNAME | Gzip.FCOMMENT, extra,
                "layer.tar", "a comment");
        byte[] gzip = Gzip.member(header, Gzip.rawDeflate(TEXT, 6), TEXT);
        RoundTrip.assertExact(gzip).assertTokensMatchGunzip(gzip);
    }

    @Test
    void smallInputGivesAFixedHuffmanBlockThatRoundTrips() throws IOException {
        byte[] gzip = Gzip.member(TEXT, 6);
        RoundTrip rt = RoundTrip.assertExact(gzip).assertTokensMatchGunzip(gzip);
        assertThat(rt.summary.fixedBlocks()).isEqualTo(1);
        assertThat(rt.summary.feature().source()).isEqualTo(HuffmanTreeFeature.Source.FIXED_CODE);
    }

    @Test
    void storedBlocksAndTheEscapeByteRoundTrip() throws IOException {
        byte[] data = new byte[70_000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i % 7 == 0 ? 0xFE : i);
        }
        byte[] gzip = Gzip.member(data, 0);
        RoundTrip rt = RoundTrip.assertExact(gzip).assertTokensExpandTo(data);
        assertThat(rt.summary.storedBlocks()).isGreaterThanOrEqualTo(2);
        assertThat(rt.summary.feature().source()).isEqualTo(HuffmanTreeFeature.Source.NONE);
        assertThat(rt.summary.feature().lengths()).containsOnly(0);
    }

    @Test
    void emptyMembersRoundTrip() throws IOException {
        ByteArrayOutputStream empty = new ByteArrayOutputStream();
        new GZIPOutputStream(empty).close();
        byte[] storedEmpty = Gzip.member(new byte[0], 0);
        RoundTrip rt = RoundTrip.assertExact(empty.toByteArray());
        assertThat(rt.summary.uncompressedBytes()).isZero();
        assertThat(RoundTrip.assertExact(storedEmpty).summary.storedBlocks()).isEqualTo(1);
    }

    @Test
    void concatenatedMembersIncludingEmptyOnesRoundTrip() throws IOException {
        byte[] gzip = Gzip.concat(Gzip.member(TEXT, 9), Gzip.member(new byte[0], 6), Gzip.member(TEXT, 1),
                Gzip.member(JavaZipRoundTripTest.corpus(50_000, 3), 0));
        RoundTrip rt = RoundTrip.assertExact(gzip).assertTokensMatchGunzip(gzip);
        assertThat(rt.summary.members()).isEqualTo(4);
    }

    @Test
    void trailingZerosAndGarbageAfterTheLastMemberAreKept() throws IOException {
        byte[] garbage = new byte[200_000];
        new java.util.Random(5).nextBytes(garbage);
        garbage[0] = 0x1f; // a first byte of the magic alone does not start a member
        byte[] gzip = Gzip.concat(Gzip.member(TEXT, 6), new byte[1024], garbage);
        RoundTrip rt = RoundTrip.assertExact(gzip);
        assertThat(rt.summary.trailingBytes()).isEqualTo(1024 + garbage.length);
        assertThat(rt.summary.members()).isEqualTo(1);
    }

    @Test
    void nonZeroPaddingBitsInStoredBlocksAndAtTheEndRoundTrip() throws IOException {
        byte[] data = {1, 2, (byte) 0xFE, 3};
        Gzip.Bits bits = new Gzip.Bits();
        bits.put(0, 1).put(0, 2).align(0b10101); // stored block, padding 10101
        bits.put(data.length, 16).put(~data.length & 0xFFFF, 16);
        for (byte b : data) {
            bits.put(b & 0xFF, 8);
        }
        bits.put(1, 1).put(1, 2); // final fixed block
        bits.fixedSymbol('x').fixedSymbol(256).align(0b11);
        byte[] all = {1, 2, (byte) 0xFE, 3, 'x'};
        byte[] gzip = Gzip.member(Gzip.plainHeader(), bits.bytes(), all);
        RoundTrip.assertExact(gzip).assertTokensMatchGunzip(gzip);
    }

    @Test
    void emptyStoredBlocksFromRepeatedFlushesRoundTrip() throws IOException {
        Deflater d = new Deflater(6, true);
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        d.setInput(TEXT);
        for (int i = 0; i < 5; i++) {
            raw.write(buf, 0, d.deflate(buf, 0, buf.length, i % 2 == 0 ? Deflater.SYNC_FLUSH : Deflater.FULL_FLUSH));
        }
        d.finish();
        while (!d.finished()) {
            raw.write(buf, 0, d.deflate(buf));
        }
        d.end();
        byte[] gzip = Gzip.member(Gzip.plainHeader(), raw.toByteArray(), TEXT);
        RoundTrip rt = RoundTrip.assertExact(gzip).assertTokensMatchGunzip(gzip);
        assertThat(rt.summary.storedBlocks()).as("empty stored blocks of the flushes").isGreaterThanOrEqualTo(2);
    }

    @Test
    void equalContentGivesEqualTokensWhateverTheHeader() throws IOException {
        byte[] data = JavaZipRoundTripTest.corpus(100_000, 9);
        byte[] deflate = Gzip.rawDeflate(data, 6);
        RoundTrip a = RoundTrip.assertExact(Gzip.member(Gzip.plainHeader(), deflate, data));
        RoundTrip b = RoundTrip.assertExact(Gzip.member(Gzip.header(Gzip.FNAME, null, "v2.tar", null), deflate, data));
        assertThat(a.tokens).isEqualTo(b.tokens);
        assertThat(a.side).isNotEqualTo(b.side);
    }

    @Test
    void literalsAppearAsTheirOwnBytesAndTheEscapeByteIsDoubled() throws IOException {
        byte[] data = {'a', 'b', (byte) 0xFE, 'c'};
        RoundTrip rt = RoundTrip.assertExact(Gzip.member(data, 0));
        assertThat(rt.tokens).containsExactly('a', 'b', 0xFE, 0x00, 'c');
    }
}
