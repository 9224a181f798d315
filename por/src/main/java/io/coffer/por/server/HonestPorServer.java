package io.coffer.por.server;

import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.audit.AuditResponse;
import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.BatchedLog;
import io.coffer.por.code.BlockTag;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.DeamortizedLog;
import io.coffer.por.code.DeamortizedSchedule;
import io.coffer.por.code.HierarchicalLog;
import io.coffer.por.code.LevelStore;
import io.coffer.por.code.LogRun;
import io.coffer.por.code.LogState;
import io.coffer.por.code.Part;
import io.coffer.por.code.SlicedRecovery;
import io.coffer.por.field.Segments;
import io.coffer.por.merkle.MerkleProof;
import io.coffer.por.store.ClientPartStorage;
import io.coffer.por.store.DecodeSpool;
import io.coffer.por.store.PorStorage;
import io.coffer.por.store.WindowStorage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * The honest PoR server over a {@link PorStorage} (in memory: {@link MemoryPorServer}; in a directory:
 * {@link io.coffer.por.store.JournaledPorServer}): stores what the client writes, runs the deamortised log's adds
 * ({@link DeamortizedLog}, per batch of 2^b blocks: a bounded number of butterflies per add) and CRebuild over the
 * blocks, tagged with their index ({@link BlockTag}), with the same code the client runs over checksums
 * ({@link BatchedLog}), keeps the client's sealed checksum of every vector of H it writes, answers audits and decodes
 * lost blocks of U from C and H. Every argument is checked: a bad call gets an {@link IllegalArgumentException} and
 * changes nothing. Not thread-safe. Open for extension only so that {@link MemoryPorServer} can name its storage's
 * type.
 */
public class HonestPorServer<S extends PorStorage> implements PorServer {
    private S storage;
    private CodeParameters cParams;
    private CodeParameters hParams;
    private BatchedLog log;
    private final PreparedDecode prepared = new PreparedDecode();
    /** A paced C rebuild's window, from an epoch's end to its switch point; null outside one. */
    private PacedWindow window;
    /** Whether a storage that keeps a window is used for one: off for benchmarks and tests of the one-shot rebuild. */
    private boolean paced = true;

    /**
     * A server over {@code storage}, its log of batches in {@code hState} (C's log in the same epoch), no batch
     * pending: a restarted server replays the writes of its pending batch.
     */
    public HonestPorServer(S storage, LogState hState) {
        this.storage = storage;
        this.cParams = storage.cParameters();
        this.hParams = storage.hParameters();
        if (hState.k() != hParams.k()) {
            throw new IllegalArgumentException("a log state for k = " + hState.k() + ", H has k = " + hParams.k());
        }
        this.log = log(hState);
    }

    /** H deamortised over the storage's three run slots per level, C's log in the same epoch; no batch pending. */
    private BatchedLog log(LogState hState) {
        return new BatchedLog(storage.batchExponent(), new DeamortizedLog(hParams, storage.hVectors(), hState),
                storage.hVectors().width(), new HierarchicalLog(cParams, storage.cVectors(),
                        new LogState(cParams.k(), 0, hState.epoch())), storage.cVectors().width());
    }

    /** The log state of H: which levels are filled, t and the epoch. */
    public final LogState state() {
        return log.h().state();
    }

    /** The number of blocks written since the last batch went into H. */
    public final int pending() {
        return log.pending();
    }

    /**
     * How many of the latest adds H's levels below {@code levels} depend on ({@link io.coffer.por.code.WriteLog
     * #addsHeldBelow}): what a durable server replays to rebuild those levels when it keeps them in memory only.
     */
    public final int addsHeldBelow(int levels) {
        return log.h().addsHeldBelow(levels);
    }

    /** The storage, for tests that damage it as a failing disk or a dishonest server would. */
    public final S storage() {
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
        return readBlocks(List.of(index)).get(0);
    }

    /** Read together from the storage ({@link PorStorage#uBlocks}): a run of adjacent blocks with one file read. */
    @Override
    public List<ProvenBlock> readBlocks(List<Integer> indices) {
        int[] at = new int[indices.size()];
        for (int i = 0; i < at.length; i++) {
            at[i] = checkIndex(indices.get(i));
        }
        byte[][] sealed = storage.uSealedAll(at);
        byte[][] blocks = storage.uBlocks(at);
        MerkleProof[] proofs = storage.proofs(at);
        List<ProvenBlock> out = new ArrayList<>(at.length);
        for (int i = 0; i < at.length; i++) {
            if (blocks[i] == null && sealed[i] != null) {
                throw new IllegalStateException("block " + at[i] + " of U is lost: repair it from C and H");
            }
            byte[] block = blocks[i] == null ? new byte[blockBytes()] : blocks[i];
            out.add(ProvenBlock.owning(at[i], block, sealed[i], proofs[i]));
        }
        return out;
    }

