package io.coffer.gateway.http;

import io.coffer.gateway.auth.SigV4;
import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where a request points: the bucket and key from path-style ({@code /bucket/key}) or virtual-hosted-style
 * ({@code bucket.base-domain/key}) addressing, the decoded path SigV4 signs and the decoded query. Escapes and raw
 * bytes that are not UTF-8 are InvalidURI (400).
 *
 * @param bucket null for the service root (ListBuckets)
 * @param key    null for bucket-level requests
 */
record RequestTarget(String bucket, String key, String decodedPath, List<Map.Entry<String, String>> queryList) {

    /** The first value of each query parameter, in request order. */
    Map<String, String> queryMap() {
        Map<String, String> m = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : queryList) {
            m.putIfAbsent(e.getKey(), e.getValue());
        }
        return m;
    }

    /**
     * @param uri        the request-target as sent (origin form; absolute form is reduced to its path)
     * @param host       the Host header, may be null
     * @param baseDomain the virtual-hosted base domain (for example {@code s3.localhost}), or null
     */
    static RequestTarget parse(String uri, String host, String baseDomain) {
        String u = uri;
        if (u.startsWith("http://") || u.startsWith("https://")) {
            int slash = u.indexOf('/', u.indexOf("//") + 2);
            u = slash < 0 ? "/" : u.substring(slash);
        }
        if (!u.startsWith("/")) {
            throw new S3Exception(S3ErrorCode.INVALID_URI);
        }
        u = utf8(u);
        int q = u.indexOf('?');
        String rawPath = q < 0 ? u : u.substring(0, q);
        String rawQuery = q < 0 ? "" : u.substring(q + 1);
        int hash = rawQuery.indexOf('#');
        if (hash >= 0) {
            rawQuery = rawQuery.substring(0, hash);
        }
        String path;
        List<Map.Entry<String, String>> query = new ArrayList<>();
        try {
            path = SigV4.percentDecode(rawPath, false);
            if (!rawQuery.isEmpty()) {
                for (String pair : rawQuery.split("&")) {
                    if (pair.isEmpty()) {
                        continue;
                    }
                    int eq = pair.indexOf('=');
                    String name = SigV4.percentDecode(eq < 0 ? pair : pair.substring(0, eq), true);
                    String value = eq < 0 ? "" : SigV4.percentDecode(pair.substring(eq + 1), true);
                    query.add(new AbstractMap.SimpleImmutableEntry<>(name, value));
                }
            }
        } catch (IllegalArgumentException e) {
            throw new S3Exception(S3ErrorCode.INVALID_URI);
        }
        String virtualBucket = virtualBucket(host, baseDomain);
        if (virtualBucket != null) {
            String key = path.length() > 1 ? path.substring(1) : null;
            return new RequestTarget(virtualBucket, key, path, query);
        }
        String rest = path.substring(1);
        if (rest.isEmpty()) {
            return new RequestTarget(null, null, path, query);
        }
        int slash = rest.indexOf('/');
        if (slash < 0) {
            return new RequestTarget(rest, null, path, query);
        }
        String key = rest.substring(slash + 1);
        return new RequestTarget(rest.substring(0, slash), key.isEmpty() ? null : key, path, query);
    }

    /**
     * The request line as its bytes mean in UTF-8: the HTTP decoder hands each byte over as one ISO-8859-1 char, so
     * bytes above 0x7F sent unescaped are read again as UTF-8; what is not UTF-8 is InvalidURI, as for escapes.
     */
    private static String utf8(String u) {
        boolean ascii = true;
        for (int i = 0; i < u.length(); i++) {
            char c = u.charAt(i);
            if (c > 0xFF) {
                throw new S3Exception(S3ErrorCode.INVALID_URI);
            }
            ascii &= c < 0x80;
        }
        if (ascii) {
            return u;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(u.getBytes(StandardCharsets.ISO_8859_1))).toString();
        } catch (CharacterCodingException e) {
            throw new S3Exception(S3ErrorCode.INVALID_URI);
        }
    }

    static String virtualBucket(String host, String baseDomain) {
        if (host == null || baseDomain == null || baseDomain.isEmpty()) {
            return null;
        }
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            return null;
        }
        int colon = h.lastIndexOf(':');
        if (colon >= 0) {
            h = h.substring(0, colon);
        }
        String suffix = "." + baseDomain.toLowerCase(Locale.ROOT);
        if (h.endsWith(suffix) && h.length() > suffix.length()) {
            return h.substring(0, h.length() - suffix.length());
        }
        return null;
    }
}
