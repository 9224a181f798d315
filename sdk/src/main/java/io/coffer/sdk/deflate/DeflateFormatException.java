package io.coffer.sdk.deflate;

import java.io.IOException;

/**
 * Input this package cannot decode or cannot reproduce bit-exactly: a malformed gzip or deflate stream, a stream
 * cut short, an encoding the re-encoder refuses (a non-canonical length code), malformed tokens or side information,
 * or output past a configured bound. A caller that gets it stores the object as it came (never altered bytes).
 */
public final class DeflateFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    public DeflateFormatException(String message) {
        super(message);
    }
}
