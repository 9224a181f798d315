package io.coffer.por.client;

import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.audit.AuditResponse;
import io.coffer.por.code.LogState;
import io.coffer.por.server.LeafProof;
import io.coffer.por.server.PorServer;
import io.coffer.por.server.ProvenBlock;
import io.coffer.por.server.SealedLevel;
import io.coffer.por.server.SealedVectors;
import java.util.List;

/** A server that passes every call to another: each attack overrides the calls it cheats on. */
abstract class ForwardingPorServer implements PorServer {
    protected final PorServer inner;

    ForwardingPorServer(PorServer inner) {
        this.inner = inner;
    }

    @Override
    public int blockBytes() {
        return inner.blockBytes();
    }

    @Override
    public int k() {
        return inner.k();
    }

    @Override
    public int batchExponent() {
        return inner.batchExponent();
    }

    @Override
    public void prepareDecode(List<Integer> indices) {
        inner.prepareDecode(indices);
    }

    @Override
    public ProvenBlock read(int index) {
        return inner.read(index);
    }

    @Override
    public LeafProof leaf(int index) {
        return inner.leaf(index);
    }

    @Override
    public SealedVectors sealedInputs(int count) {
        return inner.sealedInputs(count);
    }

    @Override
    public void write(int index, byte[] block, byte[] sealedChecksum, SealedVectors written) {
        inner.write(index, block, sealedChecksum, written);
    }

    @Override
    public void flush(SealedVectors written) {
        inner.flush(written);
    }

    @Override
    public List<byte[]> sealedU() {
        return inner.sealedU();
    }

    @Override
    public void rebuildC(SealedLevel c) {
        inner.rebuildC(c);
    }

    @Override
    public LogState logState() {
        return inner.logState();
    }

    @Override
    public void resync(long epoch, SealedLevel c) {
        inner.resync(epoch, c);
    }

    @Override
    public int maxK() {
        return inner.maxK();
    }

    @Override
    public void resize(int k, long epoch, SealedLevel c) {
        inner.resize(k, epoch, c);
    }

    @Override
    public AuditResponse audit(AuditChallenge challenge) {
        return inner.audit(challenge);
    }

    @Override
    public AuditResponse auditFrozen(AuditChallenge challenge) {
        return inner.auditFrozen(challenge);
    }

    @Override
    public boolean pacesCRebuild() {
        return inner.pacesCRebuild();
    }

    @Override
    public List<ProvenBlock> decode(List<Integer> indices) {
        return inner.decode(indices);
    }

    @Override
    public void restore(int index, byte[] block) {
        inner.restore(index, block);
    }
}
