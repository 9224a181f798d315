package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.PorVerificationException;
import io.coffer.por.audit.AuditVerdict;
import io.coffer.por.checksum.ChecksumKey;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.DeamortizedSchedule;
import io.coffer.por.code.LogRun;
import io.coffer.por.code.LogState;
import io.coffer.por.code.MemoryLevelStore;
import io.coffer.por.code.Part;
import io.coffer.por.field.Segments;
import io.coffer.por.field.Zp;
import io.coffer.por.server.MemoryPorServer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Write batching (section 6.1): 2^b blocks per H add, checked like single writes and cheaper on the wire. */
class BatchedWritesTest {
    private static final int BLOCK = 32;

    private final SplittableRandom random = new SplittableRandom(5);

    private byte[] randomBlock() {
        byte[] b = new byte[BLOCK];
        random.nextBytes(b);
        return b;
    }

    private static PorClient client(MemoryPorServer server) {
        return PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
    }

    @Test
    void anHonestServerPassesEveryAuditOverRandomBatchedWritesAndFlushes() {
        int k = 9;
        MemoryPorServer server = new MemoryPorServer(k, 3, BLOCK);
        PorClient client = client(server);
        byte[][] expected = new byte[1 << k][];
        for (int op = 1; op <= 3_000; op++) {
            int index = random.nextInt(3) == 0 ? random.nextInt(8) : random.nextInt(1 << k);
            byte[] block = random.nextInt(10) == 0 ? new byte[BLOCK] : randomBlock();
            client.write(index, block);
            expected[index] = block;
            if (op % 97 == 0) {
                client.flush(); // a partial batch, padded
            }
            if (op % 150 == 0) {
                AuditVerdict verdict = client.audit();
                assertThat(verdict.passed()).as("after %d writes: %s", op, verdict.reason()).isTrue();
            }
        }
        for (int i = 0; i < 1 << k; i++) {
            assertThat(client.read(i)).isEqualTo(expected[i] == null ? new byte[BLOCK] : expected[i]);
        }
        assertThat(client.state().hLog().epoch()).isGreaterThan(5);
    }

