package io.coffer.sdk.blob;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class ByteBufferInputStreamTest {

    @Test
    void readsTheRemainingBytesAndLeavesTheCallersBufferAlone() throws Exception {
        byte[] data = new byte[300];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) i;
        }
        ByteBuffer buffer = ByteBuffer.wrap(data, 10, 200).asReadOnlyBuffer();
        ByteBufferInputStream in = new ByteBufferInputStream(buffer);

        assertThat(in.available()).isEqualTo(200);
        assertThat(in.read()).isEqualTo(10);
        assertThat(in.skip(4)).isEqualTo(4);
        byte[] rest = in.readAllBytes();
        assertThat(rest).hasSize(195);
        assertThat(rest[0]).isEqualTo((byte) 15);
        assertThat(rest[194]).isEqualTo((byte) 209);
        assertThat(in.read()).isEqualTo(-1);
        assertThat(in.read(new byte[4], 0, 4)).isEqualTo(-1);
        assertThat(in.read(new byte[4], 0, 0)).isZero();
        ByteBufferInputStream marked = new ByteBufferInputStream(buffer);
        assertThat(marked.markSupported()).isTrue();
        marked.skip(50);
        marked.mark(1000);
        assertThat(marked.read()).isEqualTo(60);
        marked.reset();
        assertThat(marked.read()).isEqualTo(60);
        // a second stream over the same buffer starts again: the HTTP client may read a body twice (signing)
        assertThat(buffer.position()).isEqualTo(10);
        assertThat(new ByteBufferInputStream(buffer).readAllBytes()).hasSize(200);
    }
}
