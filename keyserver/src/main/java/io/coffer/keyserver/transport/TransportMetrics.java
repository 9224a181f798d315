package io.coffer.keyserver.transport;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/**
 * The key server's meters: queries and elements per transport, batch sizes, drops by reason, rate-limit
 * hits by outcome, TLS handshake failures and request latency (arrival to answer, rate-limit delay
 * included).
 */
public final class TransportMetrics {
    private final MeterRegistry registry;
    private final DistributionSummary batchSize;
    private final Timer latency;

    public TransportMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.batchSize = DistributionSummary.builder("keyserver.batch.size").description("elements per query").register(registry);
        this.latency = Timer.builder("keyserver.request.latency").description("query arrival to answer").register(registry);
        for (DropReason r : DropReason.values()) {
            drops(r);
        }
    }

    public MeterRegistry registry() {
        return registry;
    }

    public void query(String transport, int elements) {
        Counter.builder("keyserver.queries").tag("transport", transport).register(registry).increment();
        Counter.builder("keyserver.elements").tag("transport", transport).register(registry).increment(elements);
        batchSize.record(elements);
    }

    private Counter drops(DropReason reason) {
        return Counter.builder("keyserver.drops").tag("reason", reason.label()).register(registry);
    }

    public void drop(DropReason reason) {
        drops(reason).increment();
    }

    public double dropCount(DropReason reason) {
        return drops(reason).count();
    }

    /** outcome: "limited" (budget exhausted) or "busy" (active-client list). */
    public void rateLimitHit(String outcome) {
        Counter.builder("keyserver.rate.limit.hits").tag("outcome", outcome).register(registry).increment();
    }

    public void handshakeFailure() {
        Counter.builder("keyserver.tls.handshake.failures").register(registry).increment();
    }

    public void latency(long nanos) {
        latency.record(nanos, TimeUnit.NANOSECONDS);
    }

    public double count(String name, String tagKey, String tagValue) {
        Counter c = registry.find(name).tag(tagKey, tagValue).counter();
        return c == null ? 0 : c.count();
    }
}
