package io.coffer.sdk.engine;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One run's fetch: its chunks become readable one by one, each once it has arrived and been opened. Its array is
 * held by the fetch and by the reader; the last to let go gives it back to the pool, so an array a fetch still
 * writes to never goes back early.
 */
final class RunFetch {
    /** A decrypted, verified chunk: {@code length} bytes at {@code offset} of a run's buffer. */
    record Slice(byte[] array, int offset, int length) {
    }

    final int chunks;
    private final Slice[] slices;
    private int opened;
    private Throwable failure;
    private byte[] array;
    private int holders = 2;
    CompletableFuture<Void> task;
    volatile boolean abandoned;

    RunFetch(int chunks) {
        this.chunks = chunks;
        this.slices = new Slice[chunks];
    }

    synchronized void took(byte[] bytes) {
        array = bytes;
    }

    synchronized void opened(Slice slice) {
        slices[opened++] = slice;
        notifyAll();
    }

    synchronized void failed(Throwable t) {
        if (failure == null) {
            failure = t;
        }
        notifyAll();
    }

    /** Chunk {@code i} once opened; the fetch's failure if it ended before. */
    synchronized Slice await(int i) throws InterruptedException, ExecutionException {
        while (opened <= i && failure == null) {
            wait();
        }
        if (opened > i) {
            return slices[i];
        }
        throw new ExecutionException(failure);
    }

    /** The reader has gone: a fetch not yet started does not start, one running stops at its next chunk. */
    void abandon(RunArrays pool) {
        abandoned = true;
        if (task != null) {
            task.cancel(false);
        }
        letGo(pool);
    }

    void letGo(RunArrays pool) {
        byte[] give;
        synchronized (this) {
            if (--holders > 0) {
                return;
            }
            give = array;
            array = null;
        }
        if (give != null) {
            pool.give(give);
        }
    }
}
