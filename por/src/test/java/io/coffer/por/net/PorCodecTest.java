package io.coffer.por.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.audit.AuditResponse;
import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.LogState;
import io.coffer.por.code.Part;
import io.coffer.por.merkle.MerkleHash;
import io.coffer.por.merkle.MerkleProof;
import io.coffer.por.server.LeafProof;
import io.coffer.por.server.PorServer;
import io.coffer.por.server.ProvenBlock;
import io.coffer.por.server.SealedLevel;
import io.coffer.por.server.SealedVectors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Every message decodes to what was encoded; every field out of its bounds is refused. */
class PorCodecTest {
    private final ServerParameters params = new ServerParameters(6, 2, 40);
    private final PorCodec codec = new PorCodec(params);
    private final SplittableRandom random = new SplittableRandom(1);

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private SealedLevel level(int level, int size) {
        byte[][] x = new byte[size][];
        byte[][] y = new byte[size][];
        for (int i = 0; i < size; i++) {
            x[i] = bytes(ChecksumSealer.SEALED_BYTES);
            y[i] = bytes(ChecksumSealer.SEALED_BYTES);
        }
        return new SealedLevel(level, x, y);
    }

    private SealedVectors vectors(int count, int size) {
        SealedLevel parts = level(0, size);
        return new SealedVectors(count, parts.x(), parts.y());
    }

    private static void assertSameVectors(SealedVectors actual, SealedVectors expected) {
        assertThat(actual.count()).isEqualTo(expected.count());
        assertThat(actual.x()).isDeepEqualTo(expected.x());
        assertThat(actual.y()).isDeepEqualTo(expected.y());
    }

    private MerkleProof proof(int index) {
        byte[][] siblings = new byte[6][];
        for (int i = 0; i < 6; i++) {
            siblings[i] = bytes(MerkleHash.BYTES);
        }
        return new MerkleProof(index, siblings);
    }

    private static void assertSameLevel(SealedLevel actual, SealedLevel expected) {
        assertThat(actual.level()).isEqualTo(expected.level());
        assertThat(actual.x()).isDeepEqualTo(expected.x());
        assertThat(actual.y()).isDeepEqualTo(expected.y());
    }

    @Test
    void resyncAndLogStateRoundTripAndOutOfRangeValuesAreRefused() {
        SealedLevel c = level(7, 64);
        PorCodec.ResyncRequest r = codec.readResync(codec.resync(5, c));
        assertThat(r.epoch()).isEqualTo(5);
        assertSameLevel(r.c(), c);
        assertThat(codec.readLogState(codec.logState(new LogState(4, 9, 12)))).isEqualTo(new LogState(4, 9, 12));

        assertThatThrownBy(() -> codec.readResync(codec.resync(0, c))).isInstanceOf(MalformedFrameException.class);
        assertThatThrownBy(() -> codec.readResync(codec.resync(PorServer.MAX_EPOCH + 1, c)))
                .isInstanceOf(MalformedFrameException.class);
        assertThatThrownBy(() -> codec.readResync(codec.resync(5, level(7, 32))))
                .isInstanceOf(MalformedFrameException.class);
        byte[] t17 = new WireWriter(12).i64(1).i32(17).toBytes(); // H of 2^4 batches: t is at most 16
        assertThatThrownBy(() -> codec.readLogState(t17)).isInstanceOf(MalformedFrameException.class);
        assertThat(params.maxFrameBytes()).isGreaterThanOrEqualTo(2 + codec.resync(1, c).length + SessionMac.BYTES);
    }

    @Test
    void requestsRoundTrip() {
        byte[] block = bytes(40);
        byte[] sealed = bytes(ChecksumSealer.SEALED_BYTES);
        SealedVectors add = vectors(16, params.maxAddVectors()); // H of 2^4 batches: at most 7 vectors an add
        PorCodec.WriteRequest w = codec.readWrite(codec.write(63, block, sealed, add));
        assertThat(w.index()).isEqualTo(63);
        assertThat(w.block()).isEqualTo(block);
        assertThat(w.sealedChecksum()).isEqualTo(sealed);
        assertSameVectors(w.written(), add);
        assertThat(codec.readWrite(codec.write(0, block, sealed, null)).written()).isNull();
        assertThat(codec.readFlush(codec.flush(null))).isNull();
        assertSameVectors(codec.readFlush(codec.flush(add)), add);
        assertThat(codec.readAddCount(codec.addCount(16))).isEqualTo(16);
        assertThat(params.maxFrameBytes()).isGreaterThanOrEqualTo(2 + codec.write(63, block, sealed, add).length
                + SessionMac.BYTES);
        SealedLevel c = level(7, 64);
        assertSameLevel(codec.readRebuildC(codec.rebuildC(c)), c);
        AuditChallenge challenge = new AuditChallenge(List.of(BlockAddress.h(2, Part.Y, 3), BlockAddress.c(Part.X, 60)),
                new int[] {5, 123456});
        AuditChallenge back = codec.readAudit(codec.audit(challenge));
        assertThat(back.addresses()).isEqualTo(challenge.addresses());
        assertThat(back.coefficients()).containsExactly(5, 123456);
        assertThat(codec.readDecode(codec.decode(List.of(1, 2, 63)))).containsExactly(1, 2, 63);
        assertThat(codec.readReadBlocks(codec.readBlocks(List.of(4, 0, 63)))).containsExactly(4, 0, 63);
        assertThat(codec.readLeaves(codec.leaves(List.of(7, 63)))).containsExactly(7, 63);
        assertThat(codec.readPrepareDecode(codec.prepareDecode(List.of(63, 0, 5)))).containsExactly(63, 0, 5);
        PorCodec.RestoreRequest r = codec.readRestore(codec.restore(9, block));
        assertThat(r.index()).isEqualTo(9);
        assertThat(r.block()).isEqualTo(block);
    }

