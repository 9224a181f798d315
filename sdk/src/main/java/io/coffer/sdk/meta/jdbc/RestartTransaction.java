package io.coffer.sdk.meta.jdbc;

/** Thrown inside a transaction to restart it (an insert raced another insert of the same row). */
final class RestartTransaction extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RestartTransaction() {
        super(null, null, false, false);
    }
}
