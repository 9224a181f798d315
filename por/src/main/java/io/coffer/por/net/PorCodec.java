package io.coffer.por.net;

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
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The payloads of the PoR protocol, both directions (docs/POR.md, "The PoR server"). Big-endian; blocks and sealed
 * checksums have the fixed lengths of the server's parameters and carry no length; optional values are a flag byte
 * and the value. Every decoder checks each count and index against {@link ServerParameters} before it allocates, and
 * that the payload ends where its last field does; anything else is a {@link MalformedFrameException}.
 */
public final class PorCodec {
    /** An error message is cut to this many bytes. */
    static final int MAX_ERROR_BYTES = 1024;

    private final ServerParameters params;

    public PorCodec(ServerParameters params) {
        this.params = params;
    }

    public ServerParameters parameters() {
        return params;
    }

    /** The arguments of {@code write}. */
    public record WriteRequest(int index, byte[] block, byte[] sealedChecksum, SealedVectors written) {
    }

    /** The arguments of {@code restore}. */
    public record RestoreRequest(int index, byte[] block) {
    }

    /** The arguments of {@code resync}. */
    public record ResyncRequest(long epoch, SealedLevel c) {
    }

    /** An error frame's content. */
    public record ErrorReply(ErrorKind kind, String message) {
    }

    // ---- requests

    public byte[] index(int index) {
        return new WireWriter(4).i32(index).toBytes();
    }

    public int readIndex(byte[] payload) {
        WireReader r = new WireReader(payload);
        int index = index(r);
        r.end();
        return index;
    }

    /** The number of an add of H (1..2^(k-b)): a request for the sealed checksums of its inputs. */
    public byte[] addCount(int count) {
        return new WireWriter(4).i32(count).toBytes();
    }

    public int readAddCount(byte[] payload) {
        WireReader r = new WireReader(payload);
        int count = addCount(r);
        r.end();
        return count;
    }

    public byte[] write(int index, byte[] block, byte[] sealedChecksum, SealedVectors written) {
        WireWriter w = new WireWriter(4 + block.length + ChecksumSealer.SEALED_BYTES + 1);
        w.i32(index).bytes(fixed(block, params.blockBytes(), "block")).bytes(sealed(sealedChecksum));
        optionalVectors(w, written);
        return w.toBytes();
    }

    public WriteRequest readWrite(byte[] payload) {
        WireReader r = new WireReader(payload);
        int index = index(r);
        byte[] block = r.bytes(params.blockBytes());
        byte[] sealed = r.bytes(ChecksumSealer.SEALED_BYTES);
        SealedVectors written = r.flag() ? vectors(r) : null;
        r.end();
        return new WriteRequest(index, block, sealed, written);
    }

    public byte[] flush(SealedVectors written) {
        WireWriter w = new WireWriter(1);
        optionalVectors(w, written);
        return w.toBytes();
    }

    public SealedVectors readFlush(byte[] payload) {
        WireReader r = new WireReader(payload);
        SealedVectors written = r.flag() ? vectors(r) : null;
        r.end();
        return written;
    }

    public byte[] rebuildC(SealedLevel c) {
        WireWriter w = new WireWriter((int) ServerParameters.sealedLevelBytes(c.partSize()));
        level(w, c);
        return w.toBytes();
    }

    public SealedLevel readRebuildC(byte[] payload) {
        WireReader r = new WireReader(payload);
        int level = r.bounded(params.k() + 1, params.k() + 1, "C's level");
        SealedLevel c = levelBody(r, level, params.n());
        r.end();
        return c;
    }

    public byte[] resync(long epoch, SealedLevel c) {
        WireWriter w = new WireWriter(8 + (int) ServerParameters.sealedLevelBytes(c.partSize()));
        w.i64(epoch);
        level(w, c);
        return w.toBytes();
    }

    /** A resize (PorServer.resize, GROW): the new capacity exponent, then a RESYNC payload at that k. */
    public record GrowRequest(int k, long epoch, SealedLevel c) {
    }

    /** u8 k, then {@link #resync} as the codec of 2^k blocks encodes it. */
    public byte[] grow(int k, long epoch, SealedLevel c) {
        byte[] resync = at(k).resync(epoch, c);
        byte[] out = new byte[1 + resync.length];
        out[0] = (byte) k;
        System.arraycopy(resync, 0, out, 1, resync.length);
        return out;
    }

