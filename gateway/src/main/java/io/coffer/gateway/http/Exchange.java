package io.coffer.gateway.http;

import io.coffer.gateway.s3.S3Operation;
import io.netty.handler.codec.http.HttpRequest;
import java.time.Instant;

/**
 * The state of one request on a connection ({@link S3ChannelHandler}): what is known of it so far, for its error
 * response and its access-log line, and how far its body and response have got.
 */
final class Exchange {
    final HttpRequest request;
    final String requestId;
    final long startNanos = System.nanoTime();
    final Instant startTime = Instant.now();
    S3Operation operation = S3Operation.UNKNOWN;
    String bucket;
    String key;
    String resource = "/";
    String accessKeyId;
    BodyPipe pipe;
    volatile boolean bodyComplete;
    volatile boolean responseDone;
    volatile boolean closeAfter;
    /** The client sent {@code Expect: 100-continue}; {@link #continued} once the action asked for the body. */
    boolean awaitsContinue;
    volatile boolean continued;
    boolean keepAlive;
    volatile long bytesIn;
    volatile long bytesOut;
    volatile int status;
    /** The S3 error code answered, null for a success. */
    volatile String errorCode;

    Exchange(HttpRequest request, String requestId) {
        this.request = request;
        this.requestId = requestId;
    }

    /** Records where the request points, as soon as that is parsed: a later error names that resource. */
    void addressed(RequestTarget target) {
        bucket = target.bucket();
        key = target.key();
        resource = target.decodedPath();
    }
}
