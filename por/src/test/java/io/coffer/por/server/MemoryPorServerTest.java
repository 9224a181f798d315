package io.coffer.por.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.LevelStore;
import io.coffer.por.code.Part;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The honest server refuses malformed calls with a clear error and without changing what it stores. */
class MemoryPorServerTest {
    private static final byte[] SEALED = new byte[ChecksumSealer.SEALED_BYTES];

    private static SealedLevel level(int level, int size) {
        byte[][] x = new byte[size][];
        byte[][] y = new byte[size][];
        for (int i = 0; i < size; i++) {
            x[i] = SEALED;
            y[i] = SEALED;
        }
        return new SealedLevel(level, x, y);
    }

    private static MemoryPorServer initialised() {
        MemoryPorServer server = new MemoryPorServer(3, 16);
        server.rebuildC(level(4, 8)); // C is level k + 1 = 4, 8 vectors per part
        return server;
    }

    @Test
    void writesBeforeCIsBuiltOrWithWrongShapesAreRefused() {
        MemoryPorServer fresh = new MemoryPorServer(3, 16);
        assertThatThrownBy(() -> fresh.write(0, new byte[16], SEALED, level(0, 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("C must be rebuilt");
        MemoryPorServer server = initialised();
        assertThatThrownBy(() -> server.write(8, new byte[16], SEALED, level(0, 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside");
        assertThatThrownBy(() -> server.write(-1, new byte[16], SEALED, level(0, 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> server.write(0, new byte[15], SEALED, level(0, 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bytes");
        assertThatThrownBy(() -> server.write(0, new byte[16], new byte[47], level(0, 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> server.write(0, new byte[16], SEALED, level(1, 2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("level 0");
        byte[][] malformed = {new byte[3]};
        assertThatThrownBy(() -> server.write(0, new byte[16], SEALED, new SealedLevel(0, malformed, malformed)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("malformed");
        assertThat(server.storage().u(0)).isNull();
        assertThat(server.leaf(0).sealedChecksum()).isNull();
        server.write(0, new byte[16], SEALED, level(0, 1));
        assertThat(server.storage().u(0)).isEqualTo(new byte[16]);
    }

    @Test
    void withBatchingLevelChecksumsComeExactlyWithTheWriteOrFlushThatCompletesABatch() {
        MemoryPorServer server = new MemoryPorServer(3, 1, 16); // batches of 2: H has k - b = 2, levels 0..2
        server.rebuildC(level(4, 8));
        assertThatThrownBy(() -> server.write(0, new byte[16], SEALED, level(0, 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no level is rebuilt");
        assertThatThrownBy(() -> server.flush(level(0, 1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no level is rebuilt"); // nothing is pending
        server.write(0, new byte[16], SEALED, null); // pending
        assertThatThrownBy(() -> server.flush(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("required");
        assertThatThrownBy(() -> server.write(1, new byte[16], SEALED, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("required");
        server.write(1, new byte[16], SEALED, level(0, 1)); // completes the batch: H level 0
        server.flush(null); // nothing pending: nothing to send
        assertThat(server.sealedLevel(0).partSize()).isEqualTo(1);
        assertThatThrownBy(() -> server.sealedLevel(3)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void cIsRebuiltOnlyWhenDue() {
        MemoryPorServer server = initialised();
        assertThatThrownBy(() -> server.rebuildC(level(4, 8))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("after every 8 H adds");
        assertThatThrownBy(() -> new MemoryPorServer(3, 16).rebuildC(level(4, 4)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void auditsOfEmptyLevelsOrOutOfRangeAddressesAreRefused() {
        MemoryPorServer server = initialised();
        assertThatThrownBy(() -> server.audit(new AuditChallenge(List.of(BlockAddress.h(2, Part.X, 0)), new int[] {1})))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty");
        assertThatThrownBy(() -> server.audit(new AuditChallenge(List.of(BlockAddress.c(Part.Y, 8)), new int[] {1})))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("out of range");
        assertThatThrownBy(() -> server.audit(new AuditChallenge(List.of(BlockAddress.u(0)), new int[] {1})))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> server.audit(new AuditChallenge(List.of(BlockAddress.h(9, Part.X, 0)), new int[] {1})))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(server.audit(new AuditChallenge(List.of(BlockAddress.c(Part.Y, 7)), new int[] {1}))
                .sealedChecksums()).hasSize(1);
    }

    @Test
    void readsLevelsAndDecodesRefuseWhatIsNotThere() {
        MemoryPorServer server = initialised();
        assertThatThrownBy(() -> server.read(8)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> server.sealedLevel(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> server.sealedLevel(5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> server.decode(List.of(8))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MemoryPorServer(3, 16).decode(List.of(0)))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> server.restore(0, new byte[17])).isInstanceOf(IllegalArgumentException.class);
        assertThat(server.read(3).block()).isEqualTo(new byte[16]);
    }

    @Test
    void aPreparedDecodeAnswersFromItsSpoolUntilTheNextWrite() {
        MemoryPorServer server = initialised();
        byte[][] blocks = new byte[8][16];
        for (int t = 0; t < 5; t++) { // levels 0 and 2 of H filled
            blocks[t][0] = (byte) (t + 1);
            int level = Integer.numberOfTrailingZeros(~t);
            server.write(t, blocks[t], SEALED, level(level, 1 << level));
        }
        server.prepareDecode(List.of(6, 0, 1, 2, 3, 4, 0));
        assertThat(server.decode(List.of(5)).get(0).block()).as("not prepared: decoded now").isEqualTo(blocks[5]);

        garble(server.storage().hVectors(), 0);
        garble(server.storage().hVectors(), 2);
        garble(server.storage().cVectors(), 4);
        List<ProvenBlock> decoded = server.decode(List.of(4, 0, 6, 2));
        assertThat(decoded).extracting(ProvenBlock::index).containsExactly(4, 0, 6, 2);
        assertThat(decoded).extracting(ProvenBlock::block).containsExactly(blocks[4], blocks[0], blocks[6], blocks[2]);
        assertThatThrownBy(() -> server.decode(List.of(5))).as("not prepared: decoded from the garbled levels")
                .isInstanceOf(IllegalArgumentException.class);

        server.write(7, blocks[7], SEALED, level(1, 2)); // H changes: the spool is dropped
        assertThatThrownBy(() -> server.decode(List.of(0))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> server.prepareDecode(List.of(8))).isInstanceOf(IllegalArgumentException.class);
    }

    /** Overwrites every code vector of both parts of {@code level} with random elements. */
    private static void garble(LevelStore store, int level) {
        SplittableRandom random = new SplittableRandom(level);
        int size = level == 4 ? 8 : 1 << level;
        for (Part part : Part.values()) {
            for (int i = 0; i < size; i++) {
                store.write(level, part, i, random.ints(store.width(), 0, 1 << 30).toArray());
            }
        }
    }
}
