package io.coffer.por.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.code.Part;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The in-process server's side of the client's paced part: REBUILD_C_PACED only when C is due, U's checksums of the
 * epoch's end served whatever the window's writes, the next C's checksums taken by range inside [0, n) and only in a
 * window opened without them, and the add that would switch refused until every position has them.
 */
class ClientPartServerTest {
    private static final int K = 6;
    private static final int N = 1 << K;

    private static byte[] sealed(int tag) {
        byte[] s = new byte[ChecksumSealer.SEALED_BYTES];
        Arrays.fill(s, (byte) tag);
        return s;
    }

    private static byte[][] sealedRange(int count, int tag) {
        byte[][] out = new byte[count][];
        Arrays.fill(out, sealed(tag));
        return out;
    }

    /** A server at the end of its first full epoch: every index written once with a checksum tagged by its index. */
    private static MemoryPorServer atTheEpochsEnd() {
        MemoryPorServer server = new MemoryPorServer(K, 16);
        server.rebuildC(PacedWindowWorkTest.sealedC(K));
        for (int add = 1; add <= N; add++) {
            server.write(add - 1, new byte[16], sealed(add - 1), PacedWindowWorkTest.written(K, add));
        }
        return server;
    }

    @Test
    void theSnapshotIsUAtTheEpochsEndWhateverTheWindowsWrites() {
        MemoryPorServer server = atTheEpochsEnd();
        assertThat(server.pacesClientPart()).isTrue();
        assertThatThrownBy(() -> server.snapshotSealedU(0, 1)).isInstanceOf(IllegalArgumentException.class);
        server.rebuildCPaced();
        server.write(5, new byte[16], sealed(99), PacedWindowWorkTest.written(K, 1));
        server.write(5, new byte[16], sealed(98), PacedWindowWorkTest.written(K, 2));
        List<byte[]> snapshot = server.snapshotSealedU(0, N);
        for (int i = 0; i < N; i++) {
            assertThat(snapshot.get(i)).as("index %d", i).isEqualTo(sealed(i));
        }
        assertThat(server.leaf(5).sealedChecksum()).isEqualTo(sealed(98));
        assertThat(server.snapshotSealedU(5, 1).get(0)).isEqualTo(sealed(5));
    }

    @Test
    void rangesOutsideUMalformedChecksumsAndAWindowWithCsChecksumsAreRefused() {
        MemoryPorServer server = atTheEpochsEnd();
        assertThatThrownBy(() -> server.putNextSealedC(0, sealedRange(1, 1), sealedRange(1, 1)))
                .isInstanceOf(IllegalArgumentException.class); // no window
        server.rebuildCPaced();
        assertThat(server.storage().windowTakesClientPart()).isTrue(); // what a durable storage's reopen resumes
        assertThatThrownBy(server::rebuildCPaced).isInstanceOf(IllegalArgumentException.class); // not due
        for (int[] bad : new int[][] {{-1, 1}, {N, 1}, {N - 1, 2}, {0, 0}}) {
            assertThatThrownBy(() -> server.snapshotSealedU(bad[0], bad[1])).isInstanceOf(
                    IllegalArgumentException.class);
            if (bad[1] > 0) {
                assertThatThrownBy(() -> server.putNextSealedC(bad[0], sealedRange(bad[1], 1), sealedRange(bad[1], 1)))
                        .isInstanceOf(IllegalArgumentException.class);
            }
        }
        assertThatThrownBy(() -> server.putNextSealedC(0, sealedRange(2, 1), sealedRange(1, 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> server.putNextSealedC(0, new byte[][] {new byte[3]}, sealedRange(1, 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Arrays.asList(server.storage().nextSealedC()[0])).containsOnlyNulls();

        MemoryPorServer withC = atTheEpochsEnd();
        withC.rebuildC(PacedWindowWorkTest.sealedC(K)); // a window whose next C's checksums came at the epoch's end
        assertThat(withC.storage().windowTakesClientPart()).isFalse();
        assertThatThrownBy(() -> withC.snapshotSealedU(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> withC.putNextSealedC(0, sealedRange(1, 1), sealedRange(1, 1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theSwitchingAddIsRefusedUntilEveryPositionHasItsChecksumsAndThenInstallsThem() {
        MemoryPorServer server = atTheEpochsEnd();
        server.rebuildCPaced();
        int switching = (int) PacedCRebuild.stepsToComplete(K);
        for (int add = 1; add < switching; add++) {
            server.write(add % N, new byte[16], sealed(1), PacedWindowWorkTest.written(K, add));
        }
        server.putNextSealedC(0, sealedRange(N - 1, 7), sealedRange(N - 1, 8));
        assertThatThrownBy(() -> server.write(0, new byte[16], sealed(1), PacedWindowWorkTest.written(K, switching)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs all its sealed checksums");
        assertThat(server.state().t()).isEqualTo(switching - 1); // the refused write changed nothing
        assertThat(server.windowProgress()).isNotNull();
        server.putNextSealedC(N - 1, sealedRange(1, 7), sealedRange(1, 8));
        server.write(0, new byte[16], sealed(1), PacedWindowWorkTest.written(K, switching));
        assertThat(server.windowProgress()).isNull(); // switched
        assertThat(server.storage().windowTakesClientPart()).isFalse();
        assertThat(Arrays.asList(server.storage().sealedC(Part.X))).allSatisfy(s -> assertThat(s).isEqualTo(sealed(7)));
        assertThat(Arrays.asList(server.storage().sealedC(Part.Y))).allSatisfy(s -> assertThat(s).isEqualTo(sealed(8)));
    }
}
