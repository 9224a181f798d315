package io.coffer.sdk.blob;

import java.io.IOException;

/**
 * A write was refused because the store holds as much as it can (a PoR store at its server's largest capacity);
 * nothing was changed. Retrying does not help: space must be freed or the limit raised.
 */
public class StorageFullException extends IOException {
    private static final long serialVersionUID = 1L;

    public StorageFullException(String message) {
        super(message);
    }
}
