package io.coffer.sdk.deflate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The PUT-time check: reproducible objects are reported so, everything else "not reproducible, store as is". */
class ReproducibilityVerifierTest {
    @TempDir
    Path dir;

    private Verdict verify(byte[] gzip) throws IOException {
        return new ReproducibilityVerifier().verify(new ByteArrayInputStream(gzip), dir.resolve("tokens"),
                dir.resolve("side"));
    }

    @Test
    void aGzipObjectIsReproducibleAndItsPartiallyDecodedFormIsLeftInTheFiles() throws IOException {
        byte[] data = JavaZipRoundTripTest.corpus(150_000, 8);
        byte[] gzip = Gzip.member(data, 6);
        Verdict v = verify(gzip);
        assertThat(v.reproducible()).isTrue();
        assertThat(v.toString()).isEqualTo("reproducible");
        assertThat(v.summary().compressedBytes()).isEqualTo(gzip.length);
        assertThat(Files.size(dir.resolve("tokens"))).isEqualTo(v.summary().tokenBytes());
        ByteArrayOutputStream back = new ByteArrayOutputStream();
        try (InputStream t = Files.newInputStream(dir.resolve("tokens"));
             InputStream s = Files.newInputStream(dir.resolve("side"))) {
            new PartialEncoder().encode(t, s, back);
        }
        assertThat(back.toByteArray()).isEqualTo(gzip);
    }

    @Test
    void somethingThatIsNotGzipIsNotReproducibleAndIsReadToItsEnd() throws IOException {
        byte[] junk = new byte[300_000];
        new java.util.Random(1).nextBytes(junk);
        CountingInput in = new CountingInput(junk);
        Verdict v = new ReproducibilityVerifier().verify(in, dir.resolve("t"), dir.resolve("s"));
        assertThat(v.reproducible()).isFalse();
        assertThat(v.reason()).startsWith("not reproducible, store as is: ").contains("not a gzip stream");
        assertThat(in.read).as("bytes a tee of the input sees").isEqualTo(junk.length);
    }

    @Test
    void aStreamTheEncoderCannotReproduceIsNotReproducible() throws IOException {
        byte[] data = new byte[259];
        Arrays.fill(data, (byte) 'a');
        Gzip.Bits bits = new Gzip.Bits().put(1, 1).put(1, 2).fixedSymbol('a').fixedSymbol(284).put(31, 5)
                .fixedDistance(0).fixedSymbol(256);
        byte[] gzip = Gzip.concat(Gzip.member(Gzip.plainHeader(), bits.bytes(), data), new byte[100_000]);
        CountingInput in = new CountingInput(gzip);
        Verdict v = new ReproducibilityVerifier().verify(in, dir.resolve("t"), dir.resolve("s"));
        assertThat(v.reproducible()).isFalse();
        assertThat(v.reason()).contains("non-canonical");
        assertThat(in.read).isEqualTo(gzip.length);
    }

    @Test
    void aTruncatedGzipIsNotReproducible() throws IOException {
        byte[] gzip = Gzip.member(JavaZipRoundTripTest.corpus(50_000, 2), 9);
        Verdict v = verify(Arrays.copyOf(gzip, gzip.length - 3));
        assertThat(v.reproducible()).isFalse();
        assertThat(v.reason()).contains("truncated");
        assertThat(v.summary()).isNull();
    }

    /** An input stream that counts what was read from it, as a tee would see it. */
    private static final class CountingInput extends ByteArrayInputStream {
        long read;

        CountingInput(byte[] b) {
            super(b);
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) {
            int n = super.read(b, off, len);
            read += Math.max(0, n);
            return n;
        }

        @Override
        public synchronized int read() {
            int n = super.read();
            read += n >= 0 ? 1 : 0;
            return n;
        }
    }
}
