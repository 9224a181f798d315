package io.coffer.keyserver.wire;

/** A key-server message that does not parse: wrong length, unknown version, type or suite, bad counts. */
public final class MalformedMessageException extends Exception {
    private static final long serialVersionUID = 1L;

    public MalformedMessageException(String message) {
        super(message);
    }
}
