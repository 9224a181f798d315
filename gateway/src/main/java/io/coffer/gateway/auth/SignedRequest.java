package io.coffer.gateway.auth;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The parts of an HTTP request that SigV4 covers.
 *
 * @param decodedPath the request path, percent-decoded once
 * @param query       decoded query parameters in request order (names may repeat)
 * @param headers     header values by lower-case name
 */
public record SignedRequest(String method, String decodedPath, List<Map.Entry<String, String>> query,
                            Map<String, List<String>> headers) {

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
