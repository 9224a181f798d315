package io.coffer.sdk.engine;

import io.coffer.sdk.chunk.ChunkReader;
import io.coffer.sdk.digest.BodyDigest;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.security.MessageDigest;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The MD5 of everything a {@link ChunkReader} reads, computed on another thread straight from the reader's buffer.
 * S3's ETag needs the MD5 of the whole body, MD5 cannot be split, and it is the slowest pass on the write path:
 * running it beside chunking, hashing and encryption lets one stream go at MD5 speed on two cores. The digest
 * thread reads the reader's own buffer (no copy, no garbage); the reader waits in {@link #release} before it reuses
 * bytes the digest has not reached, so memory stays the reader's buffer and a queue of {@link #QUEUE_RANGES} small
 * records. Small bodies are digested inline: a thread hand-off costs more than it saves there. Where the Vector API
 * is there, large bodies go to {@link io.coffer.sdk.digest.Md5Lanes} instead, several on one thread.
 */
public final class Md5Tap implements BodyDigest {
    private static final int QUEUE_RANGES = 64;

    /** A range of the reader's buffer waiting for the digest. */
    private record Range(byte[] buf, int off, int len) {
    }

    private static final Range END = new Range(new byte[0], 0, 0);

    private final MessageDigest md5 = newMd5();
    private final BlockingQueue<Range> queue;
    private final Future<byte[]> digest;
    /** Bytes handed over (reader's thread only). */
    private long count;
    /** Bytes digested; written by the digest thread under {@code this}. */
    private long digested;

    /** @param executor where the digest runs, or null to digest inline on the reading thread */
    public Md5Tap(ExecutorService executor) {
        if (executor == null) {
            queue = null;
            digest = null;
        } else {
            queue = new ArrayBlockingQueue<>(QUEUE_RANGES);
            digest = executor.submit(this::digestQueue);
        }
    }

    private byte[] digestQueue() throws InterruptedException {
        for (Range r = queue.take(); r != END; r = queue.take()) {
            md5.update(r.buf(), r.off(), r.len());
            synchronized (this) {
                digested += r.len();
                notifyAll();
            }
        }
        return md5.digest();
    }

    @Override
    public void read(byte[] buf, int off, int len) throws IOException {
        count += len;
        if (queue == null) {
            md5.update(buf, off, len);
        } else {
            put(new Range(buf, off, len));
        }
    }

    @Override
    public void release(long end) throws IOException {
        if (queue == null) {
            return;
        }
        synchronized (this) {
            while (digested < Math.min(end, count)) {
                if (digest.isDone()) {
                    throw failure();
                }
                try {
                    wait(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted waiting for MD5");
                }
            }
        }
    }

    @Override
    public long count() {
        return count;
    }

    @Override
    public byte[] finish() throws IOException {
        if (queue == null) {
            return md5.digest();
        }
        put(END);
        try {
            return digest.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for MD5");
        } catch (ExecutionException | CancellationException e) {
            throw new IOException("MD5 failed", e.getCause() == null ? e : e.getCause());
        }
    }

    /** Why the digest thread ended before the end of the body. */
    private IOException failure() {
        try {
            digest.get();
            return new IOException("MD5 ended before the end of the body");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new InterruptedIOException("interrupted waiting for MD5");
        } catch (ExecutionException | CancellationException e) {
            return new IOException("MD5 failed", e.getCause() == null ? e : e.getCause());
        }
    }

    /** Stops the digest thread without a result (the write failed). */
    @Override
    public void abandon() {
        if (digest != null) {
            digest.cancel(true);
        }
    }

    private void put(Range range) throws IOException {
        try {
            // a digest thread that ended (failed or cancelled) drains nothing: never wait for it forever
            while (!queue.offer(range, 100, TimeUnit.MILLISECONDS)) {
                if (digest.isDone()) {
                    throw failure();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted feeding MD5");
        }
    }

    static MessageDigest newMd5() {
        return BodyDigest.jdkMd5();
    }
}
