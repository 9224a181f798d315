package io.coffer.gateway.s3;

import io.coffer.gateway.auth.SigV4;

/** Parsing and encoding shared by the listing actions: max-keys style limits and encoding-type=url. */
final class ListingParams {
    private ListingParams() {
    }

    /** A non-negative integer parameter capped at {@code cap}; InvalidArgument when malformed or negative. */
    static int limit(S3Request r, String name, int cap) {
        String v = r.queryParam(name);
        if (v == null) {
            return cap;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n < 0) {
                throw new NumberFormatException(v);
            }
            return Math.min(n, cap);
        } catch (NumberFormatException e) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Provided " + name + " not an integer or within"
                    + " integer range");
        }
    }

    /** True for encoding-type=url; InvalidArgument for any other value. */
    static boolean urlEncoding(S3Request r) {
        String v = r.queryParam("encoding-type");
        if (v == null) {
            return false;
        }
        if (!v.equals("url")) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Invalid Encoding Method specified in Request");
        }
        return true;
    }

    /** Null-safe empty-to-null for optional parameters. */
    static String opt(String v) {
        return v == null || v.isEmpty() ? null : v;
    }

    static String encode(String v, boolean url) {
        return v == null || !url ? v : SigV4.uriEncode(v, true);
    }
}
