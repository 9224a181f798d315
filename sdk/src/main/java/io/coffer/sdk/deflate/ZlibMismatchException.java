package io.coffer.sdk.deflate;

import java.io.IOException;

/** A zlib recipe's replay did not give the original bytes: the zlib behind java.util.zip deflates differently now. */
public final class ZlibMismatchException extends IOException {
    private static final long serialVersionUID = 1L;

    public ZlibMismatchException(String message) {
        super(message);
    }
}
