package io.coffer.sdk.engine;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * An input stream that hands every byte it yields to an MD5 running on another thread. S3's ETag needs the MD5 of
 * the whole body, MD5 cannot be split, and it is the slowest pass on the write path: running it beside chunking,
 * hashing and encryption lets one stream go at MD5 speed on two cores. The queue is bounded (backpressure), so memory
 * stays at {@code QUEUE_BLOCKS * read size}. Small bodies are digested inline: a thread hand-off costs more than it
 * saves there.
 */
final class Md5Pipe extends FilterInputStream {
    private static final int QUEUE_BLOCKS = 32;
    private static final byte[] END = new byte[0];

    private final MessageDigest md5 = newMd5();
    private final BlockingQueue<byte[]> queue;
    private final Future<byte[]> digest;
    private long count;

    /** @param executor where the digest runs, or null to digest inline on the reading thread */
    Md5Pipe(InputStream in, ExecutorService executor) {
        super(in);
        if (executor == null) {
            queue = null;
            digest = null;
        } else {
            queue = new ArrayBlockingQueue<>(QUEUE_BLOCKS);
            digest = executor.submit(() -> {
                for (byte[] b = queue.take(); b != END; b = queue.take()) {
                    md5.update(b);
                }
                return md5.digest();
            });
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        if (n > 0) {
            count += n;
            if (queue == null) {
                md5.update(b, off, n);
            } else {
                put(java.util.Arrays.copyOfRange(b, off, off + n));
            }
        }
        return n;
    }

    @Override
    public long skip(long n) {
        return 0; // every byte must pass through the digest
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    /** Bytes read so far. */
    long count() {
        return count;
    }

    /** Waits for the digest of everything read. */
    byte[] finish() throws IOException {
        if (queue == null) {
            return md5.digest();
        }
        put(END);
        try {
            return digest.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for MD5");
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException("MD5 failed", e.getCause());
        }
    }

    /** Stops the digest thread without a result (the write failed). */
    void abandon() {
        if (digest != null) {
            digest.cancel(true);
        }
    }

    private void put(byte[] block) throws IOException {
        try {
            queue.put(block);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted feeding MD5");
        }
    }

    static MessageDigest newMd5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 unavailable", e);
        }
    }
}
