package io.coffer.gateway.s3;

import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a handler answers: status, headers and either a small in-memory body or a stream of known length that the
 * server copies to the client respecting the channel's writability.
 */
public final class S3Response {
    private final int status;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private final byte[] body;
    private final InputStream stream;
    private final long streamLength;
    private String errorCode;

    private S3Response(int status, byte[] body, InputStream stream, long streamLength) {
        this.status = status;
        this.body = body;
        this.stream = stream;
        this.streamLength = streamLength;
    }

    public static S3Response empty(int status) {
        return new S3Response(status, new byte[0], null, 0);
    }

    public static S3Response xml(int status, byte[] xml) {
        S3Response r = new S3Response(status, xml, null, 0);
        r.header("Content-Type", "application/xml");
        return r;
    }

    /** A streamed body of {@code length} bytes; the server closes the stream when done or on failure. */
    public static S3Response stream(int status, InputStream stream, long length) {
        return new S3Response(status, null, stream, length);
    }

    public S3Response header(String name, String value) {
        if (value != null) {
            headers.put(name, value);
        }
        return this;
    }

    public int status() {
        return status;
    }

    /** Marks this as the answer to a failed request with S3 error code {@code code} (for the access log). */
    public S3Response errorCode(String code) {
        this.errorCode = code;
        return this;
    }

    /** The S3 error code this response answers with ({@code NoSuchKey} ...), or null for a success. */
    public String errorCode() {
        return errorCode;
    }

    public Map<String, String> headers() {
        return headers;
    }

    /** The in-memory body, or null for a streamed one. */
    public byte[] body() {
        return body;
    }

    public InputStream stream() {
        return stream;
    }

    public long streamLength() {
        return streamLength;
    }

    public long contentLength() {
        return body != null ? body.length : streamLength;
    }
}
