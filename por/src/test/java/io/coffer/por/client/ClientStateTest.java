package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.checksum.Checksum;
import io.coffer.por.code.LogState;
import io.coffer.por.merkle.MerkleTree;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientStateTest {
    private final ClientState state = new ClientState(4096, 4, new LogState(16, 12345, 7), 3,
            Checksum.of(new int[] {1, 2, 3, 4, 5}), HonestServerTest.MASTER_KEY, MerkleTree.emptyRoot(1 << 20));

    @Test
    void theEncodingRoundTripsAndIsSmallAndIndependentOfN() {
        byte[] bytes = state.toBytes();
        assertThat(bytes).hasSize(ClientState.BYTES).hasSize(119);
        assertThat(ClientState.fromBytes(bytes)).isEqualTo(state);
        ClientState windowed = state.withWindow(true);
        assertThat(ClientState.fromBytes(windowed.toBytes())).isEqualTo(windowed).isNotEqualTo(state);
        ClientState small = ClientState.empty(4096, 3, 0, HonestServerTest.MASTER_KEY, MerkleTree.emptyRoot(8));
        assertThat(small.toBytes()).hasSize(ClientState.BYTES);
    }

    @Test
    void aFlippedBitOrAWrongLengthIsRefused() {
        byte[] bytes = state.toBytes();
        for (int i = 0; i < bytes.length; i++) {
            byte[] altered = bytes.clone();
            altered[i] ^= 0x20;
            assertThatThrownBy(() -> ClientState.fromBytes(altered)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> ClientState.fromBytes(new byte[117])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aVersionTwoStateWithoutTheFlagsByteReadsAsAnEpochWithoutAWindow() {
        byte[] v3 = state.toBytes();
        byte[] v2 = Arrays.copyOf(v3, ClientState.BYTES_V2);
        v2[4] = 2;
        CRC32C crc = new CRC32C();
        crc.update(v2, 0, v2.length - 4);
        ByteBuffer.wrap(v2, v2.length - 4, 4).putInt((int) crc.getValue());
        ClientState read = ClientState.fromBytes(v2);
        assertThat(read).isEqualTo(state);
        assertThat(read.window()).isFalse();
        v2[4] = 3; // a version-3 state of the version-2 length
        assertThatThrownBy(() -> ClientState.fromBytes(v2)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theFileIsReplacedWholeAndReadBack(@TempDir Path dir) throws Exception {
        ClientStateFile file = new ClientStateFile(dir.resolve("por-state"));
        file.save(state);
        ClientState next = state.with(new LogState(16, 12346, 7), 0, Checksum.zero(), new byte[32]);
        file.save(next);
        assertThat(file.load()).isEqualTo(next);
        assertThat(Files.list(dir)).containsExactly(dir.resolve("por-state"));
        if (Files.getFileStore(dir).supportsFileAttributeView("posix")) { // it holds the master key
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("por-state"))))
                    .isEqualTo("rw-------");
        }
        Files.write(dir.resolve("por-state"), new byte[10]);
        assertThatThrownBy(file::load).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void toStringNeverShowsTheKey() {
        assertThat(state.toString()).doesNotContain("masterKey").contains("4096");
    }
}
