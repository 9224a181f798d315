package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.PorVerificationException;
import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.audit.AuditProver;
import io.coffer.por.audit.AuditResponse;
import io.coffer.por.audit.AuditVerdict;
import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.checksum.SealBrokenException;
import io.coffer.por.code.BlockTag;
import io.coffer.por.code.DeamortizedSchedule;
import io.coffer.por.code.LogRun;
import io.coffer.por.code.LogState;
import io.coffer.por.code.MemoryLevelStore;
import io.coffer.por.code.Part;
import io.coffer.por.field.Segments;
import io.coffer.por.field.Zp;
import io.coffer.por.server.LeafProof;
import io.coffer.por.server.MemoryPorServer;
import io.coffer.por.server.PorServer;
import io.coffer.por.server.ProvenBlock;
import io.coffer.por.server.SealedLevel;
import io.coffer.por.server.SealedVectors;
import io.coffer.por.store.ServerStorage;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Each way a server can cheat, played by a decorator of the honest server (or by damaging its storage), is caught: an
 * audit fails, or the read or write that met it is rejected. Stores are small enough (2n <= lambda = 128 where a
 * single damaged block must be found) that every audit samples every code block, so detection is certain, not likely.
 */
class AdversarialServerTest {
    private static final int BLOCK = 32;

    private final SplittableRandom random = new SplittableRandom(7);

    private byte[] randomBlock() {
        byte[] b = new byte[BLOCK];
        random.nextBytes(b);
        return b;
    }

    private PorClient client(MemoryPorServer honest, ForwardingPorServer attack) {
        return PorClient.initialize(reached(attack == null ? honest : attack), HonestServerTest.MASTER_KEY,
                new SecureRandom(), s -> { });
    }

    /** How the client reaches the (cheating) server: here in-process; over a socket in a subclass. */
    PorServer reached(PorServer server) {
        return server;
    }

    private void writeMany(PorClient client, int count) {
        for (int i = 0; i < count; i++) {
            client.write(random.nextInt(1 << client.state().hLog().k()), randomBlock());
        }
    }

    /** Answers audits like the honest server, but with a zero vector wherever its storage lost one. */
    static final class AnswersDespiteLoss extends ForwardingPorServer {
        private final ServerStorage storage;

        AnswersDespiteLoss(MemoryPorServer inner) {
            super(inner);
            this.storage = inner.storage();
        }

        @Override
        public AuditResponse audit(AuditChallenge challenge) {
            boolean isC = challenge.addresses().get(0).buffer() == BlockAddress.Buffer.C;
            MemoryLevelStore vectors = isC ? storage.cVectors() : storage.hVectors();
            int cLevel = storage.cParameters().cLevel();
            return AuditProver.prove(challenge, vectors.width(), new AuditProver.CodeBlocks() {
                @Override
                public int[] block(BlockAddress a) {
                    int level = isC ? cLevel : a.level();
                    int[] v = new int[vectors.width()];
                    if (vectors.contains(level, a.part(), (int) a.index())) {
                        vectors.read(level, a.part(), (int) a.index(), v);
                    }
                    return v;
                }

                @Override
                public byte[] sealedChecksum(BlockAddress a) {
                    return isC ? storage.sealedC(a.part())[(int) a.index()]
                            : storage.sealedH(a.level(), a.part(), (int) a.index());
                }
            });
        }
    }

    /** The oldest current run of H's {@code level} in the client's view. */
    private static LogRun run(PorClient client, int level) {
        LogState h = client.state().hLog();
        return DeamortizedSchedule.runs(h.k(), h.t()).stream().filter(r -> r.level() == level).findFirst()
                .orElseThrow();
    }

