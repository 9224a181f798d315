package io.coffer.keyserver.wire;

/**
 * Bounds both ends of the protocol agree on: how many elements one query may carry and how large an OPRFv2 datagram
 * may be. Client and server builders validate their settings here, so the two cannot drift apart.
 */
public final class ProtocolLimits {
    public static final int MAX_BATCH_LIMIT = 4096;
    public static final int MIN_DATAGRAM = 128;
    public static final int MAX_DATAGRAM_LIMIT = 65000;

    private ProtocolLimits() {
    }

    /** Returns {@code n} if it is a valid batch limit (1..4096). */
    public static int checkMaxBatch(int n) {
        if (n < 1 || n > MAX_BATCH_LIMIT) {
            throw new IllegalArgumentException("maxBatch must be in 1.." + MAX_BATCH_LIMIT);
        }
        return n;
    }

    /** Returns {@code bytes} if it is a valid datagram limit (128..65000). */
    public static int checkMaxDatagram(int bytes) {
        if (bytes < MIN_DATAGRAM || bytes > MAX_DATAGRAM_LIMIT) {
            throw new IllegalArgumentException("maxDatagram must be in " + MIN_DATAGRAM + ".." + MAX_DATAGRAM_LIMIT);
        }
        return bytes;
    }

    /**
     * Most elements of length {@code elementLength} one OPRFv2 query can carry when neither the request nor its answer
     * (with a proof of {@code proofLength} bytes) may exceed {@code maxDatagram} bytes; at least 1.
     */
    public static int elementsPerDatagram(int maxDatagram, int elementLength, int proofLength) {
        int budget = maxDatagram - DatagramFrame.OVERHEAD;
        int requestFit = (budget - EvaluationRequest.HEADER_LENGTH) / elementLength;
        int responseFit = (budget - EvaluationResponse.MIN_LENGTH - proofLength) / elementLength;
        return Math.max(1, Math.min(requestFit, responseFit));
    }
}
