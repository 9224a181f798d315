package io.coffer.sdk.key;

import io.coffer.sdk.crypto.ChunkKey;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Measures a key source as Micrometer meters: {@value #DURATION} (round trip of one {@code keysFor} call, a timer with a
 * histogram tagged {@code outcome} success or error), {@value #BATCH} (chunk hashes per call) and {@value #UP} (1 while
 * the last call succeeded, 0 from a failed call until the next success; 1 before the first call). The engine's
 * fallbacks to random keys are counted where they happen ({@code coffer.keysource.fallbacks}).
 */
public final class MeteredKeySource implements KeySource {
    static final String DURATION = "coffer.keysource.request.duration";
    static final String BATCH = "coffer.keysource.batch.size";
    static final String UP = "coffer.keysource.up";

    private final KeySource delegate;
    private final Timer success;
    private final Timer error;
    private final DistributionSummary batch;
    private final AtomicInteger up = new AtomicInteger(1);

    public MeteredKeySource(KeySource delegate, MeterRegistry registry) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        String source = delegate.name();
        success = timer(registry, source, "success");
        error = timer(registry, source, "error");
        batch = DistributionSummary.builder(BATCH).description("chunk hashes per key-source call")
                .tag("source", source).register(registry);
        Gauge.builder(UP, up, AtomicInteger::get).description("1 while the key source's last call succeeded")
                .tag("source", source).register(registry);
    }

    private static Timer timer(MeterRegistry registry, String source, String outcome) {
        return Timer.builder(DURATION).description("key-source call round trip by outcome").tag("source", source)
                .tag("outcome", outcome).publishPercentileHistogram().minimumExpectedValue(Duration.ofNanos(100_000))
                .maximumExpectedValue(Duration.ofSeconds(30)).register(registry);
    }

    @Override
    public List<ChunkKey> keysFor(List<byte[]> chunkHashes) throws KeySourceException {
        long start = System.nanoTime();
        batch.record(chunkHashes.size());
        try {
            List<ChunkKey> keys = delegate.keysFor(chunkHashes);
            success.record(Duration.ofNanos(System.nanoTime() - start));
            up.set(1);
            return keys;
        } catch (KeySourceException | RuntimeException | Error e) {
            error.record(Duration.ofNanos(System.nanoTime() - start));
            up.set(0);
            throw e;
        }
    }

    @Override
    public boolean messageLocked() {
        return delegate.messageLocked();
    }

    @Override
    public boolean remote() {
        return delegate.remote();
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
