package io.coffer.gateway.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gateway's request metrics: requests by S3 operation and status, latency histograms by operation, bytes in and
 * out, requests in flight. Meter names follow Prometheus conventions once rendered ({@code coffer_s3_...}).
 */
public final class GatewayMetrics {
    private final MeterRegistry registry;
    private final AtomicInteger inFlight = new AtomicInteger();

    public GatewayMetrics(MeterRegistry registry) {
        this.registry = registry;
        registry.gauge("coffer.s3.requests.inflight", inFlight);
    }

    public MeterRegistry registry() {
        return registry;
    }

    AtomicInteger inFlight() {
        return inFlight;
    }

    void record(String operation, int status, long bytesIn, long bytesOut, long durationNanos) {
        Counter.builder("coffer.s3.requests").description("S3 requests by operation and status")
                .tag("operation", operation).tag("status", Integer.toString(status)).register(registry).increment();
        Timer.builder("coffer.s3.request.duration").description("S3 request latency by operation")
                .tag("operation", operation).publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofMinutes(10))
                .register(registry).record(Duration.ofNanos(durationNanos));
        if (bytesIn > 0) {
            Counter.builder("coffer.s3.request.body").description("request body bytes received").baseUnit("bytes")
                    .tag("operation", operation).register(registry).increment(bytesIn);
        }
        if (bytesOut > 0) {
            Counter.builder("coffer.s3.response.body").description("response body bytes sent").baseUnit("bytes")
                    .tag("operation", operation).register(registry).increment(bytesOut);
        }
    }
}
