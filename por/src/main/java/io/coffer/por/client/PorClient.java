package io.coffer.por.client;

import io.coffer.por.PorVerificationException;
import io.coffer.por.audit.AuditPlanner;
import io.coffer.por.audit.AuditVerdict;
import io.coffer.por.checksum.Checksum;
import io.coffer.por.checksum.ChecksumKey;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.BlockTag;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.DeamortizedLog;
import io.coffer.por.code.LogState;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.field.Segments;
import io.coffer.por.merkle.MerkleHash;
import io.coffer.por.merkle.MerkleProof;
import io.coffer.por.merkle.MerkleRootStream;
import io.coffer.por.merkle.MerkleTree;
import io.coffer.por.server.LeafProof;
import io.coffer.por.server.PorServer;
import io.coffer.por.server.ProvenBlock;
import io.coffer.por.server.SealedLevel;
import io.coffer.por.server.SealedVectors;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * The PoR client (section 5): writes blocks with a Merkle update of U and a sealed checksum, simulates every rebuild
 * the server performs over the checksums it downloads and uploads the new sealed checksums, verifies reads and
 * repaired blocks, and runs aggregated audits. With write batching (section 6.1, batch exponent b) a block's write
 * only adds its checksum to the pending batch's, and every 2^b-th write sends the batch to H: one deamortised add
 * ({@link DeamortizedLog}), whose O(k - b) checksums the client downloads, simulates and uploads once per batch.
 * Anything the server returns that fails a check throws {@link PorVerificationException} (a
 * {@link io.coffer.por.checksum.SealBrokenException} for a sealed checksum that does not open) and leaves the client
 * state as it was; only the C rebuild that ends an epoch comes after its write
 * is complete, so when that fails the write stands and the next write or flush runs the C rebuild first. Its state
 * ({@link ClientState}) is O(1) in n and handed to {@code persist} after every change. Not thread-safe, but for
 * {@link #check}: a caller serialises every other call, and may verify fetched blocks on several threads at once.
 */
public final class PorClient {

    private final PorServer server;
    private CodeParameters cParams;
    private CodeParameters hParams;
    private final int blockWidth;
    private final int blockBytes;
    private final ChecksumKey blockKey;
    private final ChecksumKey batchKey;
    /** U's sealer, and the one of C's and H's checksums at the current capacity ({@link ClientState#capacityBound}). */
    private final ChecksumSealer sealer;
    private ChecksumSealer levelSealer;
    private final AuditPlanner planner;
    private final Consumer<ClientState> persist;
    private final Traffic traffic = new Traffic();
    private HAddSimulation hAdd;
    private final byte[] zeroBlock;
    /** 2^b, fixed for the store's life: read without the caller's lock by {@link #prepare}. */
    private final int batchSlots;
    private ClientState state;
    /** The paths of the run of writes {@link #prefetchPaths} announced; null when none. */
    private PathCache paths;
    private final StoreResize resize;
    /** The client's part of the window's C rebuild in progress ({@link ClientState#clientPartPending}); else null. */
    private PacedClientPart clientPart;

    public PorClient(PorServer server, ClientState state, SecureRandom random, Consumer<ClientState> persist) {
        // A server of another capacity than the state: it was resized and the client crashed before it recorded so;
        // resync() follows a larger one, resync(k) a smaller one this client shrank it to.
        if (server.blockBytes() != state.blockBytes() || server.k() > server.maxK()
                || server.batchExponent() != state.batchExponent()) {
            throw new IllegalArgumentException("server holds 2^" + server.k() + " blocks of " + server.blockBytes()
                    + " bytes in batches of 2^" + server.batchExponent() + ", the client state 2^" + state.k()
                    + " of " + state.blockBytes() + " in batches of 2^" + state.batchExponent());
        }
        PorKeys keys = PorKeys.derive(state.masterKey());
        this.server = server;
        this.blockWidth = Segments.count(state.blockBytes()) + 1;
        this.blockBytes = state.blockBytes();
        this.zeroBlock = new byte[blockBytes];
        this.batchSlots = 1 << state.batchExponent();
        this.blockKey = ChecksumKey.derive(keys.checksumKey(), blockWidth);
        this.batchKey = ChecksumKey.derive(keys.batchChecksumKey(), blockWidth << state.batchExponent());
        this.sealer = new ChecksumSealer(keys.sealingKey(), random);
        this.planner = new AuditPlanner(AuditPlanner.DEFAULT_LAMBDA, random);
        this.persist = persist;
        this.state = state;
        this.resize = new StoreResize(this, server, sealer);
        atCapacity(state.k(), state.capacityBound());
    }

    /** The parameters of a store of 2^k blocks: C's log over blocks and H's over batches, and their sealer. */
    private void atCapacity(int k, boolean bound) {
        this.cParams = new CodeParameters(k);
        this.hParams = new CodeParameters(k - state.batchExponent());
        this.levelSealer = bound ? sealer.boundTo(k) : sealer;
        this.hAdd = new HAddSimulation(server, hParams, levelSealer, traffic);
        this.clientPart = null;
    }

    /** Sets up an empty store of 2^k blocks on {@code server}: C is built over the all-zero U. */
    public static PorClient initialize(PorServer server, byte[] masterKey, SecureRandom random,
            Consumer<ClientState> persist) {
        int k = server.k();
        ClientState empty = ClientState.empty(server.blockBytes(), k, server.batchExponent(), masterKey,
                MerkleTree.emptyRoot(1 << k));
        PorClient client = new PorClient(server, empty, random, persist);
        client.rebuildC();
        return client;
    }

    public ClientState state() {
        return state;
    }

    public Traffic traffic() {
        return traffic;
    }

    /** Writes {@code block} (exactly the store's block size) as block {@code index} of U. */
    public void write(int index, byte[] block) {
        write(index, block, null);
    }

    /**
     * Writes a block {@link #prepare} took the checksums of as block {@code index} of U: the checksums are completed
     * with the tag's columns (O(ROWS)) when the block lands in the batch slot it was prepared for, else computed here.
     */
    public void write(int index, Prepared prepared) {
        write(index, prepared.block, prepared);
    }

    /**
     * The checksums of {@code block} (the store's block size) under M and under M_H at batch slot {@code slot}, with
     * its tag left zero: sigma is linear (section 5.3), so {@link #write(int, Prepared)} adds the tag's columns times
     * index + 1 once the block has an index, and the result equals the full products bit for bit. Thread-safe (reads
     * the keys only), so callers take the products, most of a write's client work, before they serialise. The
     * caller must not change {@code block} afterwards.
     */
    public Prepared prepare(byte[] block, int slot) {
        if (block.length != blockBytes) {
            throw new IllegalArgumentException("block of " + block.length + " bytes, the store's are " + blockBytes);
        }
        if (slot < 0 || slot >= batchSlots) {
            throw new IllegalArgumentException("batch slot " + slot + " outside [0, " + batchSlots + ")");
        }
        if (isZero(block)) {
            return new Prepared(block, slot, Checksum.zero(), Checksum.zero());
        }
        Checksum[] sums = ChecksumKey.ofSegments(block, new ChecksumKey[] {blockKey, batchKey},
                new int[] {0, slot * blockWidth});
        return new Prepared(block, slot, sums[0], sums[1]);
    }

    /** Blocks per H add (2^b): the batch slots of {@link #prepare}. */
    public int batchSlots() {
        return batchSlots;
    }

    /** A block and its checksums with a zero tag, for one batch slot: made only by {@link #prepare}. */
    public static final class Prepared {
        private final byte[] block;
        private final int slot;
        private final Checksum blockSum;
        private final Checksum batchPart;

        private Prepared(byte[] block, int slot, Checksum blockSum, Checksum batchPart) {
            this.block = block;
            this.slot = slot;
            this.blockSum = blockSum;
            this.batchPart = batchPart;
        }
    }

    private void write(int index, byte[] block, Prepared prepared) {
        checkIndex(index);
        if (block.length != state.blockBytes()) {
            throw new IllegalArgumentException("block of " + block.length + " bytes, the store's are "
                    + state.blockBytes());
        }
        finishEpoch();
        payClientPart();
        LeafProof leaf;
        if (paths != null && paths.covers(index, state.root())) {
            leaf = paths.leaf(index);
        } else {
            leaf = server.leaf(index);
            traffic.down(leaf.wireBytes());
        }
        MerkleProof path = checkPath(index, leaf.proof(), leaf.sealedChecksum());

        int batchOffset = state.pending() * blockWidth;
        Checksum blockSum;
        Checksum batchPart;
        if (prepared != null && prepared.slot == state.pending()) {
            blockSum = prepared.blockSum.plus(blockKey.column(blockWidth - 1).times(index + 1));
            batchPart = prepared.batchPart.plus(batchKey.column(batchOffset + blockWidth - 1).times(index + 1));
        } else if (isZero(block)) {
            // A deleted block (appendix A.3) is zero but for its tag, index + 1 in the last element; sigma = M * B is
            // linear (section 5.3), so its checksums are the tag's columns of M and M_H times the tag: the same values
            // as the full products, without converting or multiplying the zero elements.
            blockSum = blockKey.column(blockWidth - 1).times(index + 1);
            batchPart = batchKey.column(batchOffset + blockWidth - 1).times(index + 1);
        } else {
            int[] tagged = BlockTag.ofBlock(block, index);
            blockSum = blockKey.checksum(tagged);
            batchPart = batchKey.checksum(tagged, batchOffset);
        }
        byte[] sealedU = sealer.sealU(index, blockSum);
        byte[] newRoot = path.rootFor(MerkleHash.leaf(sealedU));
        Checksum batchSum = state.pendingChecksum().plus(batchPart);
        int pending = state.pending() + 1;

        if (pending < 1 << state.batchExponent()) {
            send(index, block, sealedU, null);
            traffic.up(Integer.BYTES + sealedU.length);
            update(state.with(state.hLog(), pending, batchSum, newRoot));
            written(index, sealedU, path, newRoot);
            return;
        }
        HAddSimulation.HAdd add = hAdd.simulate(state.hLog(), batchSum);
        send(index, block, sealedU, add.written());
        traffic.up(Integer.BYTES + sealedU.length + add.written().wireBytes());
        update(state.with(add.after(), 0, Checksum.zero(), newRoot));
        written(index, sealedU, path, newRoot);
        if (add.after().cRebuildDue()) {
            rebuildC();
        }
    }

    /**
     * Announces a run of writes at {@code indices} (a pack's blocks): their leaves and paths are fetched with one
     * request ({@link PorServer#leaves}), each checked against the root now, and the writes of the run then take them
     * from the client's copy, kept current by each write, instead of a LEAF request per block. A write elsewhere still
     * asks the server. Replaces the paths of an earlier run.
     */
    public void prefetchPaths(List<Integer> indices) {
        paths = null;
        indices.forEach(this::checkIndex);
        List<LeafProof> leaves = server.leaves(indices);
        if (leaves.size() != indices.size()) {
            throw new PorVerificationException("asked for " + indices.size() + " leaves, got " + leaves.size());
        }
        PathCache fetched = new PathCache(cParams.k(), state.root());
        for (int i = 0; i < indices.size(); i++) {
            LeafProof leaf = leaves.get(i);
            traffic.down(leaf.wireBytes());
            if (leaf.index() != indices.get(i)) {
                throw new PorVerificationException("asked for leaf " + indices.get(i) + ", got leaf " + leaf.index());
            }
            MerkleProof path = checkPath(leaf.index(), leaf.proof(), leaf.sealedChecksum());
            fetched.add(leaf.index(), leaf.sealedChecksum(), path, state.root());
        }
        paths = fetched;
    }

    /** Drops the paths of the last run of writes (their memory). */
    public void forgetPaths() {
        paths = null;
    }

    /** Sends a write; one that fails may have been applied or not, so the run's paths are no longer trusted. */
    private void send(int index, byte[] block, byte[] sealedU, SealedVectors written) {
        try {
            server.write(index, block, sealedU, written);
        } catch (RuntimeException e) {
            paths = null;
            throw e;
        }
        traffic.block(block.length);
    }

    /** Keeps the run's paths current after a write at {@code index}. */
    private void written(int index, byte[] sealedU, MerkleProof path, byte[] newRoot) {
        if (paths != null) {
            paths.add(index, sealedU, path, newRoot);
        }
    }

    /**
     * Sends a partial batch to H now (padded with zero blocks, whose checksum is zero), so its blocks are protected by
     * the code and not only by U; with no block pending, only asks the server to make the writes so far durable (a
     * durable server forces its journal at a flush, not at every write).
     */
    public void flush() {
        finishEpoch();
        payClientPart();
        if (state.pending() == 0) {
            server.flush(null); // nothing to add, but the writes so far must be on disk when this returns
            return;
        }
        HAddSimulation.HAdd add = hAdd.simulate(state.hLog(), state.pendingChecksum());
        server.flush(add.written());
        traffic.up(add.written().wireBytes());
        update(state.with(add.after(), 0, Checksum.zero(), state.root()));
        if (add.after().cRebuildDue()) {
            rebuildC();
        }
    }

    /** Block {@code index} of U, verified against the Merkle root and its checksum. */
    public byte[] read(int index) {
        return check(fetch(index));
    }

    /**
     * Block {@code index} of U as the server serves it, with the Merkle root it must match now; {@link #check}
     * verifies it later, on any thread. Reads split this way let a caller hold its lock around the client only for
     * the fetch, while the verification (a checksum over the whole block) runs concurrently.
     */
    public Fetched fetch(int index) {
        checkIndex(index);
        ProvenBlock proven = server.read(index);
        traffic.down(proven.overheadBytes());
        traffic.block(blockBytes);
        return new Fetched(index, proven, state.root());
    }

    /**
     * Blocks {@code indices} of U as {@link #fetch} fetches each, asked of the server together
     * ({@link PorServer#readBlocks}: one request per frame's worth over the network). The server's answers are only
     * trusted once {@link #check} passes them: a block it sends for another index fails there.
     */
    public List<Fetched> fetchAll(List<Integer> indices) {
        indices.forEach(this::checkIndex);
        if (indices.isEmpty()) {
            return List.of();
        }
        List<ProvenBlock> proven = server.readBlocks(indices);
        if (proven.size() != indices.size()) {
            throw new PorVerificationException("asked for " + indices.size() + " blocks, got " + proven.size());
        }
        byte[] root = state.root();
        List<Fetched> fetched = new ArrayList<>(indices.size());
        for (int i = 0; i < indices.size(); i++) {
            traffic.down(proven.get(i).overheadBytes());
            traffic.block(blockBytes);
            fetched.add(new Fetched(indices.get(i), proven.get(i), root));
        }
        return fetched;
    }

    /**
     * The fetched block, verified against the root it was fetched under (as {@link #read} verifies it); throws
     * {@link PorVerificationException} if it fails. Thread-safe: it changes nothing and uses no shared cipher.
     */
    public byte[] check(Fetched fetched) {
        return verified(fetched.index(), fetched.proven(), fetched.root());
    }

    /** A block of U fetched under the Merkle root {@code root}, not yet verified. */
    public record Fetched(int index, ProvenBlock proven, byte[] root) {}

    /**
     * One audit ({@link ClientAudit}): C and the current runs of H, in a paced C rebuild's window before its switch
     * point the old C and the ended epoch's frozen runs as well.
     */
    public AuditVerdict audit() {
        return new ClientAudit(server, planner, levelSealer, traffic, blockKey, batchKey).audit(state);
    }

    /**
     * Repairs blocks of U: the server decodes them from C and H, the client checks each against its Merkle-verified
     * checksum, and only then lets the server store it back. Throws if any decoded block fails its check.
     */
    public void repair(List<Integer> indices) {
        new BlockRepair(this, server).repair(indices);
    }

    /**
     * Repairs the blocks {@code indices} (repeats ignored) with one decode on the server, however many they are
     * ({@link BlockRepair#repairAll}). Returns the indices not repaired, ascending (empty: all were).
     */
    public List<Integer> repairAll(List<Integer> indices) {
        return new BlockRepair(this, server).repairAll(indices);
    }

    /**
     * Resynchronises with a server that holds changes this client's state does not (the client crashed after the
     * server applied a write, a flush or a C rebuild and before it persisted its new state): U's sealed checksums are
     * downloaded and each is opened (so each is one this client sealed for that index; the server can at most serve an
     * older one, see docs/POR.md), they give the new Merkle root, and C is rebuilt over them at an epoch after both
     * sides' and after any this client may have sealed for, so no checksum of C or H sealed before can be replayed. H
     * and any pending batch are dropped (their blocks are in U, which C now encodes). Throws
     * {@link PorVerificationException} when a checksum does not open or the server's answers are malformed; the client
     * state then is the one reserved below, and a later resync starts again.
     */
    public void resync() {
        resync(cParams.k());
    }

    /**
     * {@link #resync()}, following also a server that shrank to 2^{@code smallestK} blocks or more: a caller that knows
     * it shrank the store and crashed before recording it (the blocks cut off are not checked: they are gone), so a
     * server cannot drop blocks by claiming a shrink no caller asked for.
     */
    public void resync(int smallestK) {
        paths = null; // U's root is recomputed from the server's checksums
        LogState theirs = server.logState();
        traffic.down(12);
        int k = server.k(); // above the state's after a grow this client never recorded, below after a shrink
        if (k < Math.min(smallestK, cParams.k()) || k > Math.min(server.maxK(), CodeParameters.MAX_K)
                || theirs.k() != k - state.batchExponent() || theirs.epoch() >= PorServer.MAX_EPOCH) {
            throw new PorVerificationException("the server reports an impossible log state: " + theirs + " at k = "
                    + k);
        }
        // The client may have sealed C for its epoch + 1 before it crashed: go beyond that and the server's epoch.
        long epoch = Math.max(state.hLog().epoch() + 2, theirs.epoch() + 1);
        if (epoch > PorServer.MAX_EPOCH) {
            throw new PorVerificationException("no epoch is left to resynchronise to");
        }
        // Reserve the epoch first: a crash during this resync makes the next one seal beyond it.
        update(state.with(new LogState(hParams.k(), 0, epoch - 1), 0, Checksum.zero(), state.root())
                .withWindow(false));
        atCapacity(k, true); // C resealed with k bound, H emptied: a version 2 state becomes bound
        try {
            List<byte[]> sealedU = downloadSealedU();
            byte[] root = MerkleRootStream.of(sealedU);
            // opens each checksum: throws unless this client sealed it there
            SealedLevel c = encodeC(sealedU, epoch - 1, cParams);
            server.resync(epoch, c);
            traffic.up(8 + c.wireBytes());
            update(state.with(new LogState(hParams.k(), 0, epoch), 0, Checksum.zero(), root).bound());
        } finally {
            // the state's: the server's when the resync passed, else the reserved one's
            atCapacity(state.k(), state.capacityBound());
        }
    }

    /**
     * Resizing (appendix A.3): the store grows to 2^{@code k} blocks, k at most {@link PorServer#maxK}
     * ({@link StoreResize}: one C rebuild at the new capacity, the new root computed here). Throws
     * {@link PorVerificationException} when U's checksums do not match the root; a grow whose answer was lost leaves
     * the client state at the old capacity, and the next {@link #resync} follows the server to the new one.
     */
    public void grow(int k) {
        resize.grow(k);
    }

    /**
     * Consolidation (appendix A.3): the store shrinks to 2^{@code k} blocks, every index from 2^k on holding the empty
     * block (never written or deleted); {@link StoreResize}. Throws {@link BlocksInUseException}, changing nothing,
     * when some do not.
     */
    public void shrink(int k) {
        resize.shrink(k);
    }

    /** The state after a resize the server made: at its capacity, C and H sealed bound to it. */
    void resized(ClientState next) {
        paths = null;
        atCapacity(next.k(), true);
        update(next.withWindow(false)); // C rebuilt in full at the new capacity: no window
    }

    /** Runs the C rebuild an epoch's last H add left due, if it failed then (the server's answer did not verify). */
    private void finishEpoch() {
        if (state.hLog().cRebuildDue()) {
            rebuildC();
        }
    }

    /**
     * CRebuild over checksums: U's sealed checksums (checked against the root) encoded into C's, H emptied; where the
     * server paces the client's part, only U's root is kept here ({@link #payClientPart}).
     */
    private void rebuildC() {
        long epoch = state.hLog().epoch();
        // asked first, so a lost answer leaves the client before the rebuild; a new store's first C has no window
        boolean window = epoch != 0 && server.pacesCRebuild();
        if (window && server.pacesClientPart()) {
            server.rebuildCPaced();
            update(state.with(new LogState(hParams.k(), 0, epoch + 1), 0, Checksum.zero(), state.root())
                    .withClientPart(state.root()));
            return;
        }
        List<byte[]> sealedU = downloadSealedU();
        if (!Arrays.equals(MerkleRootStream.of(sealedU), state.root())) {
            throw new PorVerificationException("U's checksums do not match the Merkle root: stale or altered");
        }
        SealedLevel c = encodeC(sealedU, epoch, cParams);
        server.rebuildC(c);
        traffic.up(c.wireBytes());
        update(state.with(new LogState(hParams.k(), 0, epoch + 1), 0, Checksum.zero(), state.root())
                .withWindow(window));
    }

    /**
     * The window's share of the client's part of C's rebuild ({@link PacedClientPart}) before this call's add; a
     * failed call restarts the part from index 0 (what it folded in may be a lying server's).
     */
    private void payClientPart() {
        if (!state.clientPartPending()) {
            clientPart = null;
            return;
        }
        if (clientPart == null) {
            clientPart = new PacedClientPart(server, traffic, cParams, levelSealer, this::neverWritten,
                    state.snapshotRoot(), state.hLog().epoch());
        }
        boolean done;
        try {
            done = clientPart.step(PacedCRebuild.addsToSwitch(cParams.k(), state.batchExponent())
                    - state.hLog().t());
        } catch (RuntimeException e) {
            clientPart = null;
            throw e;
        }
        if (done) {
            clientPart = null;
            update(state.withClientPart(null));
        }
    }

    List<byte[]> downloadSealedU() {
        List<byte[]> sealedU = server.sealedU();
        int n = cParams.n();
        if (sealedU.size() != n) {
            throw new PorVerificationException("U has " + n + " checksums, the server sent " + sealedU.size());
        }
        for (byte[] sealed : sealedU) {
            if (sealed != null) {
                traffic.down(sealed.length);
            }
        }
        traffic.down((n + 7) / 8); // which positions were never written
        return sealedU;
    }

    /**
     * C's sealed checksums for the C rebuild that ends {@code epoch}: U's opened checksums encoded, sealed as the
     * current capacity's C and H are, or for another capacity (a resize) with its k bound.
     */
    SealedLevel encodeC(List<byte[]> sealedU, long epoch, CodeParameters params) {
        ChecksumSealer s = params.k() == cParams.k() ? levelSealer : sealer.boundTo(params.k());
        return CRebuildSimulation.encode(sealedU, epoch, params, s, this::neverWritten);
    }

    /** {@code proven}'s block once its path leads to the client's root and it matches its checksum; else throws. */
    byte[] verified(int index, ProvenBlock proven) {
        return verified(index, proven, state.root());
    }

    private byte[] verified(int index, ProvenBlock proven, byte[] root) {
        if (proven.index() != index) {
            throw new PorVerificationException("asked for block " + index + ", got block " + proven.index());
        }
        byte[] block = proven.blockInPlace(); // a fetched block is verified once and handed on: no copy
        if (block.length != blockBytes) {
            throw new PorVerificationException("block " + index + " has " + block.length + " bytes");
        }
        byte[] sealed = proven.sealedChecksum();
        checkPath(index, proven.proof(), sealed, root);
        Checksum expected = sealed == null ? neverWritten(index) : sealer.openU(index, sealed);
        // sigma is linear: the segments' part plus the tag's, index + 1 in the last column (the never-written sum)
        Checksum actual = blockKey.checksumOfSegments(block, 0).plus(neverWritten(index));
        if (!actual.equals(expected)) {
            throw new PorVerificationException("block " + index + " does not match its checksum: damaged or stale");
        }
        return block;
    }

    /** Checks that {@code sealed} is leaf {@code index} under the client's root; returns the path for the update. */
    private MerkleProof checkPath(int index, MerkleProof path, byte[] sealed) {
        return checkPath(index, path, sealed, state.root());
    }

    private MerkleProof checkPath(int index, MerkleProof path, byte[] sealed, byte[] root) {
        if (path.index() != index || path.siblings().length != cParams.k()) {
            throw new PorVerificationException("Merkle path for leaf " + path.index() + " of depth "
                    + path.siblings().length + ", expected leaf " + index + " of depth " + cParams.k());
        }
        byte[] leaf = sealed == null ? MerkleHash.EMPTY_LEAF : MerkleHash.leaf(sealed);
        if (!Arrays.equals(path.rootFor(leaf), root)) {
            throw new PorVerificationException("U[" + index + "] does not match the Merkle root: stale or altered");
        }
        return path;
    }

    /** sigma of a block never written: zero but for its tag index + 1 (the last element). */
    Checksum neverWritten(int index) {
        return blockKey.column(blockWidth - 1).times(index + 1);
    }

    private void update(ClientState next) {
        state = next;
        persist.accept(next);
    }

    void checkIndex(int index) {
        if (index < 0 || index >= cParams.n()) {
            throw new IllegalArgumentException("block index " + index + " outside [0, " + cParams.n() + ")");
        }
    }

    private boolean isZero(byte[] block) {
        return Arrays.mismatch(block, zeroBlock) < 0;
    }
}