    @Test
    void deletingHalfOfARunPlusOneBlockFailsTheAudit() {
        MemoryPorServer honest = new MemoryPorServer(10, BLOCK);
        AnswersDespiteLoss server = new AnswersDespiteLoss(honest);
        PorClient client = client(honest, server);
        // the level-8 run of adds 0..255 is complete 2^8 - 9 adds after its last (DeamortizedSchedule.delay):
        // 512 code blocks, more than lambda
        writeMany(client, 256 + DeamortizedSchedule.delay(8));
        LogRun run = run(client, 8);
        assertThat(client.audit().passed()).isTrue();
        MemoryLevelStore vectors = honest.storage().hVectors();
        for (int i = 0; i < 256; i++) {
            vectors.erase(8, Part.Y, run.offset() + i);
        }
        vectors.erase(8, Part.X, run.offset() + 17);
        // the level is now beyond repair: the server has lost data, and must not pass
        assertThatThrownBy(() -> honest.decode(List.of(0))).isInstanceOf(IllegalArgumentException.class);
        for (int trial = 0; trial < 5; trial++) {
            AuditVerdict verdict = client.audit();
            assertThat(verdict.passed()).isFalse();
            assertThat(verdict.reason()).contains("does not match");
        }
        // the honest server that lost the blocks cannot answer at all, which also fails
        AuditVerdict plain = PorClientAccess.auditThrough(honest, client);
        assertThat(plain.passed()).isFalse();
    }

