package io.coffer.keyserver.wire;

/** Status byte of a response, with the HTTP status OPRFv1 uses for it. */
public enum Status {
    OK(0x00, 200),
    /** The client's budget is exhausted (Bounded rate limiting). */
    RATE_LIMITED(0x01, 429),
    /** The request names a key id this server does not hold. */
    UNKNOWN_KEY(0x02, 404),
    /** The request decoded but is invalid for the key: wrong suite or element length, element off curve or >= N. */
    BAD_REQUEST(0x03, 400),
    /** Active-client list: a query from this client is still pending. OPRFv2 drops such a query silently. */
    BUSY(0x04, 429),
    /** The server could not evaluate (overloaded or shutting down). */
    SERVER_ERROR(0x05, 503);

    private final int code;
    private final int httpStatus;

    Status(int code, int httpStatus) {
        this.code = code;
        this.httpStatus = httpStatus;
    }

    public int code() {
        return code;
    }

    public int httpStatus() {
        return httpStatus;
    }

    static Status fromCode(int code) throws MalformedMessageException {
        for (Status s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        throw new MalformedMessageException("unknown status");
    }
}
