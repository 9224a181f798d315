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
    void aVersionThreeStateWithoutTheFlagsByteReadsAsABoundEpochWithoutAWindow() {
        byte[] v4 = state.withWindow(true).toBytes();
        byte[] v3 = Arrays.copyOf(v4, ClientState.BYTES_NO_FLAGS);
        v3[4] = 3;
        CRC32C crc = new CRC32C();
        crc.update(v3, 0, v3.length - 4);
        ByteBuffer.wrap(v3, v3.length - 4, 4).putInt((int) crc.getValue());
        ClientState read = ClientState.fromBytes(v3);
        assertThat(read).isEqualTo(state);
        assertThat(read.window()).isFalse();
        assertThat(read.capacityBound()).isTrue();
        v3[4] = 4; // a version-4 state of the shorter length
        assertThatThrownBy(() -> ClientState.fromBytes(v3)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anUnboundStateWithAWindowKeepsBothFlags() {
        ClientState unboundWindow = new ClientState(4096, 4, new LogState(16, 12345, 7), 3, Checksum.zero(),
                HonestServerTest.MASTER_KEY, MerkleTree.emptyRoot(1 << 20), false, true);
        byte[] bytes = unboundWindow.toBytes();
        assertThat(bytes).hasSize(ClientState.BYTES);
        assertThat(ClientState.fromBytes(bytes)).isEqualTo(unboundWindow);
        assertThat(unboundWindow.bound().window()).isTrue();
    }

    @Test
    void theClientsPartPendingKeepsTheSnapshotsRootAsVersion5UntilItIsDone(@TempDir Path dir) {
        byte[] snapshot = MerkleTree.emptyRoot(1 << 19);
        ClientState pending = state.withClientPart(snapshot);
        byte[] bytes = pending.toBytes();
        assertThat(bytes).hasSize(ClientState.BYTES_WITH_SNAPSHOT).hasSize(151);
        assertThat(bytes[4]).isEqualTo((byte) 5);
        ClientState read = ClientState.fromBytes(bytes);
        assertThat(read).isEqualTo(pending).isNotEqualTo(pending.withClientPart(new byte[32]));
        assertThat(read.snapshotRoot()).isEqualTo(snapshot);
        assertThat(read.window()).isTrue();
        assertThat(read.clientPartPending()).isTrue();
        ClientStateFile file = new ClientStateFile(dir.resolve("por-state"));
        file.save(pending);
        assertThat(file.load()).isEqualTo(pending);

        ClientState done = pending.withClientPart(null);
        assertThat(done.toBytes()).hasSize(ClientState.BYTES);
        assertThat(done.window()).isTrue();
        assertThat(pending.withWindow(false).clientPartPending()).isFalse(); // a resync or a resize ends it

        byte[] flagWithoutRoot = done.toBytes();
        flagWithoutRoot[ClientState.BYTES - 5] |= 4;
        withCrc(flagWithoutRoot);
        assertThatThrownBy(() -> ClientState.fromBytes(flagWithoutRoot)).isInstanceOf(IllegalArgumentException.class);
        byte[] rootWithoutFlag = bytes.clone();
        rootWithoutFlag[ClientState.BYTES - 5] &= ~4;
        withCrc(rootWithoutFlag);
        assertThatThrownBy(() -> ClientState.fromBytes(rootWithoutFlag)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Rewrites the CRC-32C at the end of {@code bytes}, so that only the change made before it is refused. */
    private static void withCrc(byte[] bytes) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        java.nio.ByteBuffer.wrap(bytes).putInt(bytes.length - 4, (int) crc.getValue());
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

    @Test
    void aVersion2StateReadsAsUnboundAndIsWrittenBackAsVersion2UntilBound() {
        ClientState unbound = new ClientState(4096, 4, new LogState(16, 12345, 7), 3,
                Checksum.of(new int[] {1, 2, 3, 4, 5}), HonestServerTest.MASTER_KEY, MerkleTree.emptyRoot(1 << 20),
                false);
        byte[] bytes = unbound.toBytes();

        assertThat(bytes[4]).isEqualTo((byte) 2);
        assertThat(ClientState.fromBytes(bytes)).isEqualTo(unbound).isNotEqualTo(state);
        assertThat(ClientState.fromBytes(bytes).capacityBound()).isFalse();
        assertThat(state.toBytes()[4]).isEqualTo((byte) 4);
        assertThat(unbound.bound()).isEqualTo(state);
        assertThat(unbound.with(unbound.hLog(), 0, Checksum.zero(), unbound.root()).capacityBound()).isFalse();
    }
}
