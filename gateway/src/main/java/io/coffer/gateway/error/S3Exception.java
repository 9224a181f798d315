package io.coffer.gateway.error;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.blob.StorageFullException;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A request failed with an S3 error; the gateway answers it with the error's status and XML body. Also thrown from
 * request body streams (wrapped in an {@link IOException} where the stream contract needs one) so that a bad body
 * makes the engine abort the write.
 */
public class S3Exception extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final S3ErrorCode error;
    /** An element S3 adds to some errors' XML after Message (e.g. HeadersNotSigned), or null. */
    private final String detailElement;
    private final String detailValue;
    /** Headers the error response carries besides its own (CORS headers of the bucket's rules). */
    private final Map<String, String> responseHeaders = new LinkedHashMap<>();

    public S3Exception(S3ErrorCode error) {
        this(error, error.defaultMessage());
    }

    public S3Exception(S3ErrorCode error, String message) {
        this(error, message, (Throwable) null);
    }

    public S3Exception(S3ErrorCode error, String message, Throwable cause) {
        super(message, cause, false, false);
        this.error = error;
        this.detailElement = null;
        this.detailValue = null;
    }

    /** An error whose XML carries one more element, {@code <detailElement>detailValue</detailElement>}. */
    public S3Exception(S3ErrorCode error, String message, String detailElement, String detailValue) {
        super(message, null, false, false);
        this.error = error;
        this.detailElement = detailElement;
        this.detailValue = detailValue;
    }

    public S3ErrorCode error() {
        return error;
    }

    /** The name of the extra element of the error XML, or null when there is none. */
    public String detailElement() {
        return detailElement;
    }

    public String detailValue() {
        return detailValue;
    }

    /** Adds a header to the error's response; returns this. */
    public S3Exception responseHeader(String name, String value) {
        responseHeaders.put(name, value);
        return this;
    }

    /** The headers added with {@link #responseHeader}, in order. */
    public Map<String, String> responseHeaders() {
        return Collections.unmodifiableMap(responseHeaders);
    }

    /**
     * The S3 error a failure is answered with. A verdict of the gateway's own body checks wins wherever it sits in
     * the cause chain (the engine may have wrapped it); then a full store (507, whatever wraps it); then engine codes;
     * then client disconnects; else InternalError.
     */
    public static S3Exception from(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof S3Exception s) {
                return s;
            }
        }
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof StorageFullException full) { // not retried by clients: 507, with the store's words
                return new S3Exception(S3ErrorCode.STORAGE_FULL, full.getMessage(), t);
            }
        }
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof CofferException ce) {
                return new S3Exception(S3ErrorCode.of(ce.code()), ce.code() == ErrorCode.INTERNAL_ERROR
                        || ce.code() == ErrorCode.INTEGRITY_ERROR
                        || ce.code() == ErrorCode.CONFLICT_RETRY
                        ? S3ErrorCode.INTERNAL_ERROR.defaultMessage() : ce.getMessage(), ce);
            }
        }
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof ClosedChannelException) {
                return new S3Exception(S3ErrorCode.INCOMPLETE_BODY, S3ErrorCode.INCOMPLETE_BODY.defaultMessage(), t);
            }
        }
        return new S3Exception(S3ErrorCode.INTERNAL_ERROR, S3ErrorCode.INTERNAL_ERROR.defaultMessage(), t);
    }

    /** This exception as an {@link IOException}, for {@link java.io.InputStream} implementations. */
    public IOException asIOException() {
        return new IOException(getMessage(), this);
    }
}
