package io.coffer.por.server;

import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.audit.AuditProver;
import io.coffer.por.audit.AuditResponse;
import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.BlockTag;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.HierarchicalLog;
import io.coffer.por.code.LogState;
import io.coffer.por.code.Part;
import io.coffer.por.code.Recovery;
import io.coffer.por.field.Segments;
import io.coffer.por.store.ServerStorage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The honest PoR server over {@link ServerStorage}: stores what the client writes, runs HAdd and CRebuild over the
 * blocks (tagged with their index, {@link BlockTag}) with the same {@link HierarchicalLog} the client runs over
 * checksums, answers audits and decodes lost blocks of U from C and H. Every argument is checked: a bad call gets an
 * {@link IllegalArgumentException} and changes nothing. Not thread-safe.
 */
public final class MemoryPorServer implements PorServer {
    private final ServerStorage storage;
    private final CodeParameters params;
    private final int segments;
    private final HierarchicalLog log;

    /** A server for n = 2^k blocks of {@code blockBytes} bytes; the client's initialisation rebuilds C first. */
    public MemoryPorServer(int k, int blockBytes) {
        this.segments = Segments.count(blockBytes);
        this.storage = new ServerStorage(k, blockBytes, segments + 1);
        this.params = storage.parameters();
        this.log = new HierarchicalLog(params, storage.vectors(), LogState.empty(k));
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
        return params.k();
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
        if (level < 0 || level > params.cLevel()) {
            throw new IllegalArgumentException("level must be in [0, " + params.cLevel() + "]: " + level);
        }
        byte[][] x = storage.sealed(level, Part.X);
        byte[][] y = storage.sealed(level, Part.Y);
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
        LogState state = log.state();
        if (state.cRebuildDue() || state.epoch() == 0) {
            throw new IllegalArgumentException("C must be rebuilt before the next write");
        }
        int level = Integer.numberOfTrailingZeros(~state.t());
        checkSealed(newLevel, level);
        int[] tagged = BlockTag.tag(Segments.fromBytes(block, 0, block.length), index);
        storage.setU(index, block.clone());
        storage.setUSealed(index, sealedChecksum.clone());
        log.add(tagged);
        for (int i = 0; i < level; i++) {
            storage.clearSealed(i);
        }
        storage.setSealed(level, newLevel.x(), newLevel.y());
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
        checkSealed(c, params.cLevel());
        LogState state = log.state();
        if (state.epoch() != 0 && !state.cRebuildDue()) {
            throw new IllegalArgumentException("C is rebuilt after every " + params.n() + " writes, not at write "
                    + state.t());
        }
        byte[] zero = new byte[blockBytes()];
        log.rebuildC((i, into) -> {
            byte[] block = storage.u(i);
            if (block == null && storage.uSealed(i) != null) {
                throw new IllegalStateException("block " + i + " of U is lost: repair it before C is rebuilt");
            }
            int[] tagged = BlockTag.tag(Segments.fromBytes(block == null ? zero : block, 0, blockBytes()), i);
            System.arraycopy(tagged, 0, into, 0, tagged.length);
        });
        for (int level = 0; level <= params.k(); level++) {
            storage.clearSealed(level);
        }
        storage.setSealed(params.cLevel(), c.x(), c.y());
    }

    @Override
    public AuditResponse audit(AuditChallenge challenge) {
        for (BlockAddress address : challenge.addresses()) {
            checkAudited(address);
        }
        return AuditProver.prove(challenge, segments + 1, new AuditProver.CodeBlocks() {
            @Override
            public int[] block(BlockAddress address) {
                int[] v = new int[segments + 1];
                storage.vectors().read(levelOf(address), address.part(), (int) address.index(), v);
                return v;
            }

            @Override
            public byte[] sealedChecksum(BlockAddress address) {
                return storage.sealed(levelOf(address), address.part())[(int) address.index()];
            }
        });
    }

    @Override
    public List<ProvenBlock> decode(List<Integer> indices) {
        indices.forEach(this::checkIndex);
        if (log.state().epoch() == 0) {
            throw new IllegalStateException("nothing to decode before C is built");
        }
        int[][] u = new Recovery(params).recover(log.state(), storage.vectors()::copy);
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

    private int levelOf(BlockAddress address) {
        return address.buffer() == BlockAddress.Buffer.C ? params.cLevel() : address.level();
    }

    private void checkAudited(BlockAddress address) {
        if (address.buffer() == BlockAddress.Buffer.U) {
            throw new IllegalArgumentException("audits sample C and H, not U: " + address);
        }
        int level = levelOf(address);
        if (level > params.cLevel() || (level <= params.k() && !log.state().filled(level))) {
            throw new IllegalArgumentException("audit of an empty or missing level: " + address);
        }
        if (address.index() >= params.partSize(level)) {
            throw new IllegalArgumentException("audit address out of range: " + address);
        }
        if (storage.sealed(level, address.part()) == null) {
            throw new IllegalArgumentException("audit of a level with no checksums: " + address);
        }
    }

    private void checkSealed(SealedLevel sealed, int level) {
        int size = params.partSize(level);
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
