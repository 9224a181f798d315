package io.coffer.sdk.layer;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.chunk.FastCdcChunker;
import io.coffer.sdk.testing.TestData;
import io.coffer.sdk.testing.TestTar;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Tar-aware sub-chunk cuts: headers alone, data never across a header, plain FastCDC for what is not tar. */
class TarAwareCutsTest {
    private static final int CHUNK = LayerModePolicy.CHUNK_SIZE;

    @Test
    void everyHeaderIsASubChunkOfItsOwnAndDataNeverCrossesIntoTheNext() {
        byte[] tar = TestTar.of(300, 9000, 1_700_000_000L);
        List<Long> cuts = cuts(new TarAwareCuts(cdc()), tar);
        long expectedHeaders = 0;
        List<Long> headers = new ArrayList<>();
        for (long at = 0; TarAwareCuts.memberDataLength(tar, (int) at) >= 0; ) {
            headers.add(at);
            at += TarAwareCuts.BLOCK + TarAwareCuts.memberDataLength(tar, (int) at);
            expectedHeaders++;
        }
        assertThat(expectedHeaders).isEqualTo(300);
        for (long h : headers) {
            if (h > 0) {
                assertThat(cuts).as("a cut before the header at %d", h).contains(h);
            }
            assertThat(cuts).as("a cut after the header at %d", h).contains(h + TarAwareCuts.BLOCK);
        }
        assertThat(cuts.get(cuts.size() - 1)).isEqualTo(tar.length);
    }

    @Test
    void whatIsNotTarIsCutAsFastCdcCutsIt() {
        byte[] text = TestData.text(3, 1_500_000);
        FastCdcChunker plain = cdc();
        List<Long> expected = new ArrayList<>();
        long pos = 0;
        for (int start = 0; start < text.length; start += CHUNK) {
            int n = Math.min(CHUNK, text.length - start);
            for (int at = 0; at < n; ) {
                at += plain.nextCut(text, start + at, n - at);
                expected.add(pos + at);
            }
            pos += n;
        }
        assertThat(cuts(new TarAwareCuts(cdc()), text)).isEqualTo(expected);
    }

    @Test
    void aDamagedHeaderEndsTarAwarenessWithoutLosingBytes() {
        byte[] tar = TestTar.of(20, 5000, 1L);
        tar[148] ^= 1; // the first header's checksum
        List<Long> cuts = cuts(new TarAwareCuts(cdc()), tar);
        assertThat(cuts.get(0)).isNotEqualTo(TarAwareCuts.BLOCK);
        assertThat(cuts.get(cuts.size() - 1)).isEqualTo(tar.length);
    }

    private static FastCdcChunker cdc() {
        int avg = LayerModePolicy.DECOMPRESSED_SUB_CHUNK_AVERAGE;
        return new FastCdcChunker(avg / 2, avg, avg * 4);
    }

    /** The stream's cut positions (ends of sub-chunks), fed in 512 KiB chunks as the layer writer feeds it. */
    private static List<Long> cuts(TarAwareCuts cuts, byte[] data) {
        List<Long> out = new ArrayList<>();
        long pos = 0;
        for (int start = 0; start < data.length; start += CHUNK) {
            int n = Math.min(CHUNK, data.length - start);
            for (int at = 0; at < n; ) {
                int cut = cuts.nextCut(data, start + at, n - at);
                assertThat(cut).isBetween(1, n - at);
                at += cut;
                out.add(pos + at);
            }
            pos += n;
        }
        return out;
    }
}
