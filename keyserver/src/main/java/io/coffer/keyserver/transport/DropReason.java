package io.coffer.keyserver.transport;

import java.util.Locale;

/** Why an OPRFv2 datagram was dropped without an answer; each is a label of the drops counter. */
public enum DropReason {
    /** Shorter than header + empty request header + tag. */
    TRUNCATED,
    /** Longer than the configured maximum datagram size. */
    OVERSIZED,
    /** No session with that id (never granted, or already swept). */
    UNKNOWN_SESSION,
    /** The session's lifetime has passed. */
    EXPIRED_SESSION,
    /** The HMAC tag does not verify. */
    BAD_MAC,
    /** Sequence number not greater than the last accepted one of the session. */
    REPLAY,
    /** Authentic but the body does not parse. */
    MALFORMED,
    /** Active-client list: the client already has a query pending. */
    ACTIVE,
    /** The evaluation queue is full. */
    OVERLOAD;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
