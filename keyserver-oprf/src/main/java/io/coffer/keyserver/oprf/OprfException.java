package io.coffer.keyserver.oprf;

import java.security.GeneralSecurityException;

/**
 * An OPRF input, element or answer was rejected: an encoding that does not decode, an element off the
 * curve or out of range, or a proof or signature that does not verify. Messages are deliberately terse.
 */
public final class OprfException extends GeneralSecurityException {
    private static final long serialVersionUID = 1L;

    public OprfException(String message) {
        super(message);
    }
}
