package io.coffer.gateway.http;

import io.coffer.gateway.auth.AuthResult;
import io.coffer.gateway.auth.AwsChunkedInputStream;
import io.coffer.gateway.auth.VerifyingInputStream;
import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.S3Operation;
import io.coffer.gateway.s3.headers.ObjectSizeLimit;
import io.coffer.sdk.checksum.ChecksumAlgorithm;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The chain of streams a verified request's body is read through: aws-chunked decoding (chunk signatures, trailers)
 * when the payload is streaming, then one {@link VerifyingInputStream} that checks the payload hash, the
 * x-amz-checksum-* values (from headers or trailers), the declared length and S3's upload size limit as the handler
 * reads. What the request declares about its body is checked when the stack is made, before {@code 100 Continue}.
 */
final class RequestBodyStack {
    private static final Set<S3Operation> READS_BODY = EnumSet.of(S3Operation.PUT_OBJECT, S3Operation.UPLOAD_PART,
            S3Operation.DELETE_OBJECTS, S3Operation.COMPLETE_MULTIPART_UPLOAD, S3Operation.CREATE_BUCKET,
            S3Operation.PUT_OBJECT_TAGGING, S3Operation.PUT_BUCKET_TAGGING, S3Operation.PUT_BUCKET_CORS,
            S3Operation.PUT_BUCKET_ENCRYPTION, S3Operation.PUT_BUCKET_VERSIONING, S3Operation.PUT_BUCKET_ACL,
            S3Operation.PUT_OBJECT_ACL, S3Operation.PUT_PUBLIC_ACCESS_BLOCK, S3Operation.POST_OBJECT,
            S3Operation.PUT_BUCKET_LIFECYCLE_CONFIGURATION, S3Operation.PUT_OBJECT_LOCK_CONFIGURATION,
            S3Operation.PUT_OBJECT_RETENTION, S3Operation.PUT_OBJECT_LEGAL_HOLD);

    private final S3Operation op;
    private final AuthResult auth;
    private final Map<String, String> headers;
    private final String trailer;
    private final long decodedLength;

    /**
     * Checks the body the request declares: MissingContentLength, a malformed length, EntityTooLarge, or an
     * x-amz-trailer without a trailer payload are thrown here.
     *
     * @param headers the request headers by lower-case name, repeated ones joined with {@code ","}
     */
    RequestBodyStack(HttpRequest req, S3Operation op, AuthResult auth, Map<String, String> headers) {
        this.op = op;
        this.auth = auth;
        this.headers = headers;
        long length = -1;
        String decoded = headers.get("x-amz-decoded-content-length");
        boolean chunkedTe = HttpUtil.isTransferEncodingChunked(req);
        if (auth.streaming()) {
            if (decoded == null) {
                if (!chunkedTe) {
                    throw new S3Exception(S3ErrorCode.MISSING_CONTENT_LENGTH);
                }
            } else {
                length = parseLength(decoded);
            }
        } else if (HttpUtil.isContentLengthSet(req)) {
            length = parseLength(req.headers().get(HttpHeaderNames.CONTENT_LENGTH));
        } else if (!chunkedTe && op.streamsBody()) {
            throw new S3Exception(S3ErrorCode.MISSING_CONTENT_LENGTH);
        }
        if (op.streamsBody()) {
            ObjectSizeLimit.check(length);
        }
        this.decodedLength = length;
        this.trailer = headers.get("x-amz-trailer");
        if (trailer != null && !auth.trailers()) {
            throw new S3Exception(S3ErrorCode.MALFORMED_TRAILER_ERROR, "x-amz-trailer needs a payload with"
                    + " trailers (STREAMING-...-TRAILER).");
        }
    }

    /** True for the actions whose request body is read (and so needs a stack); other bodies are discarded. */
    /**
     * Takes the transfer coding {@code aws-chunked} out of Content-Encoding (what remains is stored and returned as
     * sent, as S3 does); the header is dropped when nothing else was in it.
     */
    static void stripAwsChunked(Map<String, String> headers) {
        String ce = headers.get("content-encoding");
        if (ce == null) {
            return;
        }
        List<String> kept = new ArrayList<>();
        boolean chunked = false;
        for (String v : ce.split(",")) {
            if (v.trim().equalsIgnoreCase("aws-chunked")) {
                chunked = true;
            } else if (!v.isBlank()) {
                kept.add(v.trim());
            }
        }
        if (!chunked) {
            return; // stored and returned exactly as sent, as S3 does
        }
        if (kept.isEmpty()) {
            headers.remove("content-encoding");
        } else {
            headers.put("content-encoding", String.join(", ", kept));
        }
    }

    static boolean readsBody(S3Operation op) {
        return READS_BODY.contains(op);
    }

    /** The body's length once decoded (without aws-chunked framing), or -1 when the request does not say. */
    long decodedLength() {
        return decodedLength;
    }

    /** The verified body over {@code raw}, the bytes as they arrive on the connection. */
    VerifyingInputStream over(InputStream raw) {
        InputStream in = raw;
        AwsChunkedInputStream chunked = null;
        if (auth.streaming()) {
            chunked = new AwsChunkedInputStream(in, auth.signedChunks() ? auth.chunkSigner() : null,
                    auth.trailers() ? AwsChunkedInputStream.declaredTrailers(trailer) : null);
            in = chunked;
        }
        Map<ChecksumAlgorithm, String> headerChecksums = new LinkedHashMap<>();
        List<ChecksumAlgorithm> algorithms = new ArrayList<>();
        for (Map.Entry<String, String> h : op.checksumHeadersDescribeBody() ? headers.entrySet()
                : Map.<String, String>of().entrySet()) {
            ChecksumAlgorithm.fromHeaderName(h.getKey()).ifPresent(a -> {
                headerChecksums.put(a, h.getValue().trim());
                algorithms.add(a);
            });
        }
        if (trailer != null) {
            for (String t : trailer.split(",")) {
                ChecksumAlgorithm.fromHeaderName(t.trim()).filter(a -> !algorithms.contains(a))
                        .ifPresent(algorithms::add);
            }
        }
        final AwsChunkedInputStream trailers = chunked;
        return new VerifyingInputStream(in, auth.payloadSha256(), algorithms, () -> {
            Map<ChecksumAlgorithm, String> expected = new LinkedHashMap<>(headerChecksums);
            if (trailers != null) {
                for (Map.Entry<String, String> t : trailers.trailers().entrySet()) {
                    ChecksumAlgorithm.fromHeaderName(t.getKey()).ifPresent(a -> expected.put(a, t.getValue()));
                }
            }
            return expected;
        }, decodedLength, op.streamsBody() ? ObjectSizeLimit.MAX_UPLOAD_BYTES : Long.MAX_VALUE);
    }

    private static long parseLength(String v) {
        try {
            long n = Long.parseLong(v.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Invalid content length.");
    }
}