    @Override
    public LeafProof leaf(int index) {
        checkIndex(index);
        return new LeafProof(index, storage.uSealed(index), storage.proof(index));
    }

    @Override
    public SealedVectors sealedInputs(int count) {
        checkLayout();
        LogState state = log.h().state();
        if (state.epoch() == 0 || state.cRebuildDue() || count != state.t() + 1) {
            throw new IllegalArgumentException("the next add of H is " + (state.t() + 1) + " of epoch "
                    + state.epoch() + (state.cRebuildDue() || state.epoch() == 0 ? ", after a C rebuild" : "")
                    + ", not " + count);
        }
        List<DeamortizedSchedule.Vector> inputs = DeamortizedSchedule.inputs(hParams.k(), count);
        byte[][] x = new byte[inputs.size()][];
        byte[][] y = new byte[inputs.size()][];
        for (int i = 0; i < x.length; i++) {
            DeamortizedSchedule.Vector v = inputs.get(i);
            x[i] = storage.sealedH(v.level(), Part.X, v.position());
            y[i] = storage.sealedH(v.level(), Part.Y, v.position());
            if (x[i] == null || y[i] == null) {
                throw new IllegalStateException("the sealed checksum of vector " + v.position() + " of level "
                        + v.level() + " of H is lost");
            }
        }
        return new SealedVectors(count, x, y);
    }

    @Override
    public void write(int index, byte[] block, byte[] sealedChecksum, SealedVectors written) {
        boolean completesBatch = checkWrite(index, block, sealedChecksum, written);
        dropPrepared();
        int[] tagged = BlockTag.ofBlock(block, index);
        if (window != null) {
            window.beforeOverwrite(index);
        }
        storage.setU(index, block.clone());
        storage.setUSealed(index, sealedChecksum.clone());
        log.add(tagged);
        if (completesBatch) {
            keepWritten(written);
            advanceWindow();
        }
    }

    /** After an H add: the window's share of the paced rebuild, and the switch at its point. */
    private void advanceWindow() {
        if (storage instanceof WindowStorage w) {
            w.afterAdd();
        }
        if (window != null && window.advance(state().t())) {
            window = null;
            log = log(state()); // over the switched C; no batch is pending right after an add
        }
    }

    /**
     * Checks a {@link #write} without making it (a durable server records the call first): throws as the write
     * would; returns whether the write completes a batch, so that a level of H is rebuilt.
     */
    public final boolean checkWrite(int index, byte[] block, byte[] sealedChecksum, SealedVectors written) {
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
        if (completesBatch) {
            checkLayout();
            checkSwitchable();
        }
        ServerChecks.written(written, completesBatch, log.h().state().t() + 1, hParams.k());
        return completesBatch;
    }

    @Override
    public void flush(SealedVectors written) {
        boolean pending = checkFlush(written);
        dropPrepared();
        if (pending) {
            log.flush();
            keepWritten(written);
            advanceWindow();
        }
    }

    /** Checks a {@link #flush} without making it; returns whether blocks are pending (H gets an add). */
    public final boolean checkFlush(SealedVectors written) {
        boolean pending = log.pending() > 0;
        if (pending) {
            checkLayout();
            checkSwitchable();
        }
        if (pending && log.h().state().cRebuildDue()) {
            throw new IllegalArgumentException("C must be rebuilt before the next add");
        }
        ServerChecks.written(written, pending, log.h().state().t() + 1, hParams.k());
        return pending;
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
        checkRebuildC(c);
        dropPrepared();
        if (log.h().state().epoch() == 0 && storage.uEmpty()) {
            log.rebuildCOfEmptyU(); // a new store: only the tags are non-zero, so only they are computed
        } else if (pacesCRebuild() && log.h().state().epoch() != 0) {
            openWindow(false, epoch -> ((WindowStorage) storage).freezeH(epoch, c.x(), c.y()));
            return;
        } else {
            rebuildCFromU(k());
        }
        keepC(c);
    }

