package io.coffer.gateway.http;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bounded hand-over of a request body from the event loop (producer: {@link #offer}) to the worker thread that
 * runs the S3 action (consumer: {@link #read}).
 *
 * <p>Backpressure: {@link #offer} answers true once {@code capacity} bytes are buffered; the event loop then turns
 * auto-read off. The consumer calls the {@code resume} callback once it has drained the buffer below half the
 * capacity, and the event loop turns auto-read back on. Memory per connection is therefore about {@code capacity}
 * plus one socket read, whatever the object size.
 *
 * <p>The end of the body ({@link #finish}) or its failure ({@link #fail}: connection closed, timeout) is reported to
 * the consumer after the buffered bytes (finish) or at once (fail: an IOException caused by IncompleteBody).
 * Closing the stream from the consumer releases every buffer and discards later offers.
 */
final class BodyPipe extends InputStream {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition readable = lock.newCondition();
    private final Deque<ByteBuf> buffers = new ArrayDeque<>();
    private final long capacity;
    private final Runnable resume;
    private final long readTimeoutNanos;
    private final LongAccumulator bufferedHighWater;
    private long buffered;
    private long received;
    private boolean paused;
    private boolean finished;
    private boolean closed;
    private Throwable failure;
    /** Run once, by the first read, before it waits for bytes: sends 100 Continue when the client awaits it. */
    private final AtomicReference<Runnable> beforeFirstRead = new AtomicReference<>();

    /**
     * @param capacity      bytes buffered before the producer is told to pause
     * @param resume        run (from the consumer thread) when a paused producer may continue
     * @param readTimeoutMs how long a read waits for the client before failing with RequestTimeout
     * @param bufferedHighWater told the buffered byte count after every offer (the server keeps the maximum)
     */
    BodyPipe(long capacity, Runnable resume, long readTimeoutMs, LongAccumulator bufferedHighWater) {
        this.capacity = capacity;
        this.resume = resume;
        this.readTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(readTimeoutMs);
        this.bufferedHighWater = bufferedHighWater;
    }

    /** {@code action} runs on the first read of the body (by the reading thread), once. */
    void beforeFirstRead(Runnable action) {
        beforeFirstRead.set(action);
    }

    /** Takes ownership of {@code buf}. Returns true when the producer should pause reading. */
    boolean offer(ByteBuf buf) {
        lock.lock();
        try {
            if (closed || failure != null || finished) {
                buf.release();
                return false;
            }
            int n = buf.readableBytes();
            if (n == 0) {
                buf.release();
                return false;
            }
            buffers.add(buf);
            buffered += n;
            received += n;
            bufferedHighWater.accumulate(buffered);
            readable.signalAll();
            if (buffered >= capacity) {
                paused = true;
                return true;
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    void finish() {
        lock.lock();
        try {
            finished = true;
            readable.signalAll();
        } finally {
            lock.unlock();
        }
    }

    void fail(Throwable cause) {
        lock.lock();
        try {
            if (failure == null && !finished) {
                failure = cause;
            }
            releaseAll();
            readable.signalAll();
        } finally {
            lock.unlock();
        }
    }

    boolean isFinished() {
        lock.lock();
        try {
            return finished;
        } finally {
            lock.unlock();
        }
    }

    long received() {
        lock.lock();
        try {
            return received;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        Runnable first = beforeFirstRead.getAndSet(null);
        if (first != null) {
            first.run();
        }
        boolean wake = false;
        lock.lock();
        try {
            long deadline = System.nanoTime() + readTimeoutNanos;
            while (buffers.isEmpty() && !finished && failure == null && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    failure = new S3Exception(S3ErrorCode.REQUEST_TIMEOUT);
                    break;
                }
                try {
                    readable.awaitNanos(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while reading the request body", e);
                }
            }
            if (closed) {
                throw new IOException("body stream closed");
            }
            if (buffers.isEmpty()) {
                if (failure != null) {
                    throw failure instanceof S3Exception s ? s.asIOException()
                            : new S3Exception(S3ErrorCode.INCOMPLETE_BODY, S3ErrorCode.INCOMPLETE_BODY
                            .defaultMessage(), failure).asIOException();
                }
                return -1;
            }
            int total = 0;
            while (total < len && !buffers.isEmpty()) {
                ByteBuf head = buffers.peek();
                int n = Math.min(len - total, head.readableBytes());
                head.readBytes(b, off + total, n);
                total += n;
                if (!head.isReadable()) {
                    buffers.poll().release();
                }
            }
            buffered -= total;
            if (paused && buffered <= capacity / 2) {
                paused = false;
                wake = true;
            }
            return total;
        } finally {
            lock.unlock();
            if (wake) {
                resume.run();
            }
        }
    }

    @Override
    public int available() {
        lock.lock();
        try {
            return (int) Math.min(Integer.MAX_VALUE, buffered);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        boolean wake;
        lock.lock();
        try {
            closed = true;
            releaseAll();
            wake = paused;
            paused = false;
            readable.signalAll();
        } finally {
            lock.unlock();
        }
        if (wake) {
            resume.run();
        }
    }

    private void releaseAll() {
        ByteBuf b;
        while ((b = buffers.poll()) != null) {
            b.release();
        }
        buffered = 0;
    }
}
