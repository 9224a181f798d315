package io.coffer.keyserver.server;

import io.coffer.keyserver.oprf.Evaluation;
import io.coffer.keyserver.oprf.KeyId;
import io.coffer.keyserver.oprf.Oprf;
import io.coffer.keyserver.oprf.OprfException;
import io.coffer.keyserver.oprf.OprfPrivateKey;
import io.coffer.keyserver.oprf.OprfServer;
import io.coffer.keyserver.oprf.Suite;
import io.coffer.keyserver.ratelimit.Admission;
import io.coffer.keyserver.ratelimit.RateLimiter;
import io.coffer.keyserver.transport.QueryHandler;
import io.coffer.keyserver.transport.TransportMetrics;
import io.coffer.keyserver.wire.EvaluationRequest;
import io.coffer.keyserver.wire.EvaluationResponse;
import io.coffer.keyserver.wire.Status;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Looks up the key a query names, applies the rate limiter, evaluates on the worker pool at once and, when
 * the limiter imposes a delay, holds the answer on a scheduler (never on a network thread) until that delay
 * has passed since the query arrived: the client waits the configured delay, not the delay plus the queue
 * and the evaluation. Every admitted query releases the client's active-client entry once answered (or
 * shed), whatever the outcome. Under overload (worker queue full, or a query
 * that waited longer than the configured queue delay) the stage completes exceptionally with
 * {@link Overloaded}: OPRFv2 drops the datagram (counted as {@code overload}), OPRFv1 answers SERVER_ERROR
 * (HTTP 503, which the client retries).
 */
final class QueryEvaluator implements QueryHandler {
    private final Map<KeyId, OprfPrivateKey> keys;
    private final Map<ServerKey, OprfServer> servers = new ConcurrentHashMap<>();
    private final RateLimiter limiter;
    private final ScheduledExecutorService scheduler;
    private final ExecutorService workers;
    private final TransportMetrics metrics;

    private final long maxQueueNanos;
    private final LongSupplier clock;

    /**
     * @param maxQueueNanos a query that waited longer than this for a worker is not evaluated: its client
     *     has most likely given up (the client's per-try timeout is 500 ms by default), and evaluating it would
     *     only delay the queries behind it. Its stage completes exceptionally with {@link Overloaded}.
     * @param clock nanosecond clock for queue waits
     */
    QueryEvaluator(Map<KeyId, OprfPrivateKey> keys, RateLimiter limiter, ScheduledExecutorService scheduler,
            ExecutorService workers, TransportMetrics metrics, long maxQueueNanos, LongSupplier clock) {
        this.keys = Map.copyOf(keys);
        this.limiter = limiter;
        this.scheduler = scheduler;
        this.workers = workers;
        this.metrics = metrics;
        this.maxQueueNanos = maxQueueNanos;
        this.clock = clock;
    }

    /** The evaluator of one key in one suite. */
    private record ServerKey(KeyId keyId, Suite suite) {}

    /** A query not evaluated because the server is overloaded (queue full, or waited too long in it). */
    static final class Overloaded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Overloaded(String message) {
            super(message, null, false, false);
        }
    }

    @Override
    public CompletionStage<EvaluationResponse> handle(String client, String transport, EvaluationRequest request) {
        long arrival = System.nanoTime();
        metrics.query(transport, request.count());
        Suite suite = request.suite();
        KeyId keyId = request.keyId();
        OprfPrivateKey key = keys.get(keyId);
        if (key == null) {
            return CompletableFuture.completedFuture(EvaluationResponse.error(Status.UNKNOWN_KEY, suite, keyId));
        }
        if (!key.publicKey().supports(suite)) {
            return CompletableFuture.completedFuture(EvaluationResponse.error(Status.BAD_REQUEST, suite, keyId));
        }
        OprfServer server = servers.computeIfAbsent(new ServerKey(keyId, suite), k -> Oprf.server(key, suite));
        if (request.elementLength() != server.elementLength()) {
            return CompletableFuture.completedFuture(EvaluationResponse.error(Status.BAD_REQUEST, suite, keyId));
        }
        Admission admission = limiter.admit(client, request.count());
        switch (admission.outcome()) {
            case RATE_LIMITED:
                metrics.rateLimitHit("limited");
                return CompletableFuture.completedFuture(EvaluationResponse.error(Status.RATE_LIMITED, suite, keyId));
            case BUSY:
                metrics.rateLimitHit("busy");
                return CompletableFuture.completedFuture(EvaluationResponse.error(Status.BUSY, suite, keyId));
            default:
                break;
        }
        // the delay runs from arrival while the query is evaluated: the answer leaves at arrival + delay (or when the
        // evaluation ends, if later), so a client waits what is configured, not the delay plus queueing and evaluation
        long releaseAt = arrival + admission.delayNanos();
        CompletableFuture<EvaluationResponse> answer = new CompletableFuture<>();
        long queued = clock.getAsLong();
        try {
            workers.execute(() -> {
                if (clock.getAsLong() - queued > maxQueueNanos) {
                    limiter.complete(client);
                    answer.completeExceptionally(new Overloaded("waited too long for a worker"));
                    return;
                }
                EvaluationResponse resp;
                try {
                    Evaluation ev = server.blindEvaluate(request.elements());
                    resp = EvaluationResponse.ok(suite, keyId, ev);
                } catch (OprfException e) {
                    resp = EvaluationResponse.error(Status.BAD_REQUEST, suite, keyId);
                } catch (RuntimeException e) {
                    resp = EvaluationResponse.error(Status.SERVER_ERROR, suite, keyId);
                }
                release(client, arrival, releaseAt, resp, answer);
            });
        } catch (RejectedExecutionException e) {
            limiter.complete(client);
            answer.completeExceptionally(new Overloaded("worker queue full"));
        }
        return answer;
    }

    /**
     * Completes {@code answer} with {@code resp} at {@code releaseAt} (at once if that has passed) and only then takes
     * the client off the active-client list: its query is pending until the answer leaves.
     */
    private void release(String client, long arrival, long releaseAt, EvaluationResponse resp,
                         CompletableFuture<EvaluationResponse> answer) {
        Runnable send = () -> {
            limiter.complete(client);
            metrics.latency(System.nanoTime() - arrival);
            answer.complete(resp);
        };
        long wait = releaseAt - System.nanoTime();
        if (wait <= 0) {
            send.run();
            return;
        }
        try {
            scheduler.schedule(send, wait, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // the server is stopping: an answer never leaves before its delay has passed
            limiter.complete(client);
            answer.complete(EvaluationResponse.error(Status.SERVER_ERROR, resp.suite(), resp.keyId()));
        }
    }
}
