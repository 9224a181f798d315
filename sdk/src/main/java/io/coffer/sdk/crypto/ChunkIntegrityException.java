package io.coffer.sdk.crypto;

import java.security.GeneralSecurityException;

/** Stored bytes failed their integrity check: the backend lost, altered or swapped them. */
public class ChunkIntegrityException extends GeneralSecurityException {
    private static final long serialVersionUID = 1L;

    public ChunkIntegrityException(String message) {
        super(message);
    }
}
