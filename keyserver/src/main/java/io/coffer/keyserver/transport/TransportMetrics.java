package io.coffer.keyserver.transport;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The key server's meters: queries and elements per transport, batch sizes, drops by reason, rate-limit
 * hits by outcome, refused sessions, TLS handshake failures and request latency (arrival to answer, rate-limit delay
 * included). Meters are looked up once and kept: a registry lookup per query costs more than the increment.
 */
public final class TransportMetrics {
    private final MeterRegistry registry;
    private final DistributionSummary batchSize;
    private final Timer latency;
    private final Map<DropReason, Counter> drops = new EnumMap<>(DropReason.class);
    /** Per transport ("v1", "v2"): {queries, elements}. */
    private final Map<String, Counter[]> queries = new ConcurrentHashMap<>();
    private final Map<String, Counter> rateLimitHits = new ConcurrentHashMap<>();

    public TransportMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.batchSize = DistributionSummary.builder("keyserver.batch.size").description("elements per query").register(registry);
        this.latency = Timer.builder("keyserver.request.latency").description("query arrival to answer").register(registry);
        for (DropReason r : DropReason.values()) {
            drops.put(r, Counter.builder("keyserver.drops").tag("reason", r.label()).register(registry));
        }
    }

    public MeterRegistry registry() {
        return registry;
    }

    public void query(String transport, int elements) {
        Counter[] c = queries.computeIfAbsent(transport, t -> new Counter[] {
            Counter.builder("keyserver.queries").tag("transport", t).register(registry),
            Counter.builder("keyserver.elements").tag("transport", t).register(registry)});
        c[0].increment();
        c[1].increment(elements);
        batchSize.record(elements);
    }

    public void drop(DropReason reason) {
        drops.get(reason).increment();
    }

    public double dropCount(DropReason reason) {
        return drops.get(reason).count();
    }

    /** outcome: "limited" (budget exhausted) or "busy" (active-client list). */
    public void rateLimitHit(String outcome) {
        rateLimitHits.computeIfAbsent(outcome, o -> Counter.builder("keyserver.rate.limit.hits").tag("outcome", o).register(registry))
                .increment();
    }

    /** reason: "client_limit" (the client holds its most live sessions) or "table_full". */
    public void sessionRefused(String reason) {
        Counter.builder("keyserver.sessions.refused").tag("reason", reason).register(registry).increment();
    }

    /** A request on a connection over its client's connection cap. */
    public void connectionRefused() {
        Counter.builder("keyserver.connections.refused").register(registry).increment();
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
