package io.coffer.gateway.s3.headers;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.S3Request;
import io.coffer.gateway.s3.S3Response;
import io.coffer.gateway.s3.acl.ObjectAcl;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.CustomerKey;
import io.coffer.sdk.KmsKey;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.checksum.ChecksumAlgorithm;
import io.coffer.sdk.checksum.ChecksumType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Object headers in both directions: request headers to {@link ObjectAttributes}, {@link ObjectInfo} to response headers. */
public final class ObjectHeaders {
    /** S3's limit on the user-defined metadata of one object (names and decoded values, UTF-8). */
    public static final int MAX_USER_METADATA_BYTES = 2048;
    public static final String DEFAULT_CONTENT_TYPE = "binary/octet-stream";
    private static final String[] STORED = {"content-encoding", "content-disposition", "content-language",
        "cache-control", "expires"};

    private ObjectHeaders() {
    }

    /** The attributes a PUT, CreateMultipartUpload or REPLACE copy stores; metadata values {@link EncodedWords#decode}d. */
    public static ObjectAttributes attributesFrom(S3Request r) {
        Map<String, String> meta = new TreeMap<>();
        int size = 0;
        for (Map.Entry<String, String> h : r.headers().entrySet()) {
            String name = h.getKey().toLowerCase(Locale.ROOT);
            if (name.startsWith("x-amz-meta-")) {
                String n = name.substring("x-amz-meta-".length());
                String v = EncodedWords.decode(h.getValue());
                meta.put(n, v);
                size += n.getBytes(StandardCharsets.UTF_8).length + v.getBytes(StandardCharsets.UTF_8).length;
            }
        }
        if (size > MAX_USER_METADATA_BYTES) {
            throw new S3Exception(S3ErrorCode.METADATA_TOO_LARGE);
        }
        Map<String, String> stored = new TreeMap<>();
        for (String name : STORED) {
            String v = r.header(name);
            if (v != null) {
                stored.put(name, v);
            }
        }
        return new ObjectAttributes(r.header("content-type"), meta, stored, Map.of());
    }

    /** {@code x-amz-version-id} of a version with its own id (the null version's responses carry none). */
    public static S3Response versionId(S3Response resp, ObjectInfo info) {
        if (info.versionId() != null) {
            resp.header("x-amz-version-id", info.versionId());
        }
        return resp;
    }

    /**
     * Writes the object's headers: ETag, Last-Modified, Content-Type, stored headers, x-amz-meta-*,
     * x-amz-tagging-count (when it has tags), and the checksums
     * of the bytes the response carries ({@link #checksumsOf}) when {@code checksumMode}.
     */
    public static void write(S3Response resp, ObjectInfo info, Map<String, String> checksums, boolean checksumMode) {
        resp.header("ETag", quote(info.etag()));
        resp.header("Last-Modified", httpDate(info.lastModified()));
        resp.header("Accept-Ranges", "bytes");
        versionId(resp, info);
        ObjectAttributes a = info.attributes();
        resp.header("Content-Type", a.contentType() == null ? DEFAULT_CONTENT_TYPE : a.contentType());
        for (Map.Entry<String, String> h : a.headers().entrySet()) {
            if (!h.getKey().equals(ObjectAcl.STORED_HEADER) && !h.getKey().equals(CustomerKey.DIGEST_HEADER)
                    && !h.getKey().equals(KmsKey.CONTEXT_HEADER) && !h.getKey().equals(KmsKey.DATA_KEY_HEADER)) {
                resp.header(canonicalName(h.getKey()), h.getValue());
            }
        }
        for (Map.Entry<String, String> m : a.userMetadata().entrySet()) {
            resp.header("x-amz-meta-" + m.getKey(), EncodedWords.encode(m.getValue()));
        }
        if (checksumMode && !checksums.isEmpty()) {
            for (Map.Entry<String, String> c : checksums.entrySet()) {
                ChecksumAlgorithm.fromName(c.getKey()).ifPresent(alg -> resp.header(alg.headerName(), c.getValue()));
            }
            resp.header("x-amz-checksum-type", checksumType(info));
        }
        if (info.partCount() > 0) {
            resp.header("x-amz-mp-parts-count", Integer.toString(info.partCount()));
        }
        if (!a.tags().isEmpty()) {
            resp.header("x-amz-tagging-count", Integer.toString(a.tags().size()));
        }
    }

