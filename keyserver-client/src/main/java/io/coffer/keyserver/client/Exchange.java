package io.coffer.keyserver.client;

import java.io.IOException;

/** One request/answer round trip with the key server over one transport. */
interface Exchange extends AutoCloseable {
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
