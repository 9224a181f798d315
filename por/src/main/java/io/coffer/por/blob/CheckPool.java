package io.coffer.por.blob;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A few daemon threads that verify a read's later blocks while its reader verifies the first, so one stream uses idle
 * cores (a verified 64 KiB block is about 0.1 ms of CPU; one after the other a stream could not go beyond a few hundred
 * MB/s). Offered tasks never block: when the bounded queue is full, or after {@link #close}, a task is simply not
 * queued and its reader runs it itself ({@link PackReader}'s readers run every task they wait for that nobody has
 * started). Threads time out when idle.
 */
final class CheckPool implements AutoCloseable {
    /** Tasks waiting at most, beyond the running ones: each refers to a block its read has already fetched. */
    private static final int QUEUED_PER_THREAD = 64;
    private static final AtomicInteger POOLS = new AtomicInteger();

    private final ThreadPoolExecutor executor;

    /** A pool of {@code threads} verifier threads. */
    CheckPool(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("a check pool needs a thread: " + threads);
        }
        int pool = POOLS.incrementAndGet();
        AtomicInteger made = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(threads * QUEUED_PER_THREAD), r -> {
                    Thread t = new Thread(r, "por-check-" + pool + "-" + made.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.DiscardPolicy());
        executor.allowCoreThreadTimeOut(true);
    }

    /** One thread fewer than the cores (the reader is the other one), at least one. */
    static CheckPool forThisMachine() {
        return new CheckPool(Math.max(1, Runtime.getRuntime().availableProcessors() - 1));
    }

    /** Queues {@code task} if there is room; otherwise whoever waits for it runs it. */
    void offer(FutureTask<?> task) {
        executor.execute(task);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