    @Test
    void corruptingOneBlockOfCFailsTheAudit() {
        MemoryPorServer honest = new MemoryPorServer(6, BLOCK); // C holds 128 = lambda code blocks: all sampled
        PorClient client = client(honest, null);
        writeMany(client, 64 + 5);
        assertThat(client.audit().passed()).isTrue();
        corrupt(honest.storage().cVectors(), honest.storage().cParameters().cLevel(), Part.Y, 33);
        AuditVerdict verdict = client.audit();
        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.reason()).contains("does not match");
    }

    @Test
    void corruptingOneBlockOfARunFailsTheAudit() {
        MemoryPorServer honest = new MemoryPorServer(8, BLOCK);
        PorClient client = client(honest, null);
        writeMany(client, 32 + DeamortizedSchedule.delay(5) + 3); // a complete level-5 run: 64 code blocks, all sampled
        assertThat(client.audit().passed()).isTrue();
        corrupt(honest.storage().hVectors(), 5, Part.X, run(client, 5).offset() + 7);
        assertThat(client.audit().passed()).isFalse();
    }

    @Test
    void aStaleBlockIsRejectedOnRead() {
        MemoryPorServer honest = new MemoryPorServer(6, BLOCK);
        Map<Integer, ProvenBlock> first = new HashMap<>();
        ForwardingPorServer stale = new ForwardingPorServer(honest) {
            @Override
            public ProvenBlock read(int index) {
                return first.computeIfAbsent(index, inner::read); // the first version it ever served
            }
        };
        PorClient client = client(honest, stale);
        byte[] old = randomBlock();
        client.write(3, old);
        assertThat(client.read(3)).isEqualTo(old);
        client.write(3, randomBlock());
        assertThatThrownBy(() -> client.read(3)).isInstanceOf(PorVerificationException.class)
                .hasMessageContaining("Merkle root");
    }

    @Test
    void aStaleOrMisplacedBlockInABatchedReadIsRejected() {
        MemoryPorServer honest = new MemoryPorServer(6, BLOCK);
        Map<Integer, ProvenBlock> first = new HashMap<>();
        ForwardingPorServer stale = new ForwardingPorServer(honest) {
            @Override
            public List<ProvenBlock> readBlocks(List<Integer> indices) {
                // the first version of each it ever served, and block 4 where 5 was asked for
                return indices.stream().map(i -> first.computeIfAbsent(i == 5 ? 4 : i, inner::read)).toList();
            }
        };
        PorClient client = client(honest, stale);
        byte[] old = randomBlock();
        client.write(3, old);
        client.write(4, randomBlock());
        List<PorClient.Fetched> fetched = client.fetchAll(List.of(3, 5));
        assertThat(client.check(fetched.get(0))).isEqualTo(old);
        assertThatThrownBy(() -> client.check(fetched.get(1))).isInstanceOf(PorVerificationException.class)
                .hasMessageContaining("asked for block 5, got block 4");
        client.write(3, randomBlock());
        PorClient.Fetched again = client.fetchAll(List.of(3)).get(0);
        assertThatThrownBy(() -> client.check(again)).isInstanceOf(PorVerificationException.class)
                .hasMessageContaining("Merkle root");
    }

    @Test
    void aStaleOrMisplacedLeafAmongPrefetchedPathsIsRejected() {
        MemoryPorServer honest = new MemoryPorServer(6, BLOCK);
        Map<Integer, LeafProof> first = new HashMap<>();
        boolean[] misplace = {false};
        ForwardingPorServer stale = new ForwardingPorServer(honest) {
            @Override
            public List<LeafProof> leaves(List<Integer> indices) {
                // the first version of each leaf it ever served; or leaf 11 where 10 was asked for
                return indices.stream().map(i -> misplace[0] ? inner.leaf(i == 10 ? 11 : i)
                        : first.computeIfAbsent(i, inner::leaf)).toList();
            }
        };
        PorClient client = client(honest, stale);
        client.prefetchPaths(List.of(9, 10));
        client.write(9, randomBlock());
        client.write(10, randomBlock());
        assertThatThrownBy(() -> client.prefetchPaths(List.of(9, 10))).isInstanceOf(PorVerificationException.class)
                .hasMessageContaining("Merkle root");
        misplace[0] = true;
        assertThatThrownBy(() -> client.prefetchPaths(List.of(9, 10))).isInstanceOf(PorVerificationException.class)
                .hasMessageContaining("asked for leaf 10, got leaf 11");
        client.write(9, randomBlock()); // no run's paths are kept after a refusal: the write asks for its leaf
        assertThat(client.audit().passed()).isTrue();
    }

    @Test
    void aStaleLeafIsRejectedOnWrite() {
        MemoryPorServer honest = new MemoryPorServer(6, BLOCK);
        Map<Integer, LeafProof> first = new HashMap<>();
        ForwardingPorServer stale = new ForwardingPorServer(honest) {
            @Override
            public LeafProof leaf(int index) {
                return first.computeIfAbsent(index, inner::leaf);
            }
        };
        PorClient client = client(honest, stale);
        client.write(9, randomBlock());
        ClientState before = client.state();
        assertThatThrownBy(() -> client.write(9, randomBlock())).isInstanceOf(PorVerificationException.class);
        assertThat(client.state()).isEqualTo(before);
    }

    @Test
    void aBlockThatDoesNotMatchItsChecksumIsRejectedOnRead() {
        MemoryPorServer honest = new MemoryPorServer(6, BLOCK);
        PorClient client = client(honest, null);
        client.write(5, randomBlock());
        honest.storage().u(5)[0] ^= 1;
        assertThatThrownBy(() -> client.read(5)).isInstanceOf(PorVerificationException.class)
                .hasMessageContaining("checksum");
    }

    @Test
    void aWrongAggregateFailsTheAudit() {
        MemoryPorServer honest = new MemoryPorServer(8, BLOCK);
        ForwardingPorServer wrong = new ForwardingPorServer(honest) {
            @Override
            public AuditResponse audit(AuditChallenge challenge) {
                AuditResponse right = inner.audit(challenge);
                int[] aggregate = right.aggregate();
                aggregate[aggregate.length / 2] = Zp.add(aggregate[aggregate.length / 2], 1);
                return new AuditResponse(aggregate, right.sealedChecksums());
            }
        };
        PorClient client = client(honest, wrong);
        writeMany(client, 100);
        assertThat(PorClientAccess.auditThrough(honest, client).passed()).isTrue();
        assertThat(client.audit().passed()).isFalse();
    }

    /**
     * A server that takes the client's checksums for add {@code add} but replaces every vector that add's merge steps
     * wrote (levels 1 and up) by {@code replacement} of the block written: a merge step skipped or faked.
     */
    private static ForwardingPorServer cheatsAtAdd(MemoryPorServer honest, int add,
            java.util.function.BiFunction<Integer, byte[], int[]> replacement) {
        int[] writes = {0};
        return new ForwardingPorServer(honest) {
            @Override
            public void write(int index, byte[] block, byte[] sealedChecksum, SealedVectors written) {
                super.write(index, block, sealedChecksum, written);
                if (++writes[0] == add) {
                    int hK = honest.storage().hParameters().k();
                    for (DeamortizedSchedule.Vector v : DeamortizedSchedule.outputs(hK, add)) {
                        for (Part part : Part.values()) {
                            if (v.level() > 0) {
                                honest.storage().hVectors().write(v.level(), part, v.position(),
                                        replacement.apply(index, block));
                            }
                        }
                    }
                }
            }
        };
    }

    @Test
    void skippingAMergeStepFailsTheAudit() {
        MemoryPorServer honest = new MemoryPorServer(8, BLOCK);
        int width = honest.storage().hVectors().width();
        // add 27 is the last step of the merge into the level-4 run of adds 0..15: left undone (zero vectors)
        int add = 16 + DeamortizedSchedule.delay(4);
        PorClient client = client(honest, cheatsAtAdd(honest, add, (index, block) -> new int[width]));
        writeMany(client, add);
        assertThat(run(client, 4).start()).isZero();
        assertThat(client.audit().passed()).isFalse();
    }

    @Test
    void fakingAMergeStepFailsTheAudit() {
        MemoryPorServer honest = new MemoryPorServer(8, BLOCK);
        // add 12 ends the merge into the level-3 run of adds 0..7: the newest block copied where it writes instead
        int add = 8 + DeamortizedSchedule.delay(3);
        PorClient client = client(honest, cheatsAtAdd(honest, add,
                (index, block) -> BlockTag.tag(Segments.fromBytes(block, 0, block.length), index)));
        writeMany(client, add);
        assertThat(run(client, 3).start()).isZero();
        assertThat(client.audit().passed()).isFalse();
    }

    @Test
    void skippingACRebuildFailsTheAudit() {
        MemoryPorServer honest = MemoryPorServer.oneShot(6, 0, BLOCK); // a paced one keeps the old C in the window
        ForwardingPorServer keepsOldC = new ForwardingPorServer(honest) {
            @Override
            public void rebuildC(SealedLevel c) {
                int cLevel = honest.storage().cParameters().cLevel();
                int[][] x = honest.storage().cVectors().copy(cLevel, Part.X);
                int[][] y = honest.storage().cVectors().copy(cLevel, Part.Y);
                super.rebuildC(c);
                if (x[0] != null) { // not the first C: put the old code back
                    for (int i = 0; i < x.length; i++) {
                        honest.storage().cVectors().write(cLevel, Part.X, i, x[i]);
                        honest.storage().cVectors().write(cLevel, Part.Y, i, y[i]);
                    }
                }
            }
        };
        PorClient client = client(honest, keepsOldC);
        writeMany(client, 64); // the 64th write triggers the second C rebuild
        assertThat(client.state().hLog().epoch()).isEqualTo(2);
        AuditVerdict verdict = client.audit();
        assertThat(verdict.passed()).isFalse();
    }

    @Test
    void aStaleChecksumReplayedAtAReusedSlotIsRejectedOnWrite() {
        MemoryPorServer honest = new MemoryPorServer(6, BLOCK);
        int hK = honest.storage().hParameters().k();
        Map<List<Integer>, byte[][]> first = new HashMap<>();
        ForwardingPorServer replay = new ForwardingPorServer(honest) {
            @Override
            public SealedVectors sealedInputs(int count) {
                SealedVectors right = inner.sealedInputs(count);
                List<DeamortizedSchedule.Vector> inputs = DeamortizedSchedule.inputs(hK, count);
                byte[][] x = right.x();
                byte[][] y = right.y();
                for (int i = 0; i < inputs.size(); i++) { // the first checksums ever served at each position
                    int served = i;
                    byte[][] kept = first.computeIfAbsent(List.of(inputs.get(i).level(), inputs.get(i).position()),
                            key -> new byte[][] {right.get(Part.X, served), right.get(Part.Y, served)});
                    x[i] = kept[0];
                    y[i] = kept[1];
                }
                return new SealedVectors(count, x, y);
            }
        };
        PorClient client = client(honest, replay);
        // add 2 reads the level-0 run of write 0 (slot 0), adds 4 and 6 those of writes 2 and 4 (slots 2 and 1)
        for (int i = 0; i < 7; i++) {
            client.write(i, randomBlock());
        }
        ClientState before = client.state();
        // add 8 reads the level-0 run of write 6, in slot 0 again: the replayed checksum is add 1's
        assertThatThrownBy(() -> client.write(7, randomBlock())).isInstanceOf(SealBrokenException.class)
                .hasMessageContaining("level=0");
        assertThat(client.state()).isEqualTo(before);
    }

    @Test
    void replayingAnOldCChecksumFailsTheAudit() {
        MemoryPorServer honest = MemoryPorServer.oneShot(6, 0, BLOCK); // a paced one keeps the old C in the window
        byte[][][] firstC = new byte[2][][];
        ForwardingPorServer replay = new ForwardingPorServer(honest) {
            @Override
            public AuditResponse audit(AuditChallenge challenge) {
                AuditResponse right = inner.audit(challenge);
                List<byte[]> sealed = new java.util.ArrayList<>(right.sealedChecksums());
                BlockAddress a = challenge.addresses().get(0);
                sealed.set(0, firstC[a.part().ordinal()][(int) a.index()]);
                return new AuditResponse(right.aggregate(), sealed);
            }
        };
        PorClient client = client(honest, replay);
        firstC[0] = honest.storage().sealedC(Part.X).clone();
        firstC[1] = honest.storage().sealedC(Part.Y).clone();
        writeMany(client, 64); // a new C, sealed under a new time
        AuditVerdict verdict = client.audit();
        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.reason()).contains("fails authentication");
    }

    @Test
    void staleUChecksumsForACRebuildAreRejectedAndTheRebuildIsRetried() {
        MemoryPorServer honest = new MemoryPorServer(5, BLOCK);
        List<byte[]> stale = new java.util.ArrayList<>();
        boolean[] cheat = {false};
        ForwardingPorServer replay = new ForwardingPorServer(honest) {
            @Override
            public List<byte[]> sealedU() {
                return cheat[0] ? stale : inner.sealedU();
            }
        };
        PorClient client = client(honest, replay);
        writeMany(client, 20);
        stale.addAll(honest.sealedU()); // U's checksums after 20 writes, replayed at the end of the epoch
        cheat[0] = true;
        writeMany(client, 11);
        ClientState before = client.state();
        assertThatThrownBy(() -> client.write(3, randomBlock())).isInstanceOf(PorVerificationException.class)
                .hasMessageContaining("Merkle root");
        assertThat(client.state().hLog().cRebuildDue()).isTrue(); // the write went in; C is still due
        assertThat(client.state().hLog().t()).isEqualTo(before.hLog().t() + 1);
        cheat[0] = false;
        client.write(4, randomBlock()); // rebuilds C first, then writes
        assertThat(client.state().hLog().epoch()).isEqualTo(2);
        assertThat(client.audit().passed()).isTrue();
    }

    @Test
    void aDecodedBlockThatIsWrongIsNotRestored() {
        MemoryPorServer honest = new MemoryPorServer(6, BLOCK);
        ForwardingPorServer liar = new ForwardingPorServer(honest) {
            @Override
            public List<ProvenBlock> decode(List<Integer> indices) {
                ProvenBlock right = inner.decode(indices).get(0);
                byte[] block = right.block();
                block[1] ^= 4;
                return List.of(new ProvenBlock(right.index(), block, right.sealedChecksum(), right.proof()));
            }
        };
        PorClient client = client(honest, liar);
        client.write(12, randomBlock());
        honest.storage().setU(12, null); // lost
        assertThatThrownBy(() -> client.repair(List.of(12))).isInstanceOf(PorVerificationException.class);
        assertThat(honest.storage().u(12)).isNull();
    }

    private static void corrupt(MemoryLevelStore vectors, int level, Part part, int index) {
        int[] v = new int[vectors.width()];
        vectors.read(level, part, index, v);
        v[0] = Zp.add(v[0], 1);
        vectors.write(level, part, index, v);
    }
}
