package io.coffer.keyserver.client;

import java.io.IOException;

/**
 * One request/answer round trip with the key server over one transport: encoded requests out, encoded answers
 * back, nothing blinded, verified, cached or retried ({@link KeyServerClient} does that around it). Open one with
 * {@link KeyServerClient.Builder#openExchange()}. Not thread-safe.
 */
public interface Exchange extends AutoCloseable {
    /**
     * Opens the channel now rather than with the first query (TLS handshake; for OPRFv2 also KSInit), so that the
     * first answer's latency is the query's alone.
     */
    void connect() throws IOException, InterruptedException;

    /**
     * Sends an encoded EvaluationRequest and returns the encoded EvaluationResponse.
     *
     * @throws IOException no answer within the timeout, connection refused or reset, TLS failure: worth a retry
     */
    byte[] exchange(byte[] request) throws IOException, InterruptedException;

    /** Most elements of length {@code elementLength} that fit one request and its answer. */
    int capacity(int elementLength, int proofLength);

    @Override
    void close();
}
