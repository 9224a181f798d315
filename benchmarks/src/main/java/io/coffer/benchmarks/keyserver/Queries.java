package io.coffer.benchmarks.keyserver;

import io.coffer.keyserver.client.Exchange;
import io.coffer.keyserver.wire.EvaluationResponse;
import io.coffer.keyserver.wire.MalformedMessageException;
import io.coffer.keyserver.wire.Status;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;

/** The load generator's round trips: one pre-made request over an {@link Exchange}, and whether its answer is a valid OK. */
final class Queries {
    private Queries() {
    }

    /** One query; true for a valid OK answer with n elements, false for no answer within the timeout or an error answer. */
    static boolean query(Exchange conn, byte[] request, int n) throws IOException, InterruptedException {
        byte[] answer;
        try {
            answer = conn.exchange(request);
        } catch (SocketTimeoutException | HttpTimeoutException e) {
            return false;
        }
        return okAnswer(answer, n);
    }

    private static boolean okAnswer(byte[] body, int n) {
        try {
            EvaluationResponse r = EvaluationResponse.decode(body);
            return r.status() == Status.OK && r.evaluation().size() == n;
        } catch (MalformedMessageException e) {
            return false;
        }
    }
}