    /** Freezes H for the window of the next epoch ({@code freeze}) and opens it over the fresh H. */
    private void openWindow(boolean clientPart, LongConsumer freeze) {
        if (window != null) {
            window.finish();
        }
        long epoch = state().epoch() + 1;
        freeze.accept(epoch);
        window = new PacedWindow((WindowStorage) storage, this::recovery, clientPart);
        log = log(new LogState(hParams.k(), 0, epoch)); // over the fresh H
    }

    @Override
    public void rebuildCPaced() {
        checkRebuildCPaced();
        dropPrepared();
        openWindow(true, epoch -> ((ClientPartStorage) storage).freezeHForClient(epoch));
    }

    /** Checks a {@link #rebuildCPaced} without making it (a durable server records the call first). */
    public final void checkRebuildCPaced() {
        if (!pacesClientPart() || state().epoch() == 0) {
            throw new IllegalArgumentException("this server takes C's sealed checksums at the epoch's end");
        }
        checkRebuildCDue();
    }

    @Override
    public boolean pacesClientPart() {
        return pacesCRebuild() && storage instanceof ClientPartStorage;
    }

    @Override
    public List<byte[]> snapshotSealedU(int from, int count) {
        return inWindow().snapshotSealedU(from, count);
    }

    @Override
    public void putNextSealedC(int from, byte[][] x, byte[][] y) {
        inWindow().putNextSealedC(from, x, y);
    }

    private PacedWindow inWindow() {
        return ServerChecks.present(window, "no paced C rebuild is in its window");
    }

    /** Refuses the H add that would switch to a next C whose sealed checksums the client has not all sent. */
    private void checkSwitchable() {
        if (window != null && window.switchesAt(state().t() + 1) && !window.nextSealedComplete()) {
            throw new IllegalArgumentException("the add that switches to the next C needs all its sealed checksums");
        }
    }

    /**
     * Whether this server paces C's rebuild (its storage keeps a window: {@link WindowStorage}): the C rebuild that
     * ends an epoch then only freezes H, and the new C replaces the old at the switch point (docs/POR.md).
     */
    @Override
    public boolean pacesCRebuild() {
        return paced && storage instanceof WindowStorage;
    }

    /**
     * Reopens the window that a durable storage kept (a restart inside it): H was frozen at the epoch's end and the
     * server's log is over the fresh H; the rebuild starts again from unit 0 over the storage's copies and runs the
     * share of the adds made so far (switching if that completes it). A window that takes the client's part stays so.
     */
    public final void resumeWindow() {
        if (!pacesCRebuild() || window != null || state().epoch() == 0) {
            throw new IllegalStateException("no paced C rebuild's window to resume");
        }
        window = new PacedWindow((WindowStorage) storage, this::recovery,
                storage instanceof ClientPartStorage c && c.windowTakesClientPart());
        advanceWindow();
    }

    /** Rebuilds C at once at every epoch's end from now on, as servers without a window do. */
    protected final void rebuildCAtOnce() {
        paced = false;
    }

    /** Units of the paced rebuild done in the current window and U's vectors kept aside; null outside a window. */
    public final long[] windowProgress() {
        return window == null ? null : new long[] {window.unitsDone(), window.copies()};
    }

    /** Ends a window without its switch: C is about to be rebuilt in full. */
    private void dropWindow() {
        if (window != null) {
            window.drop();
            window = null;
        }
    }

    /**
     * The log state; while H is in the amortised layout of an older store, that of an H emptied one epoch on: no
     * client's state equals it, so a client comparing states resynchronises, which is what the store needs.
     */
    @Override
    public LogState logState() {
        LogState state = state();
        return storage.hInAmortizedLayout() ? new LogState(state.k(), 0, state.epoch() + 1) : state;
    }

    /** Discards H and the pending batch, then encodes U into C at {@code epoch}: see {@link PorServer#resync}. */
    @Override
    public void resync(long epoch, SealedLevel c) {
        resyncGrownFrom(k(), epoch, c);
    }

    /** {@link #resync} of a store grown from 2^{@code usedK} blocks ({@link BatchedLog#rebuildCOfGrownU}). */
    public final void resyncGrownFrom(int usedK, long epoch, SealedLevel c) {
        checkResync(epoch, c);
        dropPrepared();
        dropWindow();
        log = log(new LogState(hParams.k(), 0, epoch - 1));
        rebuildCFromU(usedK);
        keepC(c);
    }

