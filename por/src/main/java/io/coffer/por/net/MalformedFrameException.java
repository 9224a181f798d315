package io.coffer.por.net;

/** A frame that breaks the protocol: truncated, too long, a field out of its bounds, an unknown type. */
public final class MalformedFrameException extends RuntimeException {
    public MalformedFrameException(String message) {
        super(message);
    }
}
