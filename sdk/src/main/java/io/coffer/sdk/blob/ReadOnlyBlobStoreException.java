package io.coffer.sdk.blob;

import java.io.IOException;

/** A write was asked of a store opened read-only ({@link ReadOnlyBlobStore}); nothing was changed. */
public class ReadOnlyBlobStoreException extends IOException {
    private static final long serialVersionUID = 1L;

    public ReadOnlyBlobStoreException(String operation, String name, String store) {
        super(operation + " " + name + " refused: " + store + " is open read-only");
    }
}
