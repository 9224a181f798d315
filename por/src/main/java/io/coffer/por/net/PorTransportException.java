package io.coffer.por.net;

/**
 * The remote PoR server could not be asked: connection refused or lost, timeout, a frame that breaks the protocol,
 * a bad MAC, or an internal error of the server. The connection is unusable afterwards; open a new one.
 */
public final class PorTransportException extends RuntimeException {
    public PorTransportException(String message) {
        super(message);
    }

    public PorTransportException(String message, Throwable cause) {
        super(message, cause);
    }
}