    /**
     * A resize ({@link PorServer#resize}) once the caller has made {@code grown}, its storage at the new capacity
     * holding this one's U (the first 2^k blocks of it after a shrink): the server continues over it, H discarded and
     * C rebuilt from U at {@code epoch}, as a resync does. The caller checked the call with {@link #checkResize}
     * before making the storage.
     */
    protected final void resized(S grown, long epoch, SealedLevel c) {
        dropPrepared();
        dropWindow();
        int usedK = Math.min(cParams.k(), grown.cParameters().k()); // a grow's new blocks were never written
        storage = grown;
        cParams = grown.cParameters();
        hParams = grown.hParameters();
        log = log(new LogState(hParams.k(), 0, epoch - 1));
        rebuildCFromU(usedK);
        keepC(c);
    }

    /**
     * Checks a {@link PorServer#resize} to 2^{@code k} blocks, at most 2^{@code maxK} and at least a batch, without
     * making it.
     */
    public final void checkResize(int k, int maxK, long epoch, SealedLevel c) {
        if (k == cParams.k() || k > maxK || k < batchExponent()) {
            throw new IllegalArgumentException("a store of 2^" + cParams.k() + " blocks resizes to 2^k blocks with k in ["
                    + batchExponent() + ", " + maxK + "] but " + cParams.k() + ", not k = " + k);
        }
        ServerChecks.sealed(c, new CodeParameters(k).cLevel(), 1 << k);
        checkEpoch(epoch);
        checkNothingLost();
    }

    private void checkEpoch(long epoch) {
        if (epoch <= log.h().state().epoch() || epoch > MAX_EPOCH) {
            throw new IllegalArgumentException("a resynchronisation or a grow goes to an epoch after "
                    + log.h().state().epoch() + " and up to " + MAX_EPOCH + ", not to " + epoch);
        }
    }

    /** Checks a {@link #resync} without making it: throws as the resync would. */
    public final void checkResync(long epoch, SealedLevel c) {
        ServerChecks.sealed(c, cParams.cLevel(), cParams.n());
        checkEpoch(epoch);
        checkNothingLost();
    }

    private void keepC(SealedLevel c) {
        storage.clearSealedH();
        storage.setSealedC(c.x(), c.y());
    }

    /** C := the code of U, whose blocks from 2^{@code usedK} on were never written (k: any may have been). */
    private void rebuildCFromU(int usedK) {
        byte[] zero = new byte[blockBytes()];
        log.rebuildCOfGrownU((i, into) -> {
            byte[] block = storage.u(i);
            int[] tagged = BlockTag.tag(Segments.fromBytes(block == null ? zero : block, 0, blockBytes()), i);
            System.arraycopy(tagged, 0, into, 0, tagged.length);
        }, usedK);
    }

    /** Checks a {@link #rebuildC} without making it: throws as the rebuild would. */
    public final void checkRebuildC(SealedLevel c) {
        ServerChecks.sealed(c, cParams.cLevel(), cParams.n());
        checkRebuildCDue();
    }

    private void checkRebuildCDue() {
        LogState state = log.h().state();
        if (state.epoch() != 0 && !state.cRebuildDue()) {
            throw new IllegalArgumentException("C is rebuilt after every " + hParams.n() + " H adds, not at add "
                    + state.t());
        }
        if (!pacesCRebuild() || state.epoch() == 0) { // paced: a lost block is decoded when the rebuild reads it
            checkNothingLost();
        }
    }

    private void checkNothingLost() {
        for (int i = 0; i < storage.n(); i++) {
            if (storage.lost(i)) {
                throw new IllegalStateException("block " + i + " of U is lost: repair it before C is rebuilt");
            }
        }
    }

    @Override
    public AuditResponse audit(AuditChallenge challenge) {
        if (challenge.size() == 0) {
            throw new IllegalArgumentException("an audit samples at least one block");
        }
        checkLayout();
        BlockAddress.Buffer buffer = challenge.addresses().get(0).buffer();
        List<LogRun> runs = log.h().runs();
        for (BlockAddress address : challenge.addresses()) {
            ServerChecks.audited(address, buffer, runs, cParams.n(), storage.hasSealedC());
        }
        if (buffer == BlockAddress.Buffer.C) {
            return prove(challenge, storage.cVectors(), a -> storage.sealedC(a.part(), (int) a.index()));
        }
        return prove(challenge, storage.hVectors(), a -> storage.sealedH(a.level(), a.part(), (int) a.index()));
    }

    /** Answers an audit of the frozen H's runs in a paced rebuild's window: see {@link PorServer#auditFrozen}. */
    @Override
    public AuditResponse auditFrozen(AuditChallenge challenge) {
        return ServerChecks.present(window, "no paced C rebuild is in its window: no frozen H").auditFrozen(challenge,
                this::levelOf);
    }

