package io.coffer.gateway.auth;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The parts of an HTTP request that a signature covers.
 *
 * @param decodedPath   the request path, percent-decoded once (SigV4 encodes it again)
 * @param query         decoded query parameters in request order (names may repeat)
 * @param headers       header values by lower-case name
 * @param rawPath       the path exactly as sent, escapes and all (SigV2 signs it literally)
 * @param virtualBucket the bucket named by the Host header (virtual-hosted style), or null for path style
 */
public record SignedRequest(String method, String decodedPath, List<Map.Entry<String, String>> query,
                            Map<String, List<String>> headers, String rawPath, String virtualBucket) {

    /** A path-style request whose raw path is the canonical encoding of {@code decodedPath}. */
    public SignedRequest(String method, String decodedPath, List<Map.Entry<String, String>> query,
                         Map<String, List<String>> headers) {
        this(method, decodedPath, query, headers, SigV4.canonicalUri(decodedPath), null);
    }

    /** The path of a request-target as sent: origin form up to {@code ?} or {@code #}; absolute form's path. */
    public static String rawPath(String requestTarget) {
        String u = requestTarget;
        if (u.startsWith("http://") || u.startsWith("https://")) {
            int slash = u.indexOf('/', u.indexOf("//") + 2);
            u = slash < 0 ? "/" : u.substring(slash);
        }
        int end = u.length();
        for (char c : new char[] {'?', '#'}) {
            int i = u.indexOf(c);
            if (i >= 0 && i < end) {
                end = i;
            }
        }
        return u.substring(0, end);
    }

    /** The first value of a header (lower-case name), or null. */
    public String header(String lowerName) {
        List<String> v = headers.get(lowerName.toLowerCase(Locale.ROOT));
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    /** The first value of a query parameter, or null. */
    public String queryParam(String name) {
        for (Map.Entry<String, String> e : query) {
            if (e.getKey().equals(name)) {
                return e.getValue();
            }
        }
        return null;
    }
}
