package io.coffer.keyserver.client;

/**
 * A key could not be obtained from the key server. The caller decides what to do (the gateway falls back
 * to a random key: dedup lost, data never lost). No key is ever returned together with this exception.
 */
public final class KeyServerException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Why the query failed. */
    public enum Reason {
        /** No answer after all tries: server down, unreachable, TLS refused, timeouts, or overloaded. */
        UNAVAILABLE,
        /** The server refused: the client's budget is exhausted or it has a query pending. */
        RATE_LIMITED,
        /** An answer failed verification (RSA signature check or VOPRF proof): no key was produced. */
        VERIFICATION_FAILED,
        /** An answer that does not parse, names another key or suite, or a request the server rejects. */
        PROTOCOL
    }

    private final Reason reason;

    public KeyServerException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public KeyServerException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }

    @Override
    public String getMessage() {
        return reason + ": " + super.getMessage();
    }
}
