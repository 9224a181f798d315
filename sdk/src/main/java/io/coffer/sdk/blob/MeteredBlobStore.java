package io.coffer.sdk.blob;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Measures a store as the engine sees it, as Micrometer meters: {@value #DURATION} (a timer with a histogram, tagged
 * {@code operation} put, get, read, head, delete or list and {@code outcome} success, not_found or error), and the bytes
 * that went to the store ({@value #BYTES_WRITTEN}, counted when a put succeeds) and came from it
 * ({@value #BYTES_READ}, counted as the caller reads). A get is timed until its stream is open (about the time to
 * the first byte), a list until the store hands back its listing (a lazy one reads its pages later), a read into an
 * array whole. Over a retrying store, one call is one measurement however many tries it took.
 */
public final class MeteredBlobStore extends ForwardingBlobStore {

    static final String DURATION = "coffer.blob.request.duration";
    static final String BYTES_WRITTEN = "coffer.blob.written";
    static final String BYTES_READ = "coffer.blob.read";

    /** The calls measured, as tagged. */
    private enum Operation { PUT, GET, READ, HEAD, DELETE, LIST }

    /** How a call ended, as tagged. */
    private enum Outcome { SUCCESS, NOT_FOUND, ERROR }

    private final MeterRegistry registry;
    /** Registered on first use, so that /metrics shows only the series that occurred; racing registrations agree. */
    private final Timer[][] timers = new Timer[Operation.values().length][Outcome.values().length];
    private final Counter bytesWritten;
    private final Counter bytesRead;

    /** Measures {@code delegate} into {@code registry}. */
    public MeteredBlobStore(BlobStore delegate, MeterRegistry registry) {
        super(delegate);
        this.registry = Objects.requireNonNull(registry, "registry");
        bytesWritten = Counter.builder(BYTES_WRITTEN).description("blob bytes stored by successful puts")
                .baseUnit("bytes").register(registry);
        bytesRead = Counter.builder(BYTES_READ).description("blob bytes read from the store").baseUnit("bytes")
                .register(registry);
    }

    @Override
    public void put(String name, BlobContent content) throws IOException {
        long start = System.nanoTime();
        try {
            super.put(name, content);
        } catch (IOException | RuntimeException | Error e) {
            record(Operation.PUT, e, start);
            throw e;
        }
        record(Operation.PUT, null, start);
        bytesWritten.increment(content.length());
    }

    @Override
    public InputStream get(String name, long offset, long length) throws IOException {
        long start = System.nanoTime();
        InputStream in;
        try {
            in = super.get(name, offset, length);
        } catch (IOException | RuntimeException | Error e) {
            record(Operation.GET, e, start);
            throw e;
        }
        record(Operation.GET, null, start);
        return new CountingStream(in);
    }

    @Override
    public void readInto(String name, long offset, byte[] dst, int dstOffset, int length) throws IOException {
        long start = System.nanoTime();
        try {
            super.readInto(name, offset, dst, dstOffset, length);
        } catch (IOException | RuntimeException | Error e) {
            record(Operation.READ, e, start);
            throw e;
        }
        record(Operation.READ, null, start);
        bytesRead.increment(length);
    }

    /**
     * A failure the caller's {@code progress} throws (a chunk that fails its check, a reader that has gone) stops the
     * read but is not the store's: the call counts as a success of the bytes that had arrived.
     */
    @Override
    public void readInto(String name, long offset, byte[] dst, int dstOffset, int length, Progress progress)
            throws IOException {
        long start = System.nanoTime();
        int[] arrived = {0};
        boolean[] callerFailed = {false};
        try {
            delegateReadInto(name, offset, dst, dstOffset, length, n -> {
                arrived[0] = n;
                try {
                    progress.arrived(n);
                } catch (IOException | RuntimeException e) {
                    callerFailed[0] = true;
                    throw e;
                }
            });
        } catch (IOException | RuntimeException | Error e) {
            record(Operation.READ, callerFailed[0] ? null : e, start);
            if (callerFailed[0]) {
                bytesRead.increment(arrived[0]);
            }
            throw e;
        }
        record(Operation.READ, null, start);
        bytesRead.increment(length);
    }

    @Override
    public Optional<BlobInfo> head(String name) throws IOException {
        long start = System.nanoTime();
        try {
            Optional<BlobInfo> info = super.head(name);
            record(Operation.HEAD, null, start);
            return info;
        } catch (IOException | RuntimeException | Error e) {
            record(Operation.HEAD, e, start);
            throw e;
        }
    }

    @Override
    public void delete(String name) throws IOException {
        long start = System.nanoTime();
        try {
            super.delete(name);
        } catch (IOException | RuntimeException | Error e) {
            record(Operation.DELETE, e, start);
            throw e;
        }
        record(Operation.DELETE, null, start);
    }

    @Override
    public BlobListing list(String prefix) throws IOException {
        long start = System.nanoTime();
        try {
            BlobListing listing = super.list(prefix);
            record(Operation.LIST, null, start);
            return listing;
        } catch (IOException | RuntimeException | Error e) {
            record(Operation.LIST, e, start);
            throw e;
        }
    }

    private void record(Operation op, Throwable failure, long startNanos) {
        Outcome outcome = failure == null ? Outcome.SUCCESS
                : failure instanceof BlobNotFoundException ? Outcome.NOT_FOUND : Outcome.ERROR;
        timer(op, outcome).record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    private Timer timer(Operation op, Outcome outcome) {
        Timer timer = timers[op.ordinal()][outcome.ordinal()];
        if (timer == null) {
            timer = Timer.builder(DURATION).description("blob store call latency by operation and outcome")
                    .tag("operation", tag(op)).tag("outcome", tag(outcome)).publishPercentileHistogram()
                    .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofMinutes(10))
                    .register(registry);
            timers[op.ordinal()][outcome.ordinal()] = timer;
        }
        return timer;
    }

    private static String tag(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /** Counts the bytes the caller reads from a get's stream. */
    private final class CountingStream extends FilterInputStream {
        CountingStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                bytesRead.increment();
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                bytesRead.increment(n);
            }
            return n;
        }
    }
}
