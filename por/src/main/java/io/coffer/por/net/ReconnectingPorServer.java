package io.coffer.por.net;

import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.audit.AuditResponse;
import io.coffer.por.code.LogState;
import io.coffer.por.server.LeafProof;
import io.coffer.por.server.PorServer;
import io.coffer.por.server.ProvenBlock;
import io.coffer.por.server.SealedLevel;
import io.coffer.por.server.SealedVectors;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A {@link RemotePorServer} that connects again after its connection was lost (the PoR server closes a connection
 * idle for 10 minutes, restarts, or the network breaks): without it a gateway's every later PoR call would fail until
 * it restarted. A call that fails with a {@link PorTransportException} drops the connection; the next call connects
 * anew. Calls that change nothing on the server (reads, audits, decodes) and {@code restore} (writing the same block
 * again is harmless) are retried once on the new connection; a write, flush, C rebuild or resync is not, because the
 * server may have applied it: its exception reaches the caller, who resynchronises if the server went ahead
 * ({@link io.coffer.por.client.PorClient#resync}). A server that comes back with other parameters is refused.
 * Thread-safe (calls are serialised).
 */
public final class ReconnectingPorServer implements PorServer, AutoCloseable {
    private final Supplier<RemotePorServer> connector;
    /** The server's, as its last handshake or resize stated them. */
    private volatile ServerParameters parameters;
    /** The smallest k a shrink sent through this side asked for: a reconnect may find the server there. */
    private int smallestK = Integer.MAX_VALUE;
    private RemotePorServer connection;
    private int reconnects;

    /** Connects now (so a server that cannot be reached fails here) and again through {@code connector} when needed. */
    public ReconnectingPorServer(Supplier<RemotePorServer> connector) {
        this.connector = connector;
        this.connection = connector.get();
        this.parameters = connection.parameters();
    }

    /** The server's parameters, as its first handshake stated them. */
    public ServerParameters parameters() {
        return parameters;
    }

    /** How many times a lost connection was replaced. */
    public synchronized int reconnects() {
        return reconnects;
    }

    @Override
    public int blockBytes() {
        return parameters.blockBytes();
    }

    @Override
    public int k() {
        return parameters.k();
    }

    @Override
    public int batchExponent() {
        return parameters.batchExponent();
    }

    @Override
    public ProvenBlock read(int index) {
        return retried(s -> s.read(index));
    }

    @Override
    public List<ProvenBlock> readBlocks(List<Integer> indices) {
        return retried(s -> s.readBlocks(indices));
    }

    @Override
    public LeafProof leaf(int index) {
        return retried(s -> s.leaf(index));
    }

    @Override
    public List<LeafProof> leaves(List<Integer> indices) {
        return retried(s -> s.leaves(indices));
    }

    @Override
    public SealedVectors sealedInputs(int count) {
        return retried(s -> s.sealedInputs(count));
    }

    @Override
    public void write(int index, byte[] block, byte[] sealedChecksum, SealedVectors written) {
        once(s -> {
            s.write(index, block, sealedChecksum, written);
            return null;
        });
    }

    @Override
    public void flush(SealedVectors written) {
        once(s -> {
            s.flush(written);
            return null;
        });
    }

    @Override
    public List<byte[]> sealedU() {
        return retried(RemotePorServer::sealedU);
    }

    @Override
    public void rebuildC(SealedLevel c) {
        once(s -> {
            s.rebuildC(c);
            return null;
        });
    }

    @Override
    public AuditResponse audit(AuditChallenge challenge) {
        return retried(s -> s.audit(challenge));
    }

    @Override
    public AuditResponse auditFrozen(AuditChallenge challenge) {
        return retried(s -> s.auditFrozen(challenge));
    }

    @Override
    public boolean pacesCRebuild() {
        return retried(RemotePorServer::pacesCRebuild);
    }

    @Override
    public boolean pacesClientPart() {
        return retried(RemotePorServer::pacesClientPart);
    }

    /** Not retried, as {@link #rebuildC}: the server may have applied it. */
    @Override
    public void rebuildCPaced() {
        once(s -> {
            s.rebuildCPaced();
            return null;
        });
    }

    @Override
    public List<byte[]> snapshotSealedU(int from, int count) {
        return retried(s -> s.snapshotSealedU(from, count));
    }

    /** Retried: a part sent again replaces itself. */
    @Override
    public void putNextSealedC(int from, byte[][] x, byte[][] y) {
        retried(s -> {
            s.putNextSealedC(from, x, y);
            return null;
        });
    }

    @Override
    public void prepareDecode(List<Integer> indices) {
        retried(s -> {
            s.prepareDecode(indices);
            return null;
        });
    }

    @Override
    public List<ProvenBlock> decode(List<Integer> indices) {
        return retried(s -> s.decode(indices));
    }

    @Override
    public void restore(int index, byte[] block) {
        retried(s -> {
            s.restore(index, block);
            return null;
        });
    }

    @Override
    public LogState logState() {
        return retried(RemotePorServer::logState);
    }

    @Override
    public void resync(long epoch, SealedLevel c) {
        once(s -> {
            s.resync(epoch, c);
            return null;
        });
    }

    @Override
    public int maxK() {
        return retried(RemotePorServer::maxK);
    }

    @Override
    public void resize(int k, long epoch, SealedLevel c) {
        smallestK = Math.min(smallestK, k); // a shrink whose answer is lost: the server may come back at k
        once(s -> {
            s.resize(k, epoch, c);
            parameters = s.parameters();
            return null;
        });
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            connection.close();
            connection = null;
        }
    }

    /** A call that changes nothing (or is harmless twice): retried once on a new connection if the first is lost. */
    private synchronized <T> T retried(Function<RemotePorServer, T> call) {
        try {
            return call.apply(connected());
        } catch (PorTransportException lost) {
            drop();
            try {
                return call.apply(connected());
            } catch (PorTransportException again) {
                drop();
                again.addSuppressed(lost);
                throw again;
            }
        }
    }

    /** A call the server may have applied before the connection broke: not retried, the next call reconnects. */
    private synchronized <T> T once(Function<RemotePorServer, T> call) {
        try {
            return call.apply(connected());
        } catch (PorTransportException lost) {
            drop();
            throw lost;
        }
    }

    private RemotePorServer connected() {
        if (connection == null) {
            RemotePorServer fresh = connector.get();
            ServerParameters p = fresh.parameters();
            // a larger k: the server grew (a grow whose answer was lost); a smaller one only down to a shrink this
            // side sent; the client resynchronises to it
            if (p.k() < Math.min(parameters.k(), smallestK) || p.batchExponent() != parameters.batchExponent()
                    || p.blockBytes() != parameters.blockBytes()) {
                fresh.close();
                throw new PorTransportException("the PoR server came back with other parameters: " + fresh.parameters()
                        + ", not " + parameters);
            }
            parameters = p;
            connection = fresh;
            reconnects++;
        }
        return connection;
    }

    private void drop() {
        if (connection != null) {
            connection.close();
            connection = null;
        }
    }
}
