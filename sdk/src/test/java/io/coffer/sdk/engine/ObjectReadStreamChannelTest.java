package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.ByteRange;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.testing.TestData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A chunked object's stream is also a channel (the gateway reads it into direct buffers): same bytes either way. */
class ObjectReadStreamChannelTest {
    private static final int SIZE = 5 << 20;

    @TempDir
    Path dir;

    @Test
    void readsIntoDirectBuffersMixedWithArrayReadsGiveTheObjectsBytes() throws Exception {
        byte[] expected = TestData.stream(21, SIZE).readAllBytes();
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            e.coffer.putObject(PutObjectRequest.of("bkt", "k", SIZE), TestData.stream(21, SIZE));

            assertThat(readMixed(e, null)).isEqualTo(expected);
            assertThat(readMixed(e, ByteRange.of(1_000_003, 3_500_000)))
                    .isEqualTo(Arrays.copyOfRange(expected, 1_000_003, 3_500_001));

            try (ObjectContent c = e.coffer.getObject("bkt", "k")) {
                ReadableByteChannel channel = (ReadableByteChannel) c.stream();
                assertThat(channel.read(ByteBuffer.allocateDirect(0))).isZero();
                assertThat(channel.isOpen()).isTrue();
                c.close();
                assertThat(channel.isOpen()).isFalse();
                assertThatThrownBy(() -> channel.read(ByteBuffer.allocate(10))).isInstanceOf(IOException.class);
            }
        }
    }

    /** Alternates channel reads into a direct buffer of odd size with array reads, until -1. */
    private static byte[] readMixed(TestEngine e, ByteRange range) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ObjectContent c = e.coffer.getObject("bkt", "k", range)) {
            ReadableByteChannel channel = (ReadableByteChannel) c.stream();
            ByteBuffer direct = ByteBuffer.allocateDirect(70_001);
            byte[] array = new byte[33_333];
            for (int i = 0; ; i++) {
                int n;
                if (i % 2 == 0) {
                    direct.clear();
                    n = channel.read(direct);
                    if (n > 0) {
                        direct.flip();
                        byte[] got = new byte[n];
                        direct.get(got);
                        out.write(got);
                    }
                } else {
                    n = c.stream().read(array, 0, array.length);
                    if (n > 0) {
                        out.write(array, 0, n);
                    }
                }
                if (n < 0) {
                    break;
                }
            }
        }
        return out.toByteArray();
    }
}