    /**
     * Checksums taken before the index is known ({@link PorClient#prepare}, the tag left zero) and completed with the
     * tag's columns at the write must be the full products: the pending batch's checksum after every write equals a
     * plain-writing client's, reads verify under M and audits of H pass. A block prepared for another batch slot than
     * the one it lands in is checksummed afresh.
     */
    @Test
    void preparedWritesEqualPlainWritesInEveryBatchSlotAndWhenTheSlotDiffers() {
        int k = 8;
        MemoryPorServer plainServer = new MemoryPorServer(k, 2, BLOCK);
        MemoryPorServer preparedServer = new MemoryPorServer(k, 2, BLOCK);
        PorClient plain = client(plainServer);
        PorClient prepared = client(preparedServer);
        byte[][] expected = new byte[1 << k][];
        for (int op = 0; op < 600; op++) {
            int index = random.nextInt(1 << k);
            byte[] block = random.nextInt(8) == 0 ? new byte[BLOCK] : randomBlock();
            int slot = op % 5 == 0 ? (prepared.state().pending() + 1) % prepared.batchSlots()
                    : prepared.state().pending();
            plain.write(index, block);
            prepared.write(index, prepared.prepare(block.clone(), slot));
            expected[index] = block;
            assertThat(prepared.state().pendingChecksum()).as("op %d", op).isEqualTo(plain.state().pendingChecksum());
            if (op % 41 == 0) {
                plain.flush();
                prepared.flush();
            }
        }
        prepared.flush();
        AuditVerdict verdict = prepared.audit();
        assertThat(verdict.passed()).as(verdict.reason()).isTrue();
        for (int i = 0; i < 1 << k; i++) {
            assertThat(prepared.read(i)).isEqualTo(expected[i] == null ? new byte[BLOCK] : expected[i]);
        }
        assertThatThrownBy(() -> prepared.prepare(randomBlock(), prepared.batchSlots()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> prepared.prepare(new byte[BLOCK + 1], 0)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Zero blocks (deletes) take their checksums from the tag's columns of M and M_H instead of the full products:
     * the values must be the same, or reads of them (checked against the sealed checksum under M) and audits of H
     * (under M_H, at every position of a batch) would fail.
     */
    @Test
    void zeroBlocksAtEveryBatchPositionReadBackVerifiedAndPassAudits() {
        int k = 8;
        MemoryPorServer server = new MemoryPorServer(k, 2, BLOCK);
        PorClient client = client(server);
        for (int i = 0; i < 1 << k; i++) {
            client.write(i, randomBlock());
        }
        for (int round = 0; round < 12; round++) {
            for (int position = 0; position < 4; position++) {
                client.write(random.nextInt(1 << k), position == round % 4 ? randomBlock() : new byte[BLOCK]);
            }
            AuditVerdict verdict = client.audit();
            assertThat(verdict.passed()).as("round %d: %s", round, verdict.reason()).isTrue();
        }
        client.write(7, new byte[BLOCK]);
        client.flush(); // a partial batch: the zero block at position 0, padding after it
        assertThat(client.audit().passed()).isTrue();
        assertThat(client.read(7)).isEqualTo(new byte[BLOCK]);
    }

    @Test
    void batchingCutsTheWriteOverheadOfH() {
        int k = 10;
        PorClient single = client(new MemoryPorServer(k, 0, BLOCK));
        PorClient batched = client(new MemoryPorServer(k, 3, BLOCK));
        single.traffic().reset();
        batched.traffic().reset();
        for (int i = 0; i < 1 << k; i++) {
            byte[] block = randomBlock();
            single.write(i, block);
            batched.write(i, block);
        }
        double perWriteSingle = (double) single.traffic().overhead() / (1 << k);
        double perWriteBatched = (double) batched.traffic().overhead() / (1 << k);
        // U's share (path, leaf, checksum, index: 420 bytes at k = 10) is the same; H's shrinks about 8 times
        double uShare = 48 + 32 * k + 4 + 48;
        assertThat(perWriteBatched - uShare).isLessThan((perWriteSingle - uShare) / 4);
    }

    @Test
    void simulatedBatchChecksumsEqualTheChecksumsOfTheServersBatchVectors() {
        int k = 10;
        int b = 3;
        MemoryPorServer server = new MemoryPorServer(k, b, 8);
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        PorKeys keys = PorKeys.derive(HonestServerTest.MASTER_KEY);
        ChecksumKey batchKey = ChecksumKey.derive(keys.batchChecksumKey(), (Segments.count(8) + 1) << b);
        ChecksumSealer sealer = new ChecksumSealer(keys.sealingKey(), new SecureRandom()).boundTo(k);
        byte[] block = new byte[8];
        for (int i = 0; i < (1 << k) - 1; i++) {
            random.nextBytes(block);
            client.write(random.nextInt(1 << k), block);
        }
        LogState h = client.state().hLog();
        assertThat(h.t()).isEqualTo((1 << (k - b)) - 1); // 127 batches in H's runs, 7 blocks pending
        assertThat(client.state().pending()).isEqualTo(7);
        RebuildOverChecksumsTest.assertRunsMatch(server.storage(), batchKey, sealer, h);
    }

    @Test
    void blocksSwappedWithinABatchVectorFailTheAudit() {
        MemoryPorServer server = new MemoryPorServer(6, 2, BLOCK); // H over 16 batches of 4
        PorClient client = client(server);
        for (int i = 0; i < 32; i++) {
            client.write(i, randomBlock());
        }
        LogState h = client.state().hLog();
        LogRun run = DeamortizedSchedule.runs(h.k(), h.t()).get(0);
        assertThat(run.level()).isEqualTo(2); // batches 1..4: 8 code vectors, all sampled
        assertThat(client.audit().passed()).isTrue();
        // the same elements, blocks 0 and 1 of one batch vector swapped: a sum over one matrix would not notice
        MemoryLevelStore vectors = server.storage().hVectors();
        int width = Segments.count(BLOCK) + 1;
        int[] v = new int[vectors.width()];
        vectors.read(2, Part.X, run.offset() + 1, v);
        int[] swapped = v.clone();
        System.arraycopy(v, 0, swapped, width, width);
        System.arraycopy(v, width, swapped, 0, width);
        vectors.write(2, Part.X, run.offset() + 1, swapped);
        AuditVerdict verdict = client.audit();
        assertThat(verdict.passed()).isFalse();
    }

    @Test
    void aCorruptedBatchVectorFailsTheAudit() {
        MemoryPorServer server = new MemoryPorServer(6, 2, BLOCK);
        PorClient client = client(server);
        for (int i = 0; i < 20; i++) {
            client.write(i, randomBlock()); // 5 batches: H levels 0 and 2
        }
        MemoryLevelStore vectors = server.storage().hVectors();
        int[] v = new int[vectors.width()];
        vectors.read(2, Part.Y, 3, v);
        v[v.length - 1] = Zp.add(v[v.length - 1], 1);
        vectors.write(2, Part.Y, 3, v);
        assertThat(client.audit().passed()).isFalse();
    }

    @Test
    void lostBlocksRepairOnceTheirBatchIsInH() {
        MemoryPorServer server = new MemoryPorServer(6, 2, BLOCK);
        PorClient client = client(server);
        byte[][] expected = new byte[64][];
        for (int i = 0; i < 64 + 22; i++) { // a full epoch, then 5 batches and 2 pending blocks
            int index = i < 64 ? i : random.nextInt(64);
            expected[index] = randomBlock();
            client.write(index, expected[index]);
        }
        assertThat(client.state().pending()).isEqualTo(2);
        List<Integer> damaged = new ArrayList<>();
        for (int i = 0; i < 64; i += 3) {
            damaged.add(i);
            server.storage().setU(i, null);
        }
        client.flush(); // the two pending blocks join H, so they can be decoded too
        client.repair(damaged);
        for (int i = 0; i < 64; i++) {
            assertThat(client.read(i)).isEqualTo(expected[i]);
        }
    }

    @Test
    void aPendingBlockIsProtectedOnlyByUUntilItsBatchIsInH() {
        MemoryPorServer server = new MemoryPorServer(6, 2, BLOCK);
        PorClient client = client(server);
        byte[] first = randomBlock();
        client.write(9, first);
        for (int i = 0; i < 4; i++) {
            client.write(20 + i, randomBlock());
        }
        byte[] pendingVersion = randomBlock();
        client.write(9, pendingVersion); // pending: H holds the first version
        server.storage().setU(9, null);
        assertThatThrownBy(() -> client.repair(List.of(9))).isInstanceOf(PorVerificationException.class);
    }

    @Test
    void aClientResumedWithAPendingBatchCarriesOn() {
        MemoryPorServer server = new MemoryPorServer(6, 3, BLOCK);
        List<ClientState> persisted = new ArrayList<>();
        PorClient first = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(),
                persisted::add);
        for (int i = 0; i < 13; i++) {
            first.write(i, randomBlock());
        }
        ClientState saved = ClientState.fromBytes(persisted.get(persisted.size() - 1).toBytes());
        assertThat(saved.pending()).isEqualTo(5);
        PorClient resumed = new PorClient(server, saved, new SecureRandom(), s -> { });
        for (int i = 13; i < 40; i++) {
            resumed.write(i, randomBlock());
        }
        assertThat(resumed.audit().passed()).isTrue();
    }
}
