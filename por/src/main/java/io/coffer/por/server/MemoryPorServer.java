package io.coffer.por.server;

import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.audit.AuditProver;
import io.coffer.por.audit.AuditResponse;
import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.BatchedLog;
import io.coffer.por.code.BlockTag;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.LogState;
import io.coffer.por.code.MemoryLevelStore;
import io.coffer.por.code.Part;
import io.coffer.por.code.Recovery;
import io.coffer.por.field.Segments;
import io.coffer.por.store.ServerStorage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The honest PoR server over {@link ServerStorage}: stores what the client writes, runs HAdd (per batch of 2^b
 * blocks) and CRebuild over the blocks, tagged with their index ({@link BlockTag}), with the same code the client
 * runs over checksums ({@link BatchedLog}), answers audits and decodes lost blocks of U from C and H. Every argument
 * is checked: a bad call gets an {@link IllegalArgumentException} and changes nothing. Not thread-safe.
 */
public final class MemoryPorServer implements PorServer {
    private final ServerStorage storage;
    private final CodeParameters cParams;
    private final CodeParameters hParams;
    private final int blockWidth;
    private final BatchedLog log;

    /** A server for n = 2^k blocks of {@code blockBytes} bytes, one block per H add. */
    public MemoryPorServer(int k, int blockBytes) {
        this(k, 0, blockBytes);
    }

    /** A server for n = 2^k blocks, 2^batchExponent per H add; the client's initialisation rebuilds C first. */
    public MemoryPorServer(int k, int batchExponent, int blockBytes) {
        this.blockWidth = Segments.count(blockBytes) + 1;
        this.storage = new ServerStorage(k, batchExponent, blockBytes, blockWidth);
        this.cParams = storage.cParameters();
        this.hParams = storage.hParameters();
        this.log = new BatchedLog(k, batchExponent, storage.hVectors(), LogState.empty(hParams.k()),
                storage.cVectors(), LogState.empty(k));
    }

    /** The storage, for tests that damage it as a failing disk or a dishonest server would. */
    public ServerStorage storage() {
        return storage;
    }

    @Override
    public int blockBytes() {
        return storage.blockBytes();
    }

    @Override
    public int k() {
        return cParams.k();
    }

    @Override
    public int batchExponent() {
        return storage.batchExponent();
    }

    @Override
    public ProvenBlock read(int index) {
        checkIndex(index);
        byte[] block = storage.u(index);
        byte[] sealed = storage.uSealed(index);
        if (block == null && sealed != null) {
            throw new IllegalStateException("block " + index + " of U is lost: repair it from C and H");
        }
        return new ProvenBlock(index, block == null ? new byte[blockBytes()] : block, sealed,
                storage.tree().proof(index));
    }

    @Override
    public LeafProof leaf(int index) {
        checkIndex(index);
        return new LeafProof(index, storage.uSealed(index), storage.tree().proof(index));
    }

    @Override
    public SealedLevel sealedLevel(int level) {
        if (level < 0 || level > hParams.k()) {
            throw new IllegalArgumentException("H's levels are 0.." + hParams.k() + ": " + level);
        }
        byte[][] x = storage.sealedH(level, Part.X);
        byte[][] y = storage.sealedH(level, Part.Y);
        if (x == null || y == null) {
            throw new IllegalArgumentException("level " + level + " is empty");
        }
        return new SealedLevel(level, x, y);
    }

    @Override
    public void write(int index, byte[] block, byte[] sealedChecksum, SealedLevel newLevel) {
        checkIndex(index);
        if (block.length != blockBytes()) {
            throw new IllegalArgumentException("block of " + block.length + " bytes, expected " + blockBytes());
        }
        if (sealedChecksum.length != ChecksumSealer.SEALED_BYTES) {
            throw new IllegalArgumentException("sealed checksum of " + sealedChecksum.length + " bytes");
        }
        LogState state = log.h().state();
        if (state.cRebuildDue() || state.epoch() == 0) {
            throw new IllegalArgumentException("C must be rebuilt before the next write");
        }
        boolean completesBatch = log.pending() + 1 == 1 << batchExponent();
        int level = Integer.numberOfTrailingZeros(~state.t());
        checkNewLevel(newLevel, completesBatch, level);
        int[] tagged = BlockTag.tag(Segments.fromBytes(block, 0, block.length), index);
        storage.setU(index, block.clone());
        storage.setUSealed(index, sealedChecksum.clone());
        log.add(tagged);
        if (completesBatch) {
            keepNewLevel(level, newLevel);
        }
    }

    @Override
    public void flush(SealedLevel newLevel) {
        boolean pending = log.pending() > 0;
        int level = Integer.numberOfTrailingZeros(~log.h().state().t());
        checkNewLevel(newLevel, pending, level);
        if (pending) {
            log.flush();
            keepNewLevel(level, newLevel);
        }
    }

    @Override
    public List<byte[]> sealedU() {
        List<byte[]> out = new ArrayList<>(storage.n());
        for (int i = 0; i < storage.n(); i++) {
            byte[] sealed = storage.uSealed(i);
            out.add(sealed == null ? null : sealed.clone());
        }
        return out;
    }

