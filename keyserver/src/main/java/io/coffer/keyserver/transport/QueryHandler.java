package io.coffer.keyserver.transport;

import io.coffer.keyserver.wire.EvaluationRequest;
import io.coffer.keyserver.wire.EvaluationResponse;
import java.util.concurrent.CompletionStage;

/**
 * What the transports hand authenticated queries to: rate limiting and evaluation live behind it. The
 * stage completes with the answer when it is ready (possibly after a rate-limit delay); it is never
 * completed on the caller's thread with a long computation.
 */
public interface QueryHandler {
    /**
     * @param client the client identity (subject of its certificate)
     * @param transport "v1" or "v2", for metrics
     */
    CompletionStage<EvaluationResponse> handle(String client, String transport, EvaluationRequest request);
}