    @Test
    void responsesRoundTrip() {
        ProvenBlock pb = new ProvenBlock(17, bytes(40), null, proof(17));
        ProvenBlock back = codec.readProvenBlock(codec.provenBlock(pb));
        assertThat(back.block()).isEqualTo(pb.block());
        assertThat(back.sealedChecksum()).isNull();
        assertThat(back.proof().siblings()).isDeepEqualTo(pb.proof().siblings());
        LeafProof leaf = new LeafProof(4, bytes(ChecksumSealer.SEALED_BYTES), proof(4));
        assertThat(codec.readLeafProof(codec.leafProof(leaf)).sealedChecksum()).isEqualTo(leaf.sealedChecksum());
        LeafProof unwritten = new LeafProof(5, null, proof(5));
        List<LeafProof> leaves = codec.readLeafProofs(codec.leafProofs(List.of(leaf, unwritten)));
        assertThat(leaves).extracting(LeafProof::index).containsExactly(4, 5);
        assertThat(leaves.get(0).sealedChecksum()).isEqualTo(leaf.sealedChecksum());
        assertThat(leaves.get(1).sealedChecksum()).isNull();
        assertThat(leaves.get(1).proof().siblings()).isDeepEqualTo(unwritten.proof().siblings());
        List<byte[]> sealedU = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            sealedU.add(i % 3 == 0 ? null : bytes(ChecksumSealer.SEALED_BYTES));
        }
        SealedVectors inputs = vectors(3, 2);
        assertSameVectors(codec.readSealedVectors(codec.sealedVectors(inputs)), inputs);
        assertThat(codec.readSealedVectors(codec.sealedVectors(vectors(1, 0))).size()).isZero();
        List<byte[]> u = codec.readSealedList(codec.sealedList(sealedU));
        for (int i = 0; i < 64; i++) {
            assertThat(u.get(i)).isEqualTo(sealedU.get(i));
        }
        int[] aggregate = new int[params.maxAggregateWidth()];
        Arrays.setAll(aggregate, i -> i * 7);
        AuditResponse ar = codec.readAuditResponse(codec.auditResponse(new AuditResponse(aggregate,
                List.of(bytes(ChecksumSealer.SEALED_BYTES)))));
        assertThat(ar.aggregate()).isEqualTo(aggregate);
        assertThat(codec.readProvenBlocks(codec.provenBlocks(List.of(pb, pb)))).hasSize(2);
        PorCodec.ErrorReply e = PorCodec.readError(PorCodec.error(ErrorKind.STATE, "x".repeat(5000)));
        assertThat(e.kind()).isEqualTo(ErrorKind.STATE);
        assertThat(e.message()).hasSize(PorCodec.MAX_ERROR_BYTES);
    }

    @Test
    void aFlagIsOneByteZeroOrOne() {
        assertThat(PorCodec.readFlag(PorCodec.flag(true))).isTrue();
        assertThat(PorCodec.readFlag(PorCodec.flag(false))).isFalse();
        assertThatThrownBy(() -> PorCodec.readFlag(new byte[] {2})).isInstanceOf(MalformedFrameException.class);
        assertThatThrownBy(() -> PorCodec.readFlag(new byte[0])).isInstanceOf(MalformedFrameException.class);
        assertThatThrownBy(() -> PorCodec.readFlag(new byte[2])).isInstanceOf(MalformedFrameException.class);
    }

    @Test
    void fieldsOutOfBoundsAreRefused() {
        assertThatThrownBy(() -> codec.readIndex(new byte[] {0, 0, 0, 64})).isInstanceOf(MalformedFrameException.class);
        assertThatThrownBy(() -> codec.readAddCount(new byte[] {0, 0, 0, 17})) // H's adds: 1..2^(k-b) = 16
                .isInstanceOf(MalformedFrameException.class).hasMessageContaining("add count 17 outside [1, 16]");
        assertThatThrownBy(() -> codec.readAddCount(new byte[] {0, 0, 0, 0}))
                .isInstanceOf(MalformedFrameException.class);
        byte[] manyVectors = new WireWriter(8).i32(3).i32(params.maxAddVectors() + 1).toBytes();
        assertThatThrownBy(() -> codec.readSealedVectors(manyVectors)).isInstanceOf(MalformedFrameException.class)
                .hasMessageContaining("vectors of an add");
        byte[] promisedVectors = new WireWriter(8).i32(3).i32(2).toBytes(); // two vectors promised, none sent
        assertThatThrownBy(() -> codec.readSealedVectors(promisedVectors)).hasMessageContaining("cannot fit");
        byte[] wide = new WireWriter(8).i32(params.maxAggregateWidth() + 1).toBytes();
        assertThatThrownBy(() -> codec.readAuditResponse(wide)).hasMessageContaining("aggregate width");
        byte[] promised = new WireWriter(8).i32(40).toBytes(); // 40 elements promised, none sent
        assertThatThrownBy(() -> codec.readAuditResponse(promised)).hasMessageContaining("cannot fit");
        byte[] badAddress = new WireWriter(32).i32(1).u8(7).i32(0).u8(0).i64(0).i32(1).toBytes();
        assertThatThrownBy(() -> codec.readAudit(badAddress)).hasMessageContaining("bad block address");
        byte[] uWithLevel = new WireWriter(32).i32(1).u8(0).i32(3).u8(0).i64(0).i32(1).toBytes();
        assertThatThrownBy(() -> codec.readAudit(uWithLevel)).isInstanceOf(MalformedFrameException.class)
                .hasMessageContaining("levels belong to H");
        byte[] badFlag = new byte[4 + 40 + ChecksumSealer.SEALED_BYTES + 1];
        badFlag[badFlag.length - 1] = 2;
        assertThatThrownBy(() -> codec.readWrite(badFlag)).hasMessageContaining("flag byte");
        byte[] shortList = new WireWriter(8).i32(63).toBytes();
        assertThatThrownBy(() -> codec.readSealedList(shortList)).hasMessageContaining("outside [64, 64]");
        byte[] tooMany = new WireWriter(8).i32(65).toBytes(); // n = 64
        assertThatThrownBy(() -> codec.readPrepareDecode(tooMany)).isInstanceOf(MalformedFrameException.class)
                .hasMessageContaining("blocks to prepare");
        byte[] outside = new WireWriter(8).i32(1).i32(64).toBytes();
        assertThatThrownBy(() -> codec.readPrepareDecode(outside)).isInstanceOf(MalformedFrameException.class);
        assertThatThrownBy(() -> codec.readReadBlocks(outside)).isInstanceOf(MalformedFrameException.class);
        byte[] beyondAFrame = new WireWriter(8).i32(params.maxDecodeCount() + 1).toBytes();
        assertThatThrownBy(() -> codec.readReadBlocks(beyondAFrame)).isInstanceOf(MalformedFrameException.class)
                .hasMessageContaining("blocks to read");
        byte[] tooManyLeaves = new WireWriter(8).i32(params.maxLeafCount() + 1).toBytes();
        assertThatThrownBy(() -> codec.readLeaves(tooManyLeaves)).hasMessageContaining("leaves");
        assertThatThrownBy(() -> codec.readLeafProofs(tooManyLeaves)).hasMessageContaining("leaf proofs");
        byte[] promisedLeaves = new WireWriter(8).i32(2).toBytes(); // two proofs promised, none sent
        assertThatThrownBy(() -> codec.readLeafProofs(promisedLeaves)).isInstanceOf(MalformedFrameException.class);
        byte[] longProof = new WireWriter(16).i32(0).u8(0).i32(0).u8(200).toBytes();
        assertThatThrownBy(() -> codec.readLeafProof(longProof)).hasMessageContaining("200 siblings");
    }

    @Test
    void theFrameLimitCoversTheLongestMessageAndDecodesAreSplitToFit() {
        ServerParameters big = new ServerParameters(20, 0, 4096);
        assertThat(big.maxFrameBytes()).isGreaterThan(2 * (1 << 20) * ChecksumSealer.SEALED_BYTES)
                .isLessThan(100 << 20);
        assertThat((long) big.maxDecodeCount() * big.provenBlockBytes()).isLessThan(big.maxFrameBytes());
        assertThat(4L + 4L * big.n()).as("a prepared decode of every block fits").isLessThan(big.maxFrameBytes());
        assertThatThrownBy(() -> new ServerParameters(21, 0, 4096)).hasMessageContaining("k must be in [1, 20]");
    }
}
