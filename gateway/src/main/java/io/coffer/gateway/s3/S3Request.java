package io.coffer.gateway.s3;

import io.coffer.sdk.Bucket;
import java.io.InputStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One authenticated S3 request as handlers see it, free of Netty types.
 *
 * @param headers       request headers by case-insensitive name; repeated headers joined with {@code ","}
 * @param query         decoded query parameters in request order of first appearance
 * @param owner         the tenant the access key belongs to; null for an anonymous request
 * @param accessKeyId   the access key that signed the request; null for an anonymous request
 * @param body          the verified request body (signature, payload hash, checksums are checked as it is read)
 * @param contentLength the decoded body length, or -1 when unknown
 * @param bodyChecks    checksums the body carried, known once it has been read to the end; never null
 * @param bucketRecord  the bucket's record as the dispatcher read it to check access, so that a handler need not
 *                      read it again; null before that, and for requests without a bucket
 */
public record S3Request(String requestId, String method, S3Operation operation, String bucket, String key,
                        Map<String, String> headers, Map<String, String> query, String owner, String accessKeyId,
                        InputStream body, long contentLength, BodyChecks bodyChecks,
                        Bucket bucketRecord) {

    public S3Request {
        TreeMap<String, String> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        h.putAll(headers);
        headers = Collections.unmodifiableMap(h);
        query = Collections.unmodifiableMap(new LinkedHashMap<>(query));
    }

    /** This request with the bucket's record the dispatcher read. */
    public S3Request withBucketRecord(Bucket b) {
        return new S3Request(requestId, method, operation, bucket, key, headers, query, owner, accessKeyId, body,
                contentLength, bodyChecks, b);
    }

    public String header(String name) {
        return headers.get(name);
    }

    public String queryParam(String name) {
        return query.get(name);
    }

    public boolean hasQuery(String name) {
        return query.containsKey(name);
    }

    /** The checksums a request body carried (header or trailer), as base64 values by algorithm name. */
    public interface BodyChecks {
        BodyChecks NONE = Map::of;

        /** Algorithm name (CRC32, CRC32C, CRC64NVME, SHA1, SHA256) to base64 value; complete after EOF. */
        Map<String, String> checksums();
    }
}