    private AuditResponse prove(AuditChallenge challenge, LevelStore vectors,
            java.util.function.Function<BlockAddress, byte[]> sealedAt) {
        return StoredCodeBlocks.prove(challenge, vectors, this::levelOf, sealedAt);
    }

    /**
     * Decodes the distinct {@code indices} now, every level that holds one of them once, into a spool of the storage
     * ({@link PorStorage#decodeSpool}: a file for a server in a directory), from which {@link #decode} answers until
     * the next write, flush or C rebuild. The spool of an earlier prepare is dropped first.
     */
    @Override
    public void prepareDecode(List<Integer> indices) {
        indices.forEach(this::checkIndex);
        checkDecodable();
        dropPrepared();
        int[] rows = SlicedRecovery.distinct(indices.stream().mapToInt(Integer::intValue).toArray());
        DecodeSpool spool = storage.decodeSpool(rows.length, storage.cVectors().width());
        try {
            recovery().recover(storage.cSlices(), layers(), rows, spool);
        } catch (RuntimeException e) {
            spool.close();
            throw e;
        }
        prepared.keep(rows, spool, log.h().state());
    }

    /** Answered from the spool of {@link #prepareDecode} when it holds every index asked for; decoded now if not. */
    @Override
    public List<ProvenBlock> decode(List<Integer> indices) {
        indices.forEach(this::checkIndex);
        checkDecodable();
        int[][] u = prepared.rows(indices, log.h().state());
        if (u == null) {
            u = recovery().recover(storage.cSlices(), layers(), indices.stream().mapToInt(Integer::intValue).toArray());
        }
        List<ProvenBlock> out = new ArrayList<>(indices.size());
        for (int i = 0; i < indices.size(); i++) {
            int index = indices.get(i);
            byte[] block = Segments.toBytes(BlockTag.elements(u[i]), blockBytes());
            out.add(new ProvenBlock(index, block, storage.uSealed(index), storage.proof(index)));
        }
        return out;
    }

    /** H's layers over C: in a window the frozen H under the current one (the old C holds U at the epoch's end). */
    private List<SlicedRecovery.Layer> layers() {
        SlicedRecovery.Layer current = new SlicedRecovery.Layer(log.h().runs(), storage.hSlices());
        return window == null ? List.of(current) : List.of(window.frozenLayer(), current);
    }

    private SlicedRecovery recovery() {
        return new SlicedRecovery(cParams, batchExponent(), storage.cVectors().width(), DecodeBudget.bytes());
    }

    private void checkDecodable() {
        checkLayout();
        if (log.h().state().epoch() == 0) {
            throw new IllegalStateException("nothing to decode before C is built");
        }
    }

    /** Frees the spool of a prepared decode (a server closing); later decodes decode again. */
    public final void discardPreparedDecode() {
        dropPrepared();
    }

    /** Frees the spool of a prepared decode: H or C is about to change, so it would no longer be current. */
    private void dropPrepared() {
        prepared.drop();
    }

    @Override
    public void restore(int index, byte[] block) {
        checkIndex(index);
        if (block.length != blockBytes()) {
            throw new IllegalArgumentException("block of " + block.length + " bytes, expected " + blockBytes());
        }
        storage.setU(index, Arrays.copyOf(block, block.length));
    }

    /** Keeps the client's sealed checksum of every vector the add just made wrote, at its position. */
    private void keepWritten(SealedVectors written) {
        List<DeamortizedSchedule.Vector> outputs = DeamortizedSchedule.outputs(hParams.k(), written.count());
        for (int i = 0; i < outputs.size(); i++) {
            DeamortizedSchedule.Vector v = outputs.get(i);
            storage.setSealedH(v.level(), v.position(), written.get(Part.X, i), written.get(Part.Y, i));
        }
    }

    /** Refuses what uses H while it is in the amortised layout of an older store. */
    private void checkLayout() {
        if (storage.hInAmortizedLayout()) {
            throw new IllegalStateException("H is in the amortised layout of an earlier version: the client must"
                    + " resynchronise (PorClient.resync) before it is used");
        }
    }

    private int levelOf(BlockAddress address) {
        return address.buffer() == BlockAddress.Buffer.C ? cParams.cLevel() : address.level();
    }

    private int checkIndex(int index) {
        if (index < 0 || index >= storage.n()) {
            throw new IllegalArgumentException("block index " + index + " outside [0, " + storage.n() + ")");
        }
        return index;
    }
}
