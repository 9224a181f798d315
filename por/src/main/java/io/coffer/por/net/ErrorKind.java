package io.coffer.por.net;

/** Why the server refused a request: the first byte of an {@link MessageType#ERROR} frame. */
public enum ErrorKind {
    /** The request was well formed but refused (an {@code IllegalArgumentException} of the server): nothing changed. */
    REJECTED,
    /** The server's state does not allow the call (an {@code IllegalStateException}, e.g. a block of U is lost). */
    STATE,
    /** The frame broke the protocol (malformed, truncated, oversized, wrong type, bad MAC): the connection closes. */
    PROTOCOL,
    /** The server failed (an I/O error of its storage ...): the connection stays open. */
    INTERNAL;

    static ErrorKind of(int code) {
        ErrorKind[] all = values();
        return code >= 0 && code < all.length ? all[code] : INTERNAL;
    }
}
