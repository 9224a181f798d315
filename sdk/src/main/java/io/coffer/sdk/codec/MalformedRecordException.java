package io.coffer.sdk.codec;

/** A stored record does not parse: truncated, trailing bytes, bad magic or version, invalid UTF-8. */
public class MalformedRecordException extends Exception {
    private static final long serialVersionUID = 1L;

    public MalformedRecordException(String message) {
        super(message);
    }
}
