package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.headers.Conditionals;
import io.coffer.gateway.s3.headers.ExpirationHeader;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.s3.headers.ObjectLockHeaders;
import io.coffer.gateway.s3.headers.RangeHeader;
import io.coffer.gateway.s3.sse.CustomerKeyHeaders;
import io.coffer.gateway.s3.sse.ServerSideEncryption;
import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.ByteRange;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CustomerKey;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.ObjectKeyResolver;
import java.io.IOException;
import java.util.Map;
import java.util.function.Supplier;

/**
 * GetObject and HeadObject: conditional requests (304/412), a single Range (206 + Content-Range, 416 with
 * {@code Content-Range: bytes *&#47;size}), partNumber (206 + Content-Range; 416 InvalidPartNumber past the last
 * part), response-* header overrides, x-amz-checksum-mode (header or presigned query parameter) and SSE-C's headers
 * (the key checked by the engine: 400 without it, 403 for another; echoed in the response); an object under a
 * keyring key (SSE-KMS) is read with the key its attributes name, no header needed. GET bodies are
 * streamed by the server from the engine's stream.
 *
 * <p>The object's checksum is sent only with a response that carries the whole object, a part's (of a multipart object
 * stored with part checksums) with that part: a client that checks them (boto3, the AWS SDKs) would fail a range
 * against the whole object's.
 */
public final class GetObjectHandler implements S3ActionHandler {
    private static final Map<String, String> OVERRIDES = Map.of(
            "response-content-type", "Content-Type",
            "response-content-language", "Content-Language",
            "response-expires", "Expires",
            "response-cache-control", "Cache-Control",
            "response-content-disposition", "Content-Disposition",
            "response-content-encoding", "Content-Encoding");

    private final Coffer coffer;
    private final ServerSideEncryption encryption;
    private final boolean head;

    public GetObjectHandler(Coffer coffer, ServerSideEncryption encryption) {
        this(coffer, encryption, false);
    }

    GetObjectHandler(Coffer coffer, ServerSideEncryption encryption, boolean head) {
        this.coffer = coffer;
        this.encryption = encryption;
        this.head = head;
    }

    @Override
    public S3Response handle(S3Request r) {
        NameRules.checkKey(r.key());
        String partParam = r.queryParam("partNumber");
        ByteRange range = RangeHeader.parse(r.header("range"));
        CustomerKey key = encryption.customerKeys().requested(r);
        ObjectKeyResolver keys = encryption.forRead(r);
        if (partParam != null) {
            if (range != null) {
                throw new S3Exception(S3ErrorCode.INVALID_REQUEST, "Cannot specify both Range header and"
                        + " partNumber query parameter");
            }
            return CustomerKeyHeaders.echo(part(r, parsePartNumber(partParam), keys), key);
        }
        String versionId = r.queryParam("versionId");
        if (head) {
            ObjectInfo info = read(r, versionId, () -> coffer.headObjectKeyed(r.bucket(), r.key(), versionId, keys));
            return CustomerKeyHeaders.echo(headers(r, info, checkRead(r, info, range), null, 0), key);
        }
        // checked on the record the engine reads for the data: one read, and nothing opened when a check fails
        ObjectContent content = read(r, versionId, () -> coffer.getObjectKeyed(r.bucket(), r.key(), versionId, range,
                info -> checkRead(r, info, range), keys));
        return CustomerKeyHeaders.echo(headers(r, content.info(), content.range(), content, 0), key);
    }

    /** Reads version {@code versionId} (null: the current one), reporting a delete marker met on the way. */
    private <T> T read(S3Request r, String versionId, Supplier<T> read) {
        return DeleteMarkerException.read(coffer, r.bucket(), r.key(), versionId, read);
    }

    /**
     * Throws 412 or 304 unless the object satisfies the request's conditions, 416 (with the object's size) for a
     * range past its end; returns the resolved range, null when there is none.
     */
    private static ByteRange.Resolved checkRead(S3Request r, ObjectInfo info, ByteRange range) {
        Conditionals.check(r, info);
        if (range == null) {
            return null;
        }
        try {
            return range.resolve(info.size());
        } catch (CofferException e) {
            if (e.code() == ErrorCode.INVALID_RANGE) {
                throw new InvalidRangeException(info.size());
            }
            throw e;
        }
    }

