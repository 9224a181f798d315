package io.coffer.por.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.DeamortizedSchedule;
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

    /** Well-formed sealed checksums for the {@code size} vectors add {@code count} writes (opaque to the server). */
    private static SealedVectors written(int count, int size) {
        SealedLevel parts = level(0, size);
        return new SealedVectors(count, parts.x(), parts.y());
    }

    /** What add {@code count} of H (k - b = 3 here) writes, as the client sends it. */
    private static SealedVectors written(int count) {
        return written(count, DeamortizedSchedule.outputs(3, count).size());
    }

    private static MemoryPorServer initialised() {
        MemoryPorServer server = new MemoryPorServer(3, 16);
        server.rebuildC(level(4, 8)); // C is level k + 1 = 4, 8 vectors per part
        return server;
    }

    @Test
    void writesBeforeCIsBuiltOrWithWrongShapesAreRefused() {
        MemoryPorServer fresh = new MemoryPorServer(3, 16);
        assertThatThrownBy(() -> fresh.write(0, new byte[16], SEALED, written(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("C must be rebuilt");
        MemoryPorServer server = initialised();
        assertThatThrownBy(() -> server.write(8, new byte[16], SEALED, written(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside");
        assertThatThrownBy(() -> server.write(-1, new byte[16], SEALED, written(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> server.write(0, new byte[15], SEALED, written(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bytes");
        assertThatThrownBy(() -> server.write(0, new byte[16], new byte[47], written(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> server.write(0, new byte[16], SEALED, written(2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("add 1 writes");
        assertThatThrownBy(() -> server.write(0, new byte[16], SEALED, written(1, 3)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("add 1 writes");
        byte[][] malformed = {new byte[3]};
        assertThatThrownBy(() -> server.write(0, new byte[16], SEALED, new SealedVectors(1, malformed, malformed)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("malformed");
        assertThat(server.storage().u(0)).isNull();
        assertThat(server.leaf(0).sealedChecksum()).isNull();
        server.write(0, new byte[16], SEALED, written(1));
        assertThat(server.storage().u(0)).isEqualTo(new byte[16]);
    }

    @Test
    void withBatchingAnAddsChecksumsComeExactlyWithTheWriteOrFlushThatCompletesABatch() {
        MemoryPorServer server = new MemoryPorServer(3, 1, 16); // batches of 2: H has k - b = 2, levels 0..2
        server.rebuildC(level(4, 8));
        assertThatThrownBy(() -> server.write(0, new byte[16], SEALED, written(1, 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("makes no add");
        assertThatThrownBy(() -> server.flush(written(1, 1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("makes no add"); // nothing is pending
        server.write(0, new byte[16], SEALED, null); // pending
        assertThatThrownBy(() -> server.flush(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("required");
        assertThatThrownBy(() -> server.write(1, new byte[16], SEALED, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("required");
        server.write(1, new byte[16], SEALED, written(1, 1)); // completes the batch: H's first add
        server.flush(null); // nothing pending: nothing to send
        assertThat(server.sealedInputs(2).size()).as("add 2 merges add 1's level-0 run").isEqualTo(1);
        assertThatThrownBy(() -> server.sealedInputs(3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the next add of H is 2");
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
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no current run");
        server.write(0, new byte[16], SEALED, written(1));
        assertThat(server.audit(new AuditChallenge(List.of(BlockAddress.h(0, Part.Y, 0)), new int[] {1}))
                .sealedChecksums()).as("the level-0 run of add 1, in slot 0").hasSize(1);
        assertThatThrownBy(() -> server.audit(new AuditChallenge(List.of(BlockAddress.h(0, Part.X, 1)), new int[] {1})))
                .as("slot 1 holds no run yet").isInstanceOf(IllegalArgumentException.class);
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
    void readsInputsAndDecodesRefuseWhatIsNotThere() {
        MemoryPorServer server = initialised();
        assertThatThrownBy(() -> server.read(8)).isInstanceOf(IllegalArgumentException.class);
        assertThat(server.sealedInputs(1).size()).as("the first add reads nothing").isZero();
        assertThatThrownBy(() -> server.sealedInputs(2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> server.sealedInputs(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MemoryPorServer(3, 16).sealedInputs(1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("after a C rebuild");
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
        for (int t = 0; t < 5; t++) { // runs of levels 2 (adds 1..4) and 0 (add 5)
            blocks[t][0] = (byte) (t + 1);
            server.write(t, blocks[t], SEALED, written(t + 1));
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

        server.write(7, blocks[7], SEALED, written(6)); // H changes: the spool is dropped
        assertThatThrownBy(() -> server.decode(List.of(0))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> server.prepareDecode(List.of(8))).isInstanceOf(IllegalArgumentException.class);
    }

    /** Overwrites every code vector of both parts of {@code level} (H's: its three run slots) with random elements. */
    private static void garble(LevelStore store, int level) {
        SplittableRandom random = new SplittableRandom(level);
        int size = level == 4 ? 8 : 3 << level;
        for (Part part : Part.values()) {
            for (int i = 0; i < size; i++) {
                store.write(level, part, i, random.ints(store.width(), 0, 1 << 30).toArray());
            }
        }
    }
}
