package io.coffer.por.checksum;

import io.coffer.por.PorVerificationException;

/** A sealed checksum from the server did not open: wrong address or time, altered, replayed or missing. */
public final class SealBrokenException extends PorVerificationException {
    public SealBrokenException(String message) {
        super(message);
    }
}