    private S3Response part(S3Request r, int partNumber, ObjectKeyResolver keys) {
        String versionId = r.queryParam("versionId");
        if (head) {
            ObjectInfo info = read(r, versionId, () -> coffer.headObjectKeyed(r.bucket(), r.key(), versionId, keys));
            Conditionals.check(r, info);
            ByteRange.Resolved pr = partRange(info, partNumber);
            return headers(r, info, pr, null, partNumber);
        }
        ObjectContent content = read(r, versionId, () -> coffer.getObjectPartKeyed(r.bucket(), r.key(), versionId,
                partNumber, keys));
        try {
            Conditionals.check(r, content.info());
        } catch (RuntimeException e) {
            closeQuietly(content);
            throw e;
        }
        ByteRange.Resolved pr = content.range() != null ? content.range() : partRange(content.info(), partNumber);
        return headers(r, content.info(), pr, content, partNumber);
    }

    /** The bytes of part {@code partNumber} ({@link ObjectInfo#partRange}); null for an empty single-PUT object. */
    private static ByteRange.Resolved partRange(ObjectInfo info, int partNumber) {
        ByteRange.Resolved part = info.partRange(partNumber);
        return info.partCount() == 0 && info.size() == 0 ? null : part;
    }

    /** The response's headers; {@code partNumber}: the part it carries, or 0 for the object or a range of it. */
    private S3Response headers(S3Request r, ObjectInfo info, ByteRange.Resolved range, ObjectContent content,
                               int partNumber) {
        boolean partial = range != null;
        long length = range == null ? info.size() : range.length();
        int status = partial ? 206 : 200;
        S3Response resp = content == null ? S3Response.stream(status, null, length)
                : S3Response.stream(status, content.stream(), length);
        boolean whole = range == null || range.offset() == 0 && range.length() == info.size();
        Map<String, String> checksums = partNumber > 0 ? ObjectHeaders.checksumsOf(info, partNumber)
                : whole ? ObjectHeaders.checksumsOf(info, 0) : Map.of();
        ObjectHeaders.write(resp, info, checksums, checksumMode(r));
        writeBucketRuleHeaders(r, info, resp, content);
        if (partial) {
            resp.header("Content-Range", "bytes " + range.offset() + "-" + range.lastInclusive() + "/" + info.size());
        }
        for (Map.Entry<String, String> o : OVERRIDES.entrySet()) {
            String v = r.queryParam(o.getKey());
            if (v != null) {
                resp.header(o.getValue(), v);
            }
        }
        return resp;
    }

    /**
     * The headers the bucket's configuration adds: in a bucket with Object Lock the version's lock headers; for the
     * current version the lifecycle expiration (closing the content if they cannot be read).
     */
    private void writeBucketRuleHeaders(S3Request r, ObjectInfo info, S3Response resp, ObjectContent content) {
        try {
            if (coffer.objectLockConfiguration(r.bucketRecord()).isPresent()) {
                ObjectLockHeaders.write(resp, coffer.objectLock(r.bucketRecord(), r.key(),
                        info.versionId() == null ? BucketVersioning.NULL_VERSION : info.versionId()));
            }
            if (r.queryParam("versionId") == null) {
                ExpirationHeader.write(resp, coffer, r.bucketRecord(), info);
            }
        } catch (RuntimeException e) {
            if (content != null) {
                closeQuietly(content);
            }
            throw e;
        }
    }

    /** x-amz-checksum-mode: ENABLED, as a header or, in a presigned URL, a query parameter. */
    private static boolean checksumMode(S3Request r) {
        return "ENABLED".equalsIgnoreCase(r.header("x-amz-checksum-mode"))
                || "ENABLED".equalsIgnoreCase(r.queryParam("x-amz-checksum-mode"));
    }

    private static int parsePartNumber(String v) {
        try {
            int n = Integer.parseInt(v);
            if (n >= 1 && n <= 10000) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Part number must be an integer between 1 and 10000,"
                + " inclusive");
    }

    private static void closeQuietly(ObjectContent c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // the stream was never read; nothing to report
        }
    }

    /** 416 InvalidRange, with the object size for {@code Content-Range: bytes *&#47;size}. */
    static final class InvalidRangeException extends S3Exception {
        private static final long serialVersionUID = 1L;
        private final long size;

        InvalidRangeException(long size) {
            super(S3ErrorCode.INVALID_RANGE);
            this.size = size;
        }

        long size() {
            return size;
        }
    }
}