    @Override
    public void rebuildC(SealedLevel c) {
        checkSealed(c, cParams.cLevel(), cParams.n());
        LogState state = log.h().state();
        if (state.epoch() != 0 && !state.cRebuildDue()) {
            throw new IllegalArgumentException("C is rebuilt after every " + hParams.n() + " H adds, not at add "
                    + state.t());
        }
        byte[] zero = new byte[blockBytes()];
        for (int i = 0; i < storage.n(); i++) {
            if (storage.u(i) == null && storage.uSealed(i) != null) {
                throw new IllegalStateException("block " + i + " of U is lost: repair it before C is rebuilt");
            }
        }
        log.rebuildC((i, into) -> {
            byte[] block = storage.u(i);
            int[] tagged = BlockTag.tag(Segments.fromBytes(block == null ? zero : block, 0, blockBytes()), i);
            System.arraycopy(tagged, 0, into, 0, tagged.length);
        });
        for (int level = 0; level <= hParams.k(); level++) {
            storage.clearSealedH(level);
        }
        storage.setSealedC(c.x(), c.y());
    }

    @Override
    public AuditResponse audit(AuditChallenge challenge) {
        if (challenge.size() == 0) {
            throw new IllegalArgumentException("an audit samples at least one block");
        }
        BlockAddress.Buffer buffer = challenge.addresses().get(0).buffer();
        for (BlockAddress address : challenge.addresses()) {
            checkAudited(address, buffer);
        }
        MemoryLevelStore vectors = buffer == BlockAddress.Buffer.C ? storage.cVectors() : storage.hVectors();
        return AuditProver.prove(challenge, vectors.width(), new AuditProver.CodeBlocks() {
            @Override
            public int[] block(BlockAddress address) {
                int[] v = new int[vectors.width()];
                vectors.read(levelOf(address), address.part(), (int) address.index(), v);
                return v;
            }

            @Override
            public byte[] sealedChecksum(BlockAddress address) {
                return sealed(address)[(int) address.index()];
            }
        });
    }

    @Override
    public List<ProvenBlock> decode(List<Integer> indices) {
        indices.forEach(this::checkIndex);
        if (log.h().state().epoch() == 0) {
            throw new IllegalStateException("nothing to decode before C is built");
        }
        int[][] u = new Recovery(cParams, batchExponent()).recover(log.h().state(), storage.hVectors()::copy,
                storage.cVectors()::copy);
        List<ProvenBlock> out = new ArrayList<>(indices.size());
        for (int index : indices) {
            byte[] block = Segments.toBytes(BlockTag.elements(u[index]), blockBytes());
            out.add(new ProvenBlock(index, block, storage.uSealed(index), storage.tree().proof(index)));
        }
        return out;
    }

    @Override
    public void restore(int index, byte[] block) {
        checkIndex(index);
        if (block.length != blockBytes()) {
            throw new IllegalArgumentException("block of " + block.length + " bytes, expected " + blockBytes());
        }
        storage.setU(index, Arrays.copyOf(block, block.length));
    }

    private void keepNewLevel(int level, SealedLevel newLevel) {
        for (int i = 0; i < level; i++) {
            storage.clearSealedH(i);
        }
        storage.setSealedH(level, newLevel.x(), newLevel.y());
    }

    private int levelOf(BlockAddress address) {
        return address.buffer() == BlockAddress.Buffer.C ? cParams.cLevel() : address.level();
    }

    private byte[][] sealed(BlockAddress address) {
        return address.buffer() == BlockAddress.Buffer.C ? storage.sealedC(address.part())
                : storage.sealedH(address.level(), address.part());
    }

    private void checkAudited(BlockAddress address, BlockAddress.Buffer buffer) {
        if (address.buffer() != buffer || buffer == BlockAddress.Buffer.U) {
            throw new IllegalArgumentException("an audit samples C or H, one of them per challenge: " + address);
        }
        if (buffer == BlockAddress.Buffer.H && (address.level() > hParams.k()
                || !log.h().state().filled(address.level()))) {
            throw new IllegalArgumentException("audit of an empty or missing level: " + address);
        }
        int size = buffer == BlockAddress.Buffer.C ? cParams.n() : hParams.partSize(address.level());
        if (address.index() >= size) {
            throw new IllegalArgumentException("audit address out of range: " + address);
        }
        if (sealed(address) == null) {
            throw new IllegalArgumentException("audit of a region with no checksums: " + address);
        }
    }

    private void checkNewLevel(SealedLevel newLevel, boolean expected, int level) {
        if (!expected) {
            if (newLevel != null) {
                throw new IllegalArgumentException("no level is rebuilt by this call, but checksums were sent");
            }
            return;
        }
        if (newLevel == null) {
            throw new IllegalArgumentException("level " + level + " is rebuilt: its sealed checksums are required");
        }
        checkSealed(newLevel, level, hParams.partSize(level));
    }

    private static void checkSealed(SealedLevel sealed, int level, int size) {
        if (sealed.level() != level || sealed.partSize() != size) {
            throw new IllegalArgumentException("expected the sealed checksums of level " + level + " (" + size
                    + " per part), got level " + sealed.level() + " with " + sealed.partSize());
        }
        for (Part part : Part.values()) {
            for (byte[] s : sealed.part(part)) {
                if (s == null || s.length != ChecksumSealer.SEALED_BYTES) {
                    throw new IllegalArgumentException("a sealed checksum of level " + level + " is malformed");
                }
            }
        }
    }

    private int checkIndex(int index) {
        if (index < 0 || index >= storage.n()) {
            throw new IllegalArgumentException("block index " + index + " outside [0, " + storage.n() + ")");
        }
        return index;
    }
}
