package io.coffer.por.server;

import io.coffer.por.code.LogState;
import io.coffer.por.field.Segments;
import io.coffer.por.net.ServerParameters;
import io.coffer.por.store.ServerStorage;

/** The honest PoR server with its storage in memory ({@link ServerStorage}), which tests damage directly. */
public final class MemoryPorServer extends HonestPorServer<ServerStorage> {
    private final int maxK;

    /** A server for n = 2^k blocks of {@code blockBytes} bytes, one block per H add. */
    public MemoryPorServer(int k, int blockBytes) {
        this(k, 0, blockBytes);
    }

    /** A server for n = 2^k blocks, 2^batchExponent per H add; the client's initialisation rebuilds C first. */
    public MemoryPorServer(int k, int batchExponent, int blockBytes) {
        this(k, batchExponent, blockBytes, Math.max(k, ServerParameters.MAX_K));
    }

    /** As above, growing ({@link #resize}) up to 2^maxK blocks. */
    public MemoryPorServer(int k, int batchExponent, int blockBytes, int maxK) {
        super(new ServerStorage(k, batchExponent, blockBytes, Segments.count(blockBytes) + 1),
                LogState.empty(k - batchExponent)); // the storage has checked k and the batch exponent
        if (maxK < k) {
            throw new IllegalArgumentException("the largest k, " + maxK + ", is below k = " + k);
        }
        this.maxK = maxK;
    }

    /**
     * A server for n = 2^k blocks that rebuilds C at once at every epoch's end (no window): the former behaviour, for
     * paired measurements and tests of a server that replaces C at the epoch's end.
     */
    public static MemoryPorServer oneShot(int k, int batchExponent, int blockBytes) {
        MemoryPorServer server = new MemoryPorServer(k, batchExponent, blockBytes);
        server.rebuildCAtOnce();
        return server;
    }

    @Override
    public int maxK() {
        return maxK;
    }

    /** U copied into storage for 2^k blocks (the blocks themselves: tests damage them there), then C rebuilt. */
    @Override
    public void resize(int k, long epoch, SealedLevel c) {
        checkResize(k, maxK, epoch, c);
        resized(storage().resizedTo(k), epoch, c);
    }
}
