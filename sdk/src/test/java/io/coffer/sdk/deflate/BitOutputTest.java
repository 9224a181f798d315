package io.coffer.sdk.deflate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BitOutputTest {

    /** Random fields of 1-32 bits with byte runs between them, as a deflate stream mixes them. */
    private static byte[] written(int bufferBytes) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BitOutput out = new BitOutput(bytes, bufferBytes);
        Random r = new Random(11);
        for (int i = 0; i < 5000; i++) {
            int n = 1 + r.nextInt(32);
            out.write(r.nextInt(), n);
            if (i % 97 == 0) {
                out.write(0, out.bitsToByteBoundary());
                byte[] run = new byte[r.nextInt(40)];
                r.nextBytes(run);
                out.writeBytes(run, 0, run.length);
            }
        }
        assertThat(out.bytesWritten()).isPositive();
        out.write(0, out.bitsToByteBoundary());
        out.flush();
        return bytes.toByteArray();
    }

    @Test
    void anyBufferSizeWritesTheSameBytes() throws IOException {
        byte[] large = written(64 * 1024);
        assertThat(large).hasSizeGreaterThan(10_000);
        assertThat(written(8)).isEqualTo(large);
        assertThat(written(13)).isEqualTo(large);
        assertThat(written(DynamicHeader.MAX_BITS / 8 + 16)).isEqualTo(large);
    }

    @Test
    void aBufferTooSmallForOneStoreIsRejected() {
        assertThatThrownBy(() -> new BitOutput(new ByteArrayOutputStream(), 7))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 8");
    }
}