    /**
     * A resize to a k other than these parameters', at least the batch exponent and at most {@code maxK}, checked
     * against the parameters at that k.
     */
    public GrowRequest readGrow(byte[] payload, int maxK) {
        if (payload.length < 1) {
            throw new MalformedFrameException("an empty grow");
        }
        int k = payload[0] & 0xff;
        if (k == params.k() || k < params.batchExponent() || k > Math.min(maxK, ServerParameters.MAX_K)) {
            throw new MalformedFrameException("a resize from k = " + params.k() + " to k = " + k + ", beyond "
                    + maxK + " or below " + params.batchExponent());
        }
        ResyncRequest r = at(k).readResync(java.util.Arrays.copyOfRange(payload, 1, payload.length));
        return new GrowRequest(k, r.epoch(), r.c());
    }

    /** The codec of these parameters at capacity 2^k. */
    public PorCodec at(int k) {
        return new PorCodec(new ServerParameters(k, params.batchExponent(), params.blockBytes()));
    }

    public ResyncRequest readResync(byte[] payload) {
        WireReader r = new WireReader(payload);
        long epoch = r.i64();
        if (epoch < 1 || epoch > PorServer.MAX_EPOCH) {
            throw new MalformedFrameException("resynchronisation to epoch " + epoch);
        }
        int level = r.bounded(params.k() + 1, params.k() + 1, "C's level");
        SealedLevel c = levelBody(r, level, params.n());
        r.end();
        return new ResyncRequest(epoch, c);
    }

    /** A log state of H: its epoch and t (k is the parameters'). */
    public byte[] logState(LogState state) {
        return new WireWriter(12).i64(state.epoch()).i32(state.t()).toBytes();
    }

    public LogState readLogState(byte[] payload) {
        WireReader r = new WireReader(payload);
        long epoch = r.i64();
        int t = r.i32();
        r.end();
        return checked(() -> new LogState(params.hK(), t, epoch));
    }

    public byte[] audit(AuditChallenge challenge) {
        WireWriter w = new WireWriter(4 + challenge.size() * (BlockAddress.BYTES + 4));
        w.i32(challenge.size());
        for (int i = 0; i < challenge.size(); i++) {
            w.bytes(challenge.addresses().get(i).toBytes()).i32(challenge.coefficient(i));
        }
        return w.toBytes();
    }

    public AuditChallenge readAudit(byte[] payload) {
        WireReader r = new WireReader(payload);
        int count = r.bounded(1, ServerParameters.MAX_AUDIT_SAMPLES, "audit samples");
        r.expect(count, BlockAddress.BYTES + 4, "samples");
        List<BlockAddress> addresses = new ArrayList<>(count);
        int[] coefficients = new int[count];
        for (int i = 0; i < count; i++) {
            int buffer = r.u8();
            int level = r.i32();
            int part = r.u8();
            long index = r.i64();
            if (buffer >= BlockAddress.Buffer.values().length || part >= Part.values().length) {
                throw new MalformedFrameException("bad block address: buffer " + buffer + ", part " + part);
            }
            addresses.add(checked(() -> new BlockAddress(BlockAddress.Buffer.values()[buffer], level,
                    Part.values()[part], index)));
            coefficients[i] = r.i32();
        }
        r.end();
        return checked(() -> new AuditChallenge(addresses, coefficients));
    }

    /** Blocks to read: as many as a PROVEN_BLOCKS answer holds. */
    public byte[] readBlocks(List<Integer> indices) {
        return indices(indices);
    }

    public List<Integer> readReadBlocks(byte[] payload) {
        return readIndices(payload, params.maxDecodeCount(), "blocks to read");
    }

    public byte[] decode(List<Integer> indices) {
        return indices(indices);
    }

    public List<Integer> readDecode(byte[] payload) {
        return readIndices(payload, params.maxDecodeCount(), "blocks to decode");
    }

    /** A prepared decode: up to n indices (4 bytes each: always within a frame, which holds n sealed checksums). */
    public byte[] prepareDecode(List<Integer> indices) {
        return indices(indices);
    }

