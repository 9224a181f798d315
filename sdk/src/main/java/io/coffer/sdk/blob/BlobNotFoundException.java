package io.coffer.sdk.blob;

import java.io.IOException;

/** The named blob does not exist on the backend. */
public class BlobNotFoundException extends IOException {
    private static final long serialVersionUID = 1L;

    public BlobNotFoundException(String name) {
        super("blob not found: " + name);
    }
}
