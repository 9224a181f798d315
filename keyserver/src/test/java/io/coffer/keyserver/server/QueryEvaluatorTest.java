package io.coffer.keyserver.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.keyserver.oprf.Blinded;
import io.coffer.keyserver.oprf.Oprf;
import io.coffer.keyserver.oprf.OprfClient;
import io.coffer.keyserver.oprf.OprfPrivateKey;
import io.coffer.keyserver.oprf.P256OprfPrivateKey;
import io.coffer.keyserver.ratelimit.RateLimitSpec;
import io.coffer.keyserver.transport.TransportMetrics;
import io.coffer.keyserver.wire.EvaluationRequest;
import io.coffer.keyserver.wire.EvaluationResponse;
import io.coffer.keyserver.wire.Status;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Overload handling of the evaluator (queries that cannot be answered in time are shed, not evaluated late) and how it
 * applies a rate-limit delay.
 */
class QueryEvaluatorTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final OprfPrivateKey KEY = P256OprfPrivateKey.generate(RANDOM);
    private static final long MAX_QUEUE = TimeUnit.MILLISECONDS.toNanos(250);

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final ThreadPoolExecutor workers = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new ArrayBlockingQueue<>(2));
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void stop() {
        release.countDown();
        workers.shutdownNow();
        scheduler.shutdownNow();
    }

    private QueryEvaluator evaluator() {
        return evaluator("none");
    }

    private QueryEvaluator evaluator(String rateLimit) {
        return new QueryEvaluator(Map.of(KEY.keyId(), KEY), RateLimitSpec.parse(rateLimit).create(), scheduler, workers,
                new TransportMetrics(new SimpleMeterRegistry()), MAX_QUEUE, clock::get);
    }

    private static EvaluationRequest request(String input) throws Exception {
        OprfClient client = Oprf.client(KEY.publicKey());
        Blinded b = client.blind(List.of(input.getBytes(StandardCharsets.UTF_8)));
        return new EvaluationRequest(client.suite(), client.keyId(), b.elements());
    }

    /** Occupies the only worker until {@link #release} opens. */
    private void blockWorker() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        workers.execute(() -> {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aQueryThatWaitedLongerThanTheQueueDelayIsShedAndTheNextOneAnswered() throws Exception {
        QueryEvaluator ev = evaluator();
        blockWorker();
        CompletableFuture<EvaluationResponse> stale = ev.handle("CN=a", "v2", request("stale")).toCompletableFuture();
        clock.addAndGet(MAX_QUEUE + 1);
        CompletableFuture<EvaluationResponse> fresh = ev.handle("CN=a", "v2", request("fresh")).toCompletableFuture();
        release.countDown();
        assertThatThrownBy(stale::join).isInstanceOf(CompletionException.class).hasCauseInstanceOf(QueryEvaluator.Overloaded.class);
        EvaluationResponse answer = fresh.get(10, TimeUnit.SECONDS);
        assertThat(answer.status()).isEqualTo(Status.OK);
        assertThat(answer.evaluation().size()).isEqualTo(1);
    }

    @Test
    void aQueryArrivingAtAFullQueueIsShedAtOnce() throws Exception {
        QueryEvaluator ev = evaluator();
        blockWorker();
        CompletableFuture<EvaluationResponse> first = ev.handle("CN=a", "v1", request("1")).toCompletableFuture();
        CompletableFuture<EvaluationResponse> second = ev.handle("CN=b", "v1", request("2")).toCompletableFuture();
        CompletableFuture<EvaluationResponse> third = ev.handle("CN=c", "v1", request("3")).toCompletableFuture();
        assertThat(third).isCompletedExceptionally();
        assertThatThrownBy(third::join).hasCauseInstanceOf(QueryEvaluator.Overloaded.class);
        assertThat(first).isNotDone();
        release.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS).status()).isEqualTo(Status.OK);
        assertThat(second.get(10, TimeUnit.SECONDS).status()).isEqualTo(Status.OK);
    }

    @Test
    void aDelayedQueryIsEvaluatedAtOnceAndItsAnswerHeldUntilTheDelayHasPassed() throws Exception {
        QueryEvaluator ev = evaluator("fixed:delay=300ms");
        long start = System.nanoTime();
        CompletableFuture<EvaluationResponse> answer = ev.handle("CN=a", "v2", request("delayed")).toCompletableFuture();
        // the evaluation does not wait for the delay: the worker finishes it while the answer is still held
        long deadline = start + TimeUnit.SECONDS.toNanos(10);
        while (workers.getCompletedTaskCount() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(workers.getCompletedTaskCount()).as("evaluated").isEqualTo(1);
        long evaluated = System.nanoTime() - start;
        if (evaluated < TimeUnit.MILLISECONDS.toNanos(300)) {
            assertThat(answer).isNotDone();
            // still pending: a second query of the same client is dropped (active-client list)
            assertThat(ev.handle("CN=a", "v2", request("second")).toCompletableFuture().join().status()).isEqualTo(Status.BUSY);
        }
        assertThat(answer.get(10, TimeUnit.SECONDS).status()).isEqualTo(Status.OK);
        assertThat(System.nanoTime() - start).as("never before the delay").isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
        // answered: the client may query again
        assertThat(ev.handle("CN=a", "v2", request("third")).toCompletableFuture().get(10, TimeUnit.SECONDS).status()).isEqualTo(Status.OK);
    }
}