    public List<Integer> readPrepareDecode(byte[] payload) {
        return readIndices(payload, params.n(), "blocks to prepare");
    }

    /** {@code i32 count | count x i32 index}. */
    private static byte[] indices(List<Integer> indices) {
        WireWriter w = new WireWriter(4 + 4 * indices.size());
        w.i32(indices.size());
        indices.forEach(w::i32);
        return w.toBytes();
    }

    /** {@link #indices}' list, at most {@code max} long, every index within the log. */
    private List<Integer> readIndices(byte[] payload, int max, String what) {
        WireReader r = new WireReader(payload);
        int count = r.bounded(0, max, what);
        r.expect(count, 4, "indices");
        List<Integer> indices = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            indices.add(index(r));
        }
        r.end();
        return indices;
    }

    public byte[] restore(int index, byte[] block) {
        return new WireWriter(4 + block.length).i32(index).bytes(fixed(block, params.blockBytes(), "block"))
                .toBytes();
    }

    public RestoreRequest readRestore(byte[] payload) {
        WireReader r = new WireReader(payload);
        int index = index(r);
        byte[] block = r.bytes(params.blockBytes());
        r.end();
        return new RestoreRequest(index, block);
    }

    /** A yes or no answer (PACES): one byte, 0 or 1. */
    public static byte[] flag(boolean value) {
        return new byte[] {(byte) (value ? 1 : 0)};
    }

    public static boolean readFlag(byte[] payload) {
        if (payload.length != 1 || (payload[0] & 0xfe) != 0) {
            throw new MalformedFrameException("a flag is one byte, 0 or 1");
        }
        return payload[0] == 1;
    }

    public static void readEmpty(byte[] payload) {
        new WireReader(payload).end();
    }

    // ---- responses

    public byte[] provenBlock(ProvenBlock block) {
        WireWriter w = new WireWriter((int) params.provenBlockBytes());
        provenBlock(w, block);
        return w.toBytes();
    }

    public ProvenBlock readProvenBlock(byte[] payload) {
        WireReader r = new WireReader(payload);
        ProvenBlock block = provenBlock(r);
        r.end();
        return block;
    }

    public byte[] leafProof(LeafProof leaf) {
        WireWriter w = new WireWriter(64);
        leafProof(w, leaf);
        return w.toBytes();
    }

    public LeafProof readLeafProof(byte[] payload) {
        WireReader r = new WireReader(payload);
        LeafProof leaf = leafProof(r);
        r.end();
        return leaf;
    }

    /** Leaves to prove: as many as a LEAF_PROOFS answer holds. */
    public byte[] leaves(List<Integer> indices) {
        return indices(indices);
    }

    public List<Integer> readLeaves(byte[] payload) {
        return readIndices(payload, params.maxLeafCount(), "leaves");
    }

    /** {@code i32 count | count x leaf proof}. */
    public byte[] leafProofs(List<LeafProof> leaves) {
        return list(leaves, params.leafProofBytes(), PorCodec::leafProof);
    }

    public List<LeafProof> readLeafProofs(byte[] payload) {
        WireReader r = new WireReader(payload);
        return readList(r, r.bounded(0, params.maxLeafCount(), "leaf proofs"), this::leafProof);
    }

    private static void leafProof(WireWriter w, LeafProof leaf) {
        w.i32(leaf.index());
        optionalSealed(w, leaf.sealedChecksum());
        proof(w, leaf.proof());
    }

    private LeafProof leafProof(WireReader r) {
        int index = index(r);
        byte[] sealed = optionalSealed(r);
        MerkleProof proof = proof(r);
        return new LeafProof(index, sealed, proof);
    }

    public byte[] sealedVectors(SealedVectors vectors) {
        WireWriter w = new WireWriter((int) vectors.wireBytes());
        vectors(w, vectors);
        return w.toBytes();
    }

    public SealedVectors readSealedVectors(byte[] payload) {
        WireReader r = new WireReader(payload);
        SealedVectors vectors = vectors(r);
        r.end();
        return vectors;
    }

    public byte[] sealedList(List<byte[]> sealed) {
        WireWriter w = new WireWriter(4 + sealed.size() * (1 + ChecksumSealer.SEALED_BYTES));
        w.i32(sealed.size());
        sealed.forEach(s -> optionalSealed(w, s));
        return w.toBytes();
    }

    public List<byte[]> readSealedList(byte[] payload) {
        WireReader r = new WireReader(payload);
        int count = r.bounded(params.n(), params.n(), "sealed checksums of U");
        r.expect(count, 1, "sealed checksums");
        List<byte[]> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(optionalSealed(r));
        }
        r.end();
        return out;
    }

    public byte[] auditResponse(AuditResponse response) {
        int[] aggregate = response.aggregate();
        WireWriter w = new WireWriter(8 + 4 * aggregate.length);
        w.i32(aggregate.length);
        for (int v : aggregate) {
            w.i32(v);
        }
        w.i32(response.sealedChecksums().size());
        response.sealedChecksums().forEach(s -> optionalSealed(w, s));
        return w.toBytes();
    }

    public AuditResponse readAuditResponse(byte[] payload) {
        WireReader r = new WireReader(payload);
        int width = r.bounded(0, params.maxAggregateWidth(), "aggregate width");
        r.expect(width, 4, "elements");
        int[] aggregate = new int[width];
        for (int i = 0; i < width; i++) {
            aggregate[i] = r.i32();
        }
        int count = r.bounded(0, ServerParameters.MAX_AUDIT_SAMPLES, "sealed checksums");
        r.expect(count, 1, "sealed checksums");
        List<byte[]> sealed = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            sealed.add(optionalSealed(r));
        }
        r.end();
        // List.copyOf refuses nulls: an absent checksum travels as an empty array, which the client's check rejects
        sealed.replaceAll(s -> s == null ? new byte[0] : s);
        return new AuditResponse(aggregate, sealed);
    }

    public byte[] provenBlocks(List<ProvenBlock> blocks) {
        return list(blocks, params.provenBlockBytes(), this::provenBlock);
    }

    public List<ProvenBlock> readProvenBlocks(byte[] payload) {
        WireReader r = new WireReader(payload);
        int count = r.bounded(0, params.maxDecodeCount(), "decoded blocks");
        r.expect(count, 4 + params.blockBytes(), "blocks");
        return readList(r, count, this::provenBlock);
    }

    /** {@code i32 count | count x item}: an answer of at most a frame's worth of items (its count is bounded). */
    private <T> byte[] list(List<T> items, long itemBytes, BiConsumer<WireWriter, T> write) {
        WireWriter w = new WireWriter((int) Math.min(params.maxFrameBytes(), 4 + items.size() * itemBytes));
        w.i32(items.size());
        items.forEach(item -> write.accept(w, item));
        return w.toBytes();
    }

    /** {@code count} items (checked by the caller against its bound) read, and the payload at its end. */
    private static <T> List<T> readList(WireReader r, int count, Function<WireReader, T> read) {
        List<T> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(read.apply(r));
        }
        r.end();
        return out;
    }

    public static byte[] error(ErrorKind kind, String message) {
        byte[] text = (message == null ? "" : message).getBytes(StandardCharsets.UTF_8);
        int length = Math.min(text.length, MAX_ERROR_BYTES);
        byte[] cut = new byte[length];
        System.arraycopy(text, 0, cut, 0, length);
        return new WireWriter(3 + length).u8(kind.ordinal()).u8(length >>> 8).u8(length).bytes(cut).toBytes();
    }

    public static ErrorReply readError(byte[] payload) {
        WireReader r = new WireReader(payload);
        ErrorKind kind = ErrorKind.of(r.u8());
        int length = r.u8() << 8 | r.u8();
        if (length > MAX_ERROR_BYTES) {
            throw new MalformedFrameException("error message of " + length + " bytes");
        }
        String message = new String(r.bytes(length), StandardCharsets.UTF_8);
        r.end();
        return new ErrorReply(kind, message);
    }

    // ---- fields

    private int index(WireReader r) {
        return r.bounded(0, params.n() - 1, "block index");
    }

    private static byte[] sealed(byte[] sealed) {
        return fixed(sealed, ChecksumSealer.SEALED_BYTES, "sealed checksum");
    }

    private static byte[] fixed(byte[] value, int length, String what) {
        if (value == null || value.length != length) {
            throw new IllegalArgumentException("a " + what + " is " + length + " bytes, not "
                    + (value == null ? "missing" : value.length));
        }
        return value;
    }

    private static void optionalSealed(WireWriter w, byte[] sealed) {
        w.flag(sealed != null);
        if (sealed != null) {
            w.bytes(sealed(sealed));
        }
    }

    private static byte[] optionalSealed(WireReader r) {
        return r.flag() ? r.bytes(ChecksumSealer.SEALED_BYTES) : null;
    }

    private static void optionalVectors(WireWriter w, SealedVectors vectors) {
        w.flag(vectors != null);
        if (vectors != null) {
            vectors(w, vectors);
        }
    }

    private static void vectors(WireWriter w, SealedVectors vectors) {
        w.i32(vectors.count()).i32(vectors.size());
        for (Part part : Part.values()) {
            for (int i = 0; i < vectors.size(); i++) {
                w.bytes(sealed(vectors.get(part, i)));
            }
        }
    }

    /** An add's sealed checksums: its count in [1, 2^(k-b)], at most {@link ServerParameters#maxAddVectors} vectors. */
    private SealedVectors vectors(WireReader r) {
        int count = addCount(r);
        int size = r.bounded(0, params.maxAddVectors(), "vectors of an add");
        byte[][][] parts = sealedParts(r, size);
        return new SealedVectors(count, parts[0], parts[1]);
    }

    private int addCount(WireReader r) {
        return r.bounded(1, 1 << params.hK(), "add count");
    }

    private static void level(WireWriter w, SealedLevel level) {
        w.i32(level.level()).i32(level.partSize());
        for (Part part : Part.values()) {
            for (byte[] s : level.part(part)) {
                w.bytes(sealed(s));
            }
        }
    }

    private static SealedLevel levelBody(WireReader r, int level, int partSize) {
        r.bounded(partSize, partSize, "checksums per part of level " + level);
        byte[][][] parts = sealedParts(r, partSize);
        return new SealedLevel(level, parts[0], parts[1]);
    }

    /** {@code size} sealed checksums of part X, then of part Y, once the payload is known to hold them. */
    private static byte[][][] sealedParts(WireReader r, int size) {
        r.expect(2L * size, ChecksumSealer.SEALED_BYTES, "sealed checksums");
        byte[][][] parts = new byte[2][size][];
        for (byte[][] part : parts) {
            for (int i = 0; i < size; i++) {
                part[i] = r.bytes(ChecksumSealer.SEALED_BYTES);
            }
        }
        return parts;
    }

    private void provenBlock(WireWriter w, ProvenBlock block) {
        w.i32(block.index()).bytes(fixed(block.blockInPlace(), params.blockBytes(), "block")); // read, not kept
        optionalSealed(w, block.sealedChecksum());
        proof(w, block.proof());
    }

    private ProvenBlock provenBlock(WireReader r) {
        int index = index(r);
        byte[] block = r.bytes(params.blockBytes());
        byte[] sealed = optionalSealed(r);
        MerkleProof proof = proof(r);
        return ProvenBlock.owning(index, block, sealed, proof); // fresh arrays of the reader's
    }

    private static void proof(WireWriter w, MerkleProof proof) {
        w.i32(proof.index()).u8(proof.siblings().length);
        for (byte[] s : proof.siblings()) {
            w.bytes(s);
        }
    }

    private MerkleProof proof(WireReader r) {
        int index = index(r);
        int count = r.u8();
        if (count > ServerParameters.MAX_PROOF_SIBLINGS) {
            throw new MalformedFrameException("a Merkle path of " + count + " siblings");
        }
        r.expect(count, MerkleHash.BYTES, "siblings");
        byte[][] siblings = new byte[count][];
        for (int i = 0; i < count; i++) {
            siblings[i] = r.bytes(MerkleHash.BYTES);
        }
        return checked(() -> new MerkleProof(index, siblings));
    }

    private static <T> T checked(java.util.function.Supplier<T> make) {
        try {
            return make.get();
        } catch (IllegalArgumentException e) {
            throw new MalformedFrameException(e.getMessage());
        }
    }
}
