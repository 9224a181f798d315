package io.coffer.sdk.key;

/** A key source could not produce keys (unavailable, rate limited, or an answer that failed verification). */
public class KeySourceException extends Exception {
    private static final long serialVersionUID = 1L;

    public KeySourceException(String message, Throwable cause) {
        super(message, cause);
    }

    public KeySourceException(String message) {
        super(message);
    }
}
