package io.coffer.por;

/**
 * The server deviated from the protocol: a proof, sealed checksum, aggregate or decoded block failed the client's
 * check. The client rejects the operation; nothing it returned may be trusted.
 */
public class PorVerificationException extends RuntimeException {
    public PorVerificationException(String message) {
        super(message);
    }
}
