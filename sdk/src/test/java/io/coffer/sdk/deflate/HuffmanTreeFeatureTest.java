package io.coffer.sdk.deflate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The layer feature is the first dynamic block's literal/length code lengths, else the fixed code's, else zeros. */
class HuffmanTreeFeatureTest {

    @Test
    void theFeatureIsTheFirstDynamicBlocksCompleteLiteralLengthCode() throws IOException {
        byte[] data = JavaZipRoundTripTest.corpus(200_000, 4);
        HuffmanTreeFeature f = RoundTrip.assertExact(Gzip.member(data, 6)).summary.feature();
        assertThat(f.source()).isEqualTo(HuffmanTreeFeature.Source.FIRST_DYNAMIC_BLOCK);
        int[] lengths = f.lengths();
        assertThat(lengths).hasSize(286);
        assertThat(lengths[256]).as("end of block").isPositive();
        double kraft = 0;
        for (int len : lengths) {
            kraft += len == 0 ? 0 : Math.pow(2, -len);
        }
        assertThat(kraft).as("Kraft sum of a complete code").isEqualTo(1.0);
        assertThat(f.toBytes()).hasSize(286);
    }

    @Test
    void theSameLayerGivesTheSameFeatureAndADifferentOneADifferentFeature() throws IOException {
        byte[] a = JavaZipRoundTripTest.corpus(200_000, 4);
        byte[] b = new byte[200_000];
        new java.util.Random(3).nextBytes(b);
        HuffmanTreeFeature fa = RoundTrip.assertExact(Gzip.member(a, 6)).summary.feature();
        HuffmanTreeFeature fa2 = RoundTrip.assertExact(Gzip.concat(Gzip.member(a, 6), Gzip.member(b, 6)))
                .summary.feature();
        HuffmanTreeFeature fb = RoundTrip.assertExact(Gzip.member(b, 6)).summary.feature();
        assertThat(fa2).isEqualTo(fa).hasSameHashCodeAs(fa);
        assertThat(fb).isNotEqualTo(fa);
    }

    @Test
    void aLayerWithFixedBlocksOnlyGivesTheFixedCodeLengths() throws IOException {
        HuffmanTreeFeature f = RoundTrip.assertExact(Gzip.member("short".getBytes(), 6)).summary.feature();
        assertThat(f.source()).isEqualTo(HuffmanTreeFeature.Source.FIXED_CODE);
        int[] lengths = f.lengths();
        assertThat(lengths[0]).isEqualTo(8);
        assertThat(lengths[200]).isEqualTo(9);
        assertThat(lengths[256]).isEqualTo(7);
        assertThat(lengths[285]).isEqualTo(8);
    }

    @Test
    void theFeatureAloneIsReadFromTheStreamsHeadOnly() throws IOException {
        byte[] gzip = Gzip.member(JavaZipRoundTripTest.corpus(2_000_000, 6), 6);
        HuffmanTreeFeature full = RoundTrip.assertExact(gzip).summary.feature();
        java.util.concurrent.atomic.AtomicLong read = new java.util.concurrent.atomic.AtomicLong();
        java.io.InputStream in = new java.io.FilterInputStream(new java.io.ByteArrayInputStream(gzip)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, Math.min(len, 4096));
                read.addAndGet(Math.max(0, n));
                return n;
            }
        };
        assertThat(new PartialDecoder().feature(in)).isEqualTo(full);
        assertThat(read.get()).as("bytes read of %d", gzip.length).isLessThan(gzip.length / 10);
        byte[] fixedOnly = Gzip.concat(Gzip.member("short".getBytes(), 6), new byte[] {1, 2, 3});
        assertThat(new PartialDecoder().feature(new java.io.ByteArrayInputStream(fixedOnly)))
                .isEqualTo(RoundTrip.assertExact(fixedOnly).summary.feature());
    }
}
