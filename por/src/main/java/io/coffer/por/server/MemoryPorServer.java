package io.coffer.por.server;

import io.coffer.por.code.LogState;
import io.coffer.por.field.Segments;
import io.coffer.por.store.ServerStorage;

/** The honest PoR server with its storage in memory ({@link ServerStorage}), which tests damage directly. */
public final class MemoryPorServer extends HonestPorServer<ServerStorage> {
    /** A server for n = 2^k blocks of {@code blockBytes} bytes, one block per H add. */
    public MemoryPorServer(int k, int blockBytes) {
        this(k, 0, blockBytes);
    }

    /** A server for n = 2^k blocks, 2^batchExponent per H add; the client's initialisation rebuilds C first. */
    public MemoryPorServer(int k, int batchExponent, int blockBytes) {
        super(new ServerStorage(k, batchExponent, blockBytes, Segments.count(blockBytes) + 1),
                LogState.empty(k - batchExponent)); // the storage has checked k and the batch exponent
    }
}