    /**
     * How the object's checksum covers it: COMPOSITE for a multipart object's checksum of its parts' checksums
     * ({@code -N} at its end), else FULL_OBJECT; a part's checksum is reported with the object's type, as S3 does.
     */
    public static String checksumType(ObjectInfo info) {
        return info.attributes().checksums().values().stream().findFirst().map(ChecksumType::ofValue)
                .orElse(ChecksumType.FULL_OBJECT).name();
    }

    /**
     * The checksums of the bytes a response carries: the object's when it is whole ({@code partNumber} 0, or part 1
     * of a single-PUT object), part {@code partNumber}'s of a multipart object stored with part checksums, else none
     * (a client that checks them would fail a range against the whole object's).
     */
    public static Map<String, String> checksumsOf(ObjectInfo info, int partNumber) {
        Map<String, String> object = info.attributes().checksums();
        if (partNumber == 0 || info.partCount() == 0 && partNumber == 1) {
            return object;
        }
        if (info.partChecksums().isEmpty() || partNumber > info.partChecksums().size() || object.size() != 1) {
            return Map.of();
        }
        return Map.of(object.keySet().iterator().next(), info.partChecksums().get(partNumber - 1));
    }

    private static String canonicalName(String lower) {
        StringBuilder sb = new StringBuilder(lower.length());
        boolean up = true;
        for (char c : lower.toCharArray()) {
            sb.append(up ? Character.toUpperCase(c) : c);
            up = c == '-';
        }
        return sb.toString();
    }

    public static String quote(String etag) {
        return etag.startsWith("\"") ? etag : "\"" + etag + "\"";
    }

    public static String httpDate(Instant t) {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.ofInstant(t, ZoneOffset.UTC));
    }

    /** Parses an HTTP date; null when absent or unparsable (S3 ignores an unparsable conditional date). */
    public static Instant parseHttpDate(String v) {
        if (v == null) {
            return null;
        }
        try {
            return ZonedDateTime.parse(v.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return Instant.parse(v.trim());
            } catch (DateTimeParseException e2) {
                return null;
            }
        }
    }

    /** Decodes Content-MD5: null when absent, InvalidDigest when not base64 of 16 bytes. */
    /** BadDigest unless {@code body} has the MD5 {@code expected}; no check when there is none (null). */
    public static void checkMd5(byte[] expected, byte[] body) {
        if (expected == null) {
            return;
        }
        try {
            if (!MessageDigest.isEqual(expected, MessageDigest.getInstance("MD5").digest(body))) {
                throw new S3Exception(S3ErrorCode.BAD_DIGEST);
            }
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks MD5", e);
        }
    }

    public static byte[] contentMd5(S3Request r) {
        String v = r.header("content-md5");
        if (v == null) {
            return null;
        }
        try {
            byte[] md5 = Base64.getDecoder().decode(v.trim());
            if (md5.length != 16) {
                throw new S3Exception(S3ErrorCode.INVALID_DIGEST);
            }
            return md5;
        } catch (IllegalArgumentException e) {
            throw new S3Exception(S3ErrorCode.INVALID_DIGEST);
        }
    }

    /** Writes checksums as S3's XML elements ({@code ChecksumCRC32} ...). */
    public static void checksumElements(XmlResponseWriter w, Map<String, String> checksums) {
        for (Map.Entry<String, String> c : checksums.entrySet()) {
            ChecksumAlgorithm.fromName(c.getKey()).ifPresent(a -> w.element("Checksum" + a.name(), c.getValue()));
        }
    }

    /** The x-amz-checksum-* request headers by algorithm name. */
    public static Map<String, String> checksumHeaders(S3Request r) {
        Map<String, String> out = new TreeMap<>();
        for (ChecksumAlgorithm a : ChecksumAlgorithm.values()) {
            String v = r.header(a.headerName());
            if (v != null) {
                out.put(a.name(), v.trim());
            }
        }
        return out;
    }

    /** Adds the verified body checksums to the response headers, as S3 echoes them on PUT. */
    public static void echoChecksums(S3Response resp, Map<String, String> checksums) {
        for (Map.Entry<String, String> c : checksums.entrySet()) {
            ChecksumAlgorithm.fromName(c.getKey()).ifPresent(a -> resp.header(a.headerName(), c.getValue()));
        }
    }
}
