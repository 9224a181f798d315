package io.coffer.sdk.blob;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retries a store's transient failures: at most {@code maxAttempts} tries of a call, with exponential backoff and full
 * jitter between them (before try {@code n + 1}, a random wait up to {@code min(maxDelay, baseDelay * 2^(n-1))}).
 *
 * <p>Transient is any {@link IOException} that {@link #isTransient} does not name as an answer: a missing blob, a
 * blob shorter than the range asked for, a refused write, a denied permission, an interrupt. Runtime exceptions (an
 * invalid name) are never retried. The BlobStore API has no conditional writes; should it gain them, a failed
 * precondition is an answer too and belongs in that list.
 *
 * <p>What is replayed: {@link #put} re-opens its {@link BlobContent} for each try (the content promises a fresh stream
 * per {@code open()}, and a put replaces atomically, so a try after a lost response is harmless); a put whose content
 * itself fails (its stream throws, or ends before or after its declared length) is not retried, since that is the
 * caller's fault and would fail again. {@link #readInto} (and so {@link #read}) is retried whole, or with a {@code
 * Progress} from where the failed try left off. {@link #get} and {@link #list} retry only the call that opens the
 * stream or the listing: a failure while the caller reads a stream or pages a listing surfaces, because a re-opened
 * stream could belong to a blob replaced meanwhile, and a reader must never see a mix of two blobs.
 *
 * <p>Layers: {@link S3BlobStore} is not wrapped in this decorator where Coffer builds its engine, because the AWS SDK
 * already retries each HTTP request (per part of a multipart upload, honouring throttling); wrapping it would multiply
 * the attempts. This decorator is for stores without retries of their own (the directory store the engine builds by
 * default, or an embedder's store), so each request is retried by exactly one bounded layer.
 */
public final class RetryingBlobStore extends ForwardingBlobStore {

    /** Tries per call, the first one included. */
    public static final int DEFAULT_MAX_ATTEMPTS = 3;
    public static final Duration DEFAULT_BASE_DELAY = Duration.ofMillis(100);
    public static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(RetryingBlobStore.class);

    private final int maxAttempts;
    private final long baseDelayNanos;
    private final long maxDelayNanos;

    /** Retries {@code delegate} with the default attempts and delays. */
    public RetryingBlobStore(BlobStore delegate) {
        this(delegate, DEFAULT_MAX_ATTEMPTS, DEFAULT_BASE_DELAY, DEFAULT_MAX_DELAY);
    }

    /** Tries each call of {@code delegate} up to {@code maxAttempts} times (1: no retries). */
    public RetryingBlobStore(BlobStore delegate, int maxAttempts, Duration baseDelay, Duration maxDelay) {
        super(delegate);
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
        }
        if (baseDelay.isNegative() || maxDelay.compareTo(baseDelay) < 0) {
            throw new IllegalArgumentException("need 0 <= baseDelay <= maxDelay: " + baseDelay + ", " + maxDelay);
        }
        this.maxAttempts = maxAttempts;
        this.baseDelayNanos = baseDelay.toNanos();
        this.maxDelayNanos = maxDelay.toNanos();
    }

    /**
     * Whether a failure may pass if the call is tried again. Not transient: the blob is missing or shorter than asked
     * ({@link BlobNotFoundException}, {@link EOFException} and the file system's own not-found exceptions), the store
     * refuses writes ({@link ReadOnlyBlobStoreException}) or is full ({@link StorageFullException}), a permission is
     * denied or a path has the wrong kind of file, the thread was interrupted or the store closed. A socket timeout is
     * transient.
     */
    public static boolean isTransient(IOException e) {
        if (e instanceof SocketTimeoutException) {
            return true;
        }
        return !(e instanceof BlobNotFoundException || e instanceof FileNotFoundException
                || e instanceof NoSuchFileException || e instanceof EOFException
                || e instanceof ReadOnlyBlobStoreException || e instanceof StorageFullException
                || e instanceof AccessDeniedException
                || e instanceof FileAlreadyExistsException || e instanceof NotDirectoryException
                || e instanceof InterruptedIOException || e instanceof ClosedChannelException);
    }

    @Override
    public void put(String name, BlobContent content) throws IOException {
        WatchedContent watched = new WatchedContent(Objects.requireNonNull(content, "content"));
        call("put", name, watched, () -> {
            delegate().put(name, watched);
            return null;
        });
    }

    @Override
    public InputStream get(String name, long offset, long length) throws IOException {
        return call("get", name, null, () -> delegate().get(name, offset, length));
    }

    @Override
    public void readInto(String name, long offset, byte[] dst, int dstOffset, int length) throws IOException {
        call("read", name, null, () -> {
            delegate().readInto(name, offset, dst, dstOffset, length);
            return null;
        });
    }

    /**
     * Retried from where the failed try left off: the bytes already told to {@code progress} are final (the caller may
     * have used them), and a pack's bytes do not change, so a try reads only the rest.
     */
    @Override
    public void readInto(String name, long offset, byte[] dst, int dstOffset, int length, Progress progress)
            throws IOException {
        int[] arrived = {0};
        call("read", name, null, () -> {
            int from = arrived[0];
            if (from < length) {
                delegateReadInto(name, offset + from, dst, dstOffset + from, length - from, n -> {
                    arrived[0] = from + n;
                    progress.arrived(from + n);
                });
            }
            return null;
        });
    }

    @Override
    public Optional<BlobInfo> head(String name) throws IOException {
        return call("head", name, null, () -> delegate().head(name));
    }

    @Override
    public void delete(String name) throws IOException {
        call("delete", name, null, () -> {
            delegate().delete(name);
            return null;
        });
    }

    @Override
    public BlobListing list(String prefix) throws IOException {
        return call("list", prefix, null, () -> delegate().list(prefix));
    }

    @Override
    public void prepareFolders(Collection<String> prefixes) throws IOException {
        call("prepare folders", String.join(",", prefixes), null, () -> {
            delegate().prepareFolders(prefixes);
            return null;
        });
    }

    /** One call to the delegate, tried again while it fails transiently and tries are left. */
    private interface Call<T> {
        T run() throws IOException;
    }

    private <T> T call(String operation, String name, WatchedContent content, Call<T> call) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.run();
            } catch (IOException e) {
                if (attempt >= maxAttempts || !isTransient(e) || (content != null && content.failed())
                        || Thread.currentThread().isInterrupted()) {
                    throw e;
                }
                LOG.warn("{} {} on {} failed (try {} of {}), trying again: {}", operation, name, describe(), attempt,
                        maxAttempts, e.toString());
                if (!pause(attempt)) {
                    throw e;
                }
            }
        }
    }

    /** The longest wait, in nanoseconds, after failed try {@code attempt}: the base doubled per try, up to the max. */
    long backoffCap(int attempt) {
        int doublings = attempt - 1;
        if (baseDelayNanos == 0 || doublings >= Long.numberOfLeadingZeros(baseDelayNanos) - 1) {
            return baseDelayNanos == 0 ? 0 : maxDelayNanos;
        }
        return Math.min(maxDelayNanos, baseDelayNanos << doublings);
    }

    /** Waits (full jitter) before try {@code attempt + 1}; false if interrupted meanwhile (the interrupt is kept). */
    private boolean pause(int attempt) {
        try {
            TimeUnit.NANOSECONDS.sleep(ThreadLocalRandom.current().nextLong(backoffCap(attempt) + 1));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The caller's content, remembering whether one of its streams failed or did not hold its declared length. */
    private static final class WatchedContent implements BlobContent {
        private final BlobContent content;
        private volatile boolean failed;

        WatchedContent(BlobContent content) {
            this.content = content;
        }

        boolean failed() {
            return failed;
        }

        @Override
        public long length() {
            return content.length();
        }

        @Override
        public InputStream open() throws IOException {
            try {
                return new WatchedStream(content.open());
            } catch (IOException | RuntimeException e) {
                failed = true;
                throw e;
            }
        }

        @Override
        public ByteBuffer inMemory() {
            return content.inMemory();
        }

        /** Counts the bytes read and marks the content failed on an exception or a length other than declared. */
        private final class WatchedStream extends FilterInputStream {
            private long delivered;

            WatchedStream(InputStream in) {
                super(in);
            }

            @Override
            public int read() throws IOException {
                int b = watch(() -> super.read());
                count(b < 0 ? -1 : 1);
                return b;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = watch(() -> super.read(b, off, len));
                count(n);
                return n;
            }

            @Override
            public long skip(long n) throws IOException {
                long skipped = watch(() -> super.skip(n));
                delivered += skipped;
                return skipped;
            }

            private void count(int n) {
                if (n < 0 ? delivered != content.length() : (delivered += n) > content.length()) {
                    failed = true;
                }
            }

            private <T> T watch(Call<T> read) throws IOException {
                try {
                    return read.run();
                } catch (IOException | RuntimeException e) {
                    failed = true;
                    throw e;
                }
            }
        }
    }
}
