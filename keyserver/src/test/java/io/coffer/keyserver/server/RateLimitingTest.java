package io.coffer.keyserver.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.keyserver.KeyServerFixture;
import io.coffer.keyserver.client.KeyServerClient;
import io.coffer.keyserver.client.KeyServerException;
import io.coffer.keyserver.oprf.Blinded;
import io.coffer.keyserver.oprf.Oprf;
import io.coffer.keyserver.oprf.OprfClient;
import io.coffer.keyserver.pki.KeyServerDirectory;
import io.coffer.keyserver.transport.DropReason;
import io.coffer.keyserver.wire.EvaluationRequest;
import io.coffer.keyserver.wire.EvaluationResponse;
import io.coffer.keyserver.wire.Status;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rate limiting measured end to end on loopback: budgets, delay accuracy and the active-client list. */
class RateLimitingTest {
    @TempDir
    static Path tmp;
    static KeyServerDirectory dir;
    private static final AtomicInteger COUNTER = new AtomicInteger();

    @BeforeAll
    static void init() throws Exception {
        dir = KeyServerFixture.init(tmp.resolve("ks"), KeyServerInit.OprfAlgorithm.P256, "a", "b", "c");
    }

    private static List<byte[]> fresh(int n) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(("in-" + COUNTER.incrementAndGet()).getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    private static KeyServerClient client(KeyServer s, String name) throws Exception {
        return KeyServerFixture.client(dir, s, name, KeyServerClient.Transport.V2).cacheSize(0).tries(1)
                .timeout(Duration.ofSeconds(5)).connectTimeout(Duration.ofSeconds(5)).build();
    }

    @Test
    void boundedAnswersExactlyQQueriesPerEpochAndCountsBatchElements() throws Exception {
        try (KeyServer s = KeyServerFixture.start(dir, "bounded:q=10,epoch=1h");
                KeyServerClient a = client(s, "a");
                KeyServerClient b = client(s, "b")) {
            for (int i = 0; i < 10; i++) {
                assertThat(a.evaluate(fresh(1))).hasSize(1);
            }
            assertThatThrownBy(() -> a.evaluate(fresh(1))).isInstanceOfSatisfying(KeyServerException.class,
                    e -> assertThat(e.reason()).isEqualTo(KeyServerException.Reason.RATE_LIMITED));
            assertThat(b.evaluate(fresh(8))).hasSize(8);
            assertThatThrownBy(() -> b.evaluate(fresh(3))).isInstanceOf(KeyServerException.class);
            assertThat(b.evaluate(fresh(2))).hasSize(2);
            assertThat(s.metrics().count("keyserver.rate.limit.hits", "outcome", "limited")).isEqualTo(2);

            HttpClient http = KeyServerFixture.http(KeyServerFixture.tls(dir, "a", dir));
            HttpResponse<byte[]> resp = KeyServerFixture.post(http, s, "/oprf", request());
            assertThat(resp.statusCode()).isEqualTo(429);
            assertThat(EvaluationResponse.decode(resp.body()).status()).isEqualTo(Status.RATE_LIMITED);
        }
    }

    private static byte[] request() throws Exception {
        OprfClient oprf = Oprf.client(dir.loadOprfPublicKey(dir.currentKeyId()));
        Blinded bl = oprf.blind(fresh(1));
        return new EvaluationRequest(oprf.suite(), oprf.keyId(), bl.elements()).encode();
    }

    /** Milliseconds one evaluate call takes, as the client sees it. */
    private static double latencyMs(KeyServerClient c, int batch) throws Exception {
        long t0 = System.nanoTime();
        assertThat(c.evaluate(fresh(batch))).hasSize(batch);
        return (System.nanoTime() - t0) / 1e6;
    }

    /**
     * Median latency of a server without a limit, over the same path (blinding, round trip, evaluation, verification).
     * Its warm-up also compiles the client's and the server's code, so that the measured queries below do not pay for
     * the JIT. Only printed with a failure, to tell a slow machine from a wrong delay.
     */
    private static double baselineMs() throws Exception {
        try (KeyServer s = KeyServerFixture.start(dir, "none"); KeyServerClient c = client(s, "c")) {
            for (int i = 0; i < 30; i++) {
                latencyMs(c, 1);
            }
            double[] ms = new double[15];
            for (int i = 0; i < ms.length; i++) {
                ms[i] = latencyMs(c, 1);
            }
            Arrays.sort(ms);
            return ms[ms.length / 2];
        }
    }

    /** Queries per check: every one must not be early; the best of them must not be late. */
    private static final int ATTEMPTS = 3;

    /**
     * The "delays within 10% of configured", end to end over real sockets: every latency the client measures
     * (blinding, the round trip, the server's delay and evaluation, verification) is at least the configured delay, and
     * the best of {@link #ATTEMPTS} is at most 10% above it plus what a query costs without a delay (the no-delay
     * baseline, measured in the same run: the delay is the server's, the rest of the query is not part of it; 1-3 ms
     * on a quiet machine, about 8 ms under a load average of 20). The delays are 300-800 ms, so 10% is 30-80 ms. Never
     * early is the security property and holds for every query; the upper bound is taken over the best attempt because
     * an answer passes three threads (scheduler, event loop, client), and with other processes busy on both cores each
     * wake-up can wait a scheduler time slice (KeyServerLoad saw a 250 ms delay land 34 ms late that way), which says
     * nothing about the delay the server set. How close the delays land, with percentiles and smaller delays:
     * KeyServerLoad {@code --parts e}, docs/KEYSERVER-BENCHMARKS.md.
     */
    private static void assertDelay(String what, KeyServerClient c, int batch, double configuredMs, double baselineMs)
            throws Exception {
        double best = Double.MAX_VALUE;
        for (int i = 0; i < ATTEMPTS; i++) {
            double ms = latencyMs(c, batch);
            assertThat(ms).as("%s: %.2f ms measured for %.0f ms configured: early", what, ms, configuredMs)
                    .isGreaterThanOrEqualTo(configuredMs);
            best = Math.min(best, ms);
        }
        assertThat(best)
                .as("%s: best of %d %.2f ms for %.0f ms configured (no-delay baseline %.2f ms)", what, ATTEMPTS, best,
                        configuredMs, baselineMs)
                .isLessThanOrEqualTo(configuredMs * 1.1 + baselineMs);
    }

    @Test
    void fixedDelayIsWithinTenPercentOfConfiguredOnBothTransports() throws Exception {
        double base = baselineMs();
        try (KeyServer s = KeyServerFixture.start(dir, "fixed:delay=400ms");
                KeyServerClient v2 = client(s, "a");
                KeyServerClient v1 = KeyServerFixture.client(dir, s, "c", KeyServerClient.Transport.V1).cacheSize(0).tries(1)
                        .timeout(Duration.ofSeconds(5)).connectTimeout(Duration.ofSeconds(5)).build()) {
            // the first query of each client also sets up its session (KSInit, a TLS handshake): never early, not timed
            assertThat(latencyMs(v2, 1)).isGreaterThanOrEqualTo(400.0);
            assertThat(latencyMs(v1, 1)).isGreaterThanOrEqualTo(400.0);
            assertDelay("v2 query", v2, 1, 400, base);
            assertDelay("v2 batch of 2 (2 x tD)", v2, 2, 800, base);
            assertDelay("v1 query", v1, 1, 400, base);
        }
    }

    @Test
    void exponentialDelayIsWithinTenPercentOfConfiguredAsItDoublesToTheCapAfterAnIdleEpoch() throws Exception {
        double base = baselineMs();
        try (KeyServer s = KeyServerFixture.start(dir, "exp:initial=300ms,max=600ms,epoch=1s"); KeyServerClient c = client(s, "b")) {
            // sets up the session; each attempt below starts after an idle epoch, which resets the delay to 300 ms
            assertThat(latencyMs(c, 1)).isGreaterThanOrEqualTo(300.0);
            double[] configured = {300, 600, 600}; // after an idle epoch, doubled, at the cap
            double[] measured = new double[configured.length];
            boolean onTime = false;
            for (int attempt = 0; attempt < ATTEMPTS && !onTime; attempt++) {
                Thread.sleep(1100);
                onTime = true;
                for (int q = 0; q < configured.length; q++) {
                    measured[q] = latencyMs(c, 1);
                    assertThat(measured[q]).as("query %d: %.2f ms for %.0f ms configured: early", q, measured[q],
                            configured[q]).isGreaterThanOrEqualTo(configured[q]);
                    onTime &= measured[q] <= configured[q] * 1.1 + base;
                }
            }
            assertThat(onTime).as("in %d attempts, none within 10%% + the %.2f ms baseline of %s ms: last %s",
                    ATTEMPTS, base, Arrays.toString(configured), Arrays.toString(measured)).isTrue();
        }
    }

    @Test
    void activeClientListDropsSecondConcurrentQuery() throws Exception {
        try (KeyServer s = KeyServerFixture.start(dir, "fixed:delay=200ms")) {
            HttpClient http = KeyServerFixture.http(KeyServerFixture.tls(dir, "a", dir));
            KeyServerFixture.get(http, s, "/health");
            CompletableFuture<HttpResponse<byte[]>> first = CompletableFuture.supplyAsync(() -> post(http, s));
            Thread.sleep(60);
            HttpResponse<byte[]> second = post(http, s);
            assertThat(second.statusCode()).isEqualTo(429);
            assertThat(EvaluationResponse.decode(second.body()).status()).isEqualTo(Status.BUSY);
            assertThat(first.get().statusCode()).isEqualTo(200);
            assertThat(s.metrics().count("keyserver.rate.limit.hits", "outcome", "busy")).isEqualTo(1);

            // OPRFv2: the second datagram of a busy client gets no answer and counts as an "active" drop
            try (KeyServerClient slow = KeyServerFixture.client(dir, s, "b", KeyServerClient.Transport.V2)
                    .cacheSize(0).tries(1).timeout(Duration.ofMillis(1000)).build();
                    KeyServerClient eager = KeyServerFixture.client(dir, s, "b", KeyServerClient.Transport.V2)
                            .cacheSize(0).tries(1).timeout(Duration.ofMillis(300)).build()) {
                // set up both sessions first, so the timed datagrams below leave at once
                slow.evaluate(fresh(1));
                eager.evaluate(fresh(1));
                CompletableFuture<List<byte[]>> pending = CompletableFuture.supplyAsync(() -> {
                    try {
                        return slow.evaluate(fresh(1));
                    } catch (KeyServerException e) {
                        throw new IllegalStateException(e);
                    }
                });
                Thread.sleep(60);
                assertThatThrownBy(() -> eager.evaluate(fresh(1))).isInstanceOfSatisfying(KeyServerException.class,
                        e -> assertThat(e.reason()).isEqualTo(KeyServerException.Reason.UNAVAILABLE));
                assertThat(pending.get()).hasSize(1);
                assertThat(s.metrics().dropCount(DropReason.ACTIVE)).isEqualTo(1);
            }
        }
    }

    private static HttpResponse<byte[]> post(HttpClient http, KeyServer s) {
        try {
            return KeyServerFixture.post(http, s, "/oprf", request());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
