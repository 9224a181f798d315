package io.coffer.por.server;

import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.audit.AuditResponse;
import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.code.BlockTag;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.CopyOnWriteSnapshot;
import io.coffer.por.code.DeamortizedSchedule;
import io.coffer.por.code.LogRun;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.code.SlicedRecovery;
import io.coffer.por.store.ClientPartStorage;
import io.coffer.por.store.WindowStorage;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * The server's side of a paced C rebuild's window (docs/POR.md, "C's rebuild paced"): opened at an epoch's end, it
 * freezes H beside the old C, keeps U's vectors aside at their first change ({@link CopyOnWriteSnapshot}) and runs
 * the window's share of {@link PacedCRebuild} into the next C after every H add, switching when the rebuild is
 * complete: at add ceil({@link PacedCRebuild#stepsToComplete} / 2^b) of the epoch, which the client computes from its
 * own counters. Until then the old C and the frozen H hold U as it was at the epoch's end, for audits and decoding.
 */
final class PacedWindow {
    private final WindowStorage storage;
    private final int batchExponent;
    private final List<LogRun> frozenRuns;
    private final Supplier<SlicedRecovery> recovery;
    private final CopyOnWriteSnapshot snapshot;
    private final PacedCRebuild rebuild;
    /** Whether the next C's sealed checksums come from the client in the window ({@link ClientPartStorage}). */
    private final ClientPartStorage clientPart;

    /**
     * Opens the window over H frozen by the caller (which starts its log over the fresh H), the rebuild at unit 0:
     * at the epoch's end, or at a restart inside the window over the copies the storage kept. With
     * {@code clientPart} the client uploads the next C's sealed checksums in the window.
     */
    PacedWindow(WindowStorage storage, Supplier<SlicedRecovery> recovery, boolean clientPart) {
        this.storage = storage;
        this.clientPart = clientPart ? (ClientPartStorage) storage : null;
        this.batchExponent = storage.batchExponent();
        this.recovery = recovery;
        int hK = storage.hParameters().k();
        this.frozenRuns = DeamortizedSchedule.runs(hK, 1 << hK); // a window follows a full epoch
        CodeParameters cParams = storage.cParameters();
        this.snapshot = new CopyOnWriteSnapshot(this::unchanged, storage.cVectors().width(), storage.copies());
        this.rebuild = new PacedCRebuild(cParams, snapshot, storage.nextCVectors(), cParams.cLevel());
    }

    /**
     * U[i] tagged, for an index unchanged since the epoch's end; a lost block is decoded from the old C and the frozen
     * H, which hold U as it was then, so a disk's loss in the window does not reach the next C.
     */
    private void unchanged(int i, int[] into) {
        byte[] block = storage.u(i);
        int[] tagged;
        if (block == null && storage.uSealed(i) != null) {
            tagged = recovery.get().recover(storage.cSlices(), List.of(frozenLayer()), new int[] {i})[0];
        } else {
            tagged = block == null ? BlockTag.empty(into.length - 1, i) : BlockTag.ofBlock(block, i);
        }
        System.arraycopy(tagged, 0, into, 0, into.length);
    }

    /** Called before a write changes U[index]: its vector at the epoch's end is kept at its first change. */
    void beforeOverwrite(int index) {
        snapshot.beforeOverwrite(index);
        if (clientPart != null) {
            clientPart.keepSealedUAside(index);
        }
    }

    /** Whether the H add that makes the epoch's {@code adds} switches: the client's rule as well. */
    boolean switchesAt(int adds) {
        return adds >= PacedCRebuild.addsToSwitch(storage.cParameters().k(), batchExponent);
    }

    /** Whether the switch has every sealed checksum of the next C (a window whose client uploads them: once all are). */
    boolean nextSealedComplete() {
        return clientPart == null || clientPart.nextSealedComplete();
    }

    /** U's sealed checksums [from, from + count) at the epoch's end: see {@link PorServer#snapshotSealedU}. */
    List<byte[]> snapshotSealedU(int from, int count) {
        ClientPartStorage part = clientPart();
        checkRange(from, count);
        List<byte[]> out = new ArrayList<>(count);
        for (int i = from; i < from + count; i++) {
            byte[] sealed = part.snapshotSealedU(i);
            out.add(sealed == null ? null : sealed.clone());
        }
        return out;
    }

    /** Keeps a part of the next C's sealed checksums: see {@link PorServer#putNextSealedC}. */
    void putNextSealedC(int from, byte[][] x, byte[][] y) {
        ClientPartStorage part = clientPart();
        checkRange(from, x.length);
        if (y.length != x.length) {
            throw new IllegalArgumentException(x.length + " sealed checksums of X, " + y.length + " of Y");
        }
        byte[][] xs = new byte[x.length][];
        byte[][] ys = new byte[y.length][];
        for (int i = 0; i < x.length; i++) {
            xs[i] = ServerChecks.sealedChecksum(x[i]);
            ys[i] = ServerChecks.sealedChecksum(y[i]);
        }
        part.setNextSealedC(from, xs, ys);
    }

    private ClientPartStorage clientPart() {
        if (clientPart == null) {
            throw new IllegalArgumentException("the window's next C has its sealed checksums from the epoch's end");
        }
        return clientPart;
    }

    private void checkRange(int from, int count) {
        int n = storage.cParameters().n();
        if (from < 0 || count <= 0 || (long) from + count > n) {
            throw new IllegalArgumentException("positions [" + from + ", " + from + " + " + count + ") outside [0, "
                    + n + ")");
        }
    }

    /** Runs the share of the epoch's first {@code adds} H adds; switches and returns true once the rebuild is done. */
    boolean advance(int adds) {
        rebuild.advanceTo((long) adds << batchExponent);
        if (!rebuild.complete()) {
            return false;
        }
        storage.switchC();
        return true;
    }

    /** Runs every remaining unit and switches: an epoch that ends with its predecessor's window still open. */
    void finish() {
        rebuild.finish();
        storage.switchC();
    }

    /** Ends the window without a switch (a resync or a grow rebuilds C in full). */
    void drop() {
        storage.dropWindow();
    }

    /** Answers an audit of the frozen H's runs: see {@link PorServer#auditFrozen}. */
    AuditResponse auditFrozen(AuditChallenge challenge, ToIntFunction<BlockAddress> levelOf) {
        if (challenge.size() == 0) {
            throw new IllegalArgumentException("an audit samples at least one block");
        }
        for (BlockAddress address : challenge.addresses()) {
            ServerChecks.audited(address, BlockAddress.Buffer.H, frozenRuns, storage.cParameters().n(), true);
        }
        return StoredCodeBlocks.prove(challenge, storage.frozenHVectors(), levelOf,
                a -> storage.frozenSealedH(a.level(), a.part(), (int) a.index()));
    }

    /** The ended epoch's runs, which the frozen H holds: audited and decoded until the switch. */
    List<LogRun> frozenRuns() {
        return frozenRuns;
    }

    /** The frozen H as a decoding layer, under the current runs. */
    SlicedRecovery.Layer frozenLayer() {
        return new SlicedRecovery.Layer(frozenRuns, storage.frozenHSlices());
    }

    /** U's vectors kept aside so far: at most one per write of the window. */
    int copies() {
        return snapshot.asideCount();
    }

    long unitsDone() {
        return rebuild.done();
    }
}
