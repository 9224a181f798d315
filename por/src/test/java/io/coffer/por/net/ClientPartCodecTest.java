package io.coffer.por.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.checksum.ChecksumSealer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The client's paced part's payloads decode to what was encoded; every range outside [0, n) is refused. */
class ClientPartCodecTest {
    private static final int N = 1 << 6;
    private final ClientPartCodec codec = new ClientPartCodec(new ServerParameters(6, 2, 40));
    private final SplittableRandom random = new SplittableRandom(3);

    private byte[] sealed() {
        byte[] b = new byte[ChecksumSealer.SEALED_BYTES];
        random.nextBytes(b);
        return b;
    }

    @Test
    void aRangeAndItsSnapshotRoundTripWithNeverWrittenPositions() {
        assertThat(codec.readRange(codec.range(10, 54))).isEqualTo(new ClientPartCodec.Range(10, 54));
        List<byte[]> snapshot = new ArrayList<>(Arrays.asList(sealed(), null, sealed()));
        List<byte[]> read = codec.readSnapshot(codec.snapshot(snapshot), 3);
        assertThat(read).hasSize(3);
        assertThat(read.get(0)).isEqualTo(snapshot.get(0));
        assertThat(read.get(1)).isNull();
        assertThat(read.get(2)).isEqualTo(snapshot.get(2));
    }

    @Test
    void rangesOutsideUAndSnapshotsOfAnotherCountAreRefused() {
        for (int[] bad : new int[][] {{-1, 1}, {N, 1}, {0, 0}, {10, N - 9}, {0, -1}}) {
            byte[] payload = ByteBuffer.allocate(8).putInt(bad[0]).putInt(bad[1]).array();
            assertThatThrownBy(() -> codec.readRange(payload)).as(Arrays.toString(bad))
                    .isInstanceOf(MalformedFrameException.class);
        }
        byte[] trailing = Arrays.copyOf(codec.range(0, 1), 9);
        assertThatThrownBy(() -> codec.readRange(trailing)).isInstanceOf(MalformedFrameException.class);
        byte[] two = codec.snapshot(List.of(sealed(), sealed()));
        assertThatThrownBy(() -> codec.readSnapshot(two, 3)).isInstanceOf(MalformedFrameException.class);
        assertThatThrownBy(() -> codec.readSnapshot(Arrays.copyOf(two, two.length - 1), 2))
                .isInstanceOf(MalformedFrameException.class);
    }

    @Test
    void theNextCsSealedChecksumsRoundTripAndAreBoundedByN() {
        byte[][] x = {sealed(), sealed()};
        byte[][] y = {sealed(), sealed()};
        ClientPartCodec.NextSealed read = codec.readNextSealed(codec.nextSealed(N - 2, x, y));
        assertThat(read.from()).isEqualTo(N - 2);
        assertThat(read.x()).isDeepEqualTo(x);
        assertThat(read.y()).isDeepEqualTo(y);

        byte[] beyond = codec.nextSealed(N - 2, x, y);
        ByteBuffer.wrap(beyond).putInt(0, N - 1); // two positions from n - 1
        assertThatThrownBy(() -> codec.readNextSealed(beyond)).isInstanceOf(MalformedFrameException.class);
        byte[] whole = codec.nextSealed(0, x, y);
        assertThatThrownBy(() -> codec.readNextSealed(Arrays.copyOf(whole, whole.length - 1)))
                .isInstanceOf(MalformedFrameException.class);
        assertThatThrownBy(() -> codec.readNextSealed(Arrays.copyOf(whole, whole.length + 1)))
                .isInstanceOf(MalformedFrameException.class);
        assertThatThrownBy(() -> codec.nextSealed(0, x, new byte[][] {sealed()}))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
