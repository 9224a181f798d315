package io.coffer.gateway.s3.cors;

import java.util.List;
import java.util.Locale;

/**
 * One {@code CORSRule}: the origins and methods it allows, the request headers a preflight may name, the response
 * headers a browser may read, and how long a preflight answer may be cached (-1: not said). Origins and allowed
 * headers may hold one {@code *} wildcard each; headers compare case-insensitively, origins exactly.
 */
public record CorsRule(String id, List<String> allowedOrigins, List<String> allowedMethods,
                       List<String> allowedHeaders, List<String> exposeHeaders, int maxAgeSeconds) {
    public CorsRule {
        allowedOrigins = List.copyOf(allowedOrigins);
        allowedMethods = List.copyOf(allowedMethods);
        allowedHeaders = List.copyOf(allowedHeaders);
        exposeHeaders = List.copyOf(exposeHeaders);
    }

    /** The allowed origin that {@code origin} matches, or null. */
    String matchingOrigin(String origin) {
        for (String o : allowedOrigins) {
            if (wildcardMatch(o, origin)) {
                return o;
            }
        }
        return null;
    }

    boolean allowsMethod(String method) {
        return allowedMethods.contains(method);
    }

    /** True when every header a preflight names is allowed (an empty list always is). */
    boolean allowsHeaders(List<String> requested) {
        for (String h : requested) {
            String lower = h.toLowerCase(Locale.ROOT);
            if (allowedHeaders.stream().noneMatch(a -> wildcardMatch(a.toLowerCase(Locale.ROOT), lower))) {
                return false;
            }
        }
        return true;
    }

    /** {@code pattern} with at most one {@code *}, which stands for any run of characters (none included). */
    static boolean wildcardMatch(String pattern, String value) {
        int star = pattern.indexOf('*');
        if (star < 0) {
            return pattern.equals(value);
        }
        String prefix = pattern.substring(0, star);
        String suffix = pattern.substring(star + 1);
        return value.length() >= prefix.length() + suffix.length() && value.startsWith(prefix)
                && value.endsWith(suffix);
    }
}
