package io.coffer.gateway.s3.cors;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.S3Response;
import io.coffer.sdk.Bucket;
import io.coffer.sdk.Coffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Answers CORS as S3 does from a bucket's rules: a preflight {@code OPTIONS} (no authentication; the first rule that
 * allows the origin, the requested method and every requested header answers it), and the Access-Control-* headers
 * of an actual request whose {@code Origin} and method a rule allows. The first matching rule wins, as in S3.
 */
public final class CorsResponder {
    private static final String NOT_ENABLED = "CORS is not enabled for this bucket.";
    private final Coffer coffer;

    public CorsResponder(Coffer coffer) {
        this.coffer = coffer;
    }

    /**
     * The answer to a preflight on {@code bucket} with the request's {@code headers} (lower-case names): 200 with the
     * Access-Control-* headers; 400 BadRequest without Origin or Access-Control-Request-Method; 403 CORSResponse when
     * the bucket has no rules or none allows the request; NoSuchBucket for a missing bucket.
     */
    public S3Response preflight(String bucket, Map<String, String> headers) {
        if (bucket == null) {
            throw new S3Exception(S3ErrorCode.CORS_RESPONSE, NOT_ENABLED);
        }
        String origin = headers.get("origin");
        if (origin == null || origin.isBlank()) {
            throw new S3Exception(S3ErrorCode.BAD_REQUEST, "Insufficient information. Origin request header needed.");
        }
        String method = headers.get("access-control-request-method");
        if (method == null || method.isBlank()) {
            throw new S3Exception(S3ErrorCode.BAD_REQUEST, "Invalid Access-Control-Request-Method: " + method);
        }
        CorsConfiguration config = rules(coffer.headBucket(bucket))
                .orElseThrow(() -> new S3Exception(S3ErrorCode.CORS_RESPONSE, NOT_ENABLED));
        List<String> requested = headerList(headers.get("access-control-request-headers"));
        for (CorsRule rule : config.rules()) {
            String allowedOrigin = rule.matchingOrigin(origin);
            if (allowedOrigin != null && rule.allowsMethod(method.trim()) && rule.allowsHeaders(requested)) {
                S3Response resp = S3Response.empty(200);
                allow(resp, rule, allowedOrigin, origin);
                if (!requested.isEmpty()) {
                    resp.header("Access-Control-Allow-Headers", String.join(", ", requested));
                }
                resp.header("Vary", "Origin, Access-Control-Request-Headers, Access-Control-Request-Method");
                return resp;
            }
        }
        throw new S3Exception(S3ErrorCode.CORS_RESPONSE);
    }

    /**
     * Adds the Access-Control-* headers to the response of an actual request on {@code bucket} that carries an
     * {@code Origin} a rule allows with the request's method; leaves the response as it is otherwise.
     */
    public void decorate(Bucket bucket, String method, Map<String, String> headers, S3Response resp) {
        String origin = headers.get("origin");
        if (bucket == null || origin == null || origin.isBlank()) {
            return;
        }
        Optional<CorsConfiguration> config = rules(bucket);
        if (config.isEmpty()) {
            return;
        }
        for (CorsRule rule : config.get().rules()) {
            String allowedOrigin = rule.matchingOrigin(origin);
            if (allowedOrigin != null && rule.allowsMethod(method)) {
                allow(resp, rule, allowedOrigin, origin);
                resp.header("Vary", "Origin, Access-Control-Request-Headers, Access-Control-Request-Method");
                return;
            }
        }
    }

    /** The bucket's rules, if it has any. */
    public Optional<CorsConfiguration> rules(Bucket bucket) {
        return coffer.bucketConfig(bucket, CorsConfiguration.BUCKET_CONFIG).map(CorsConfiguration::parse);
    }

    /** The headers S3 sends for a rule that allows the request: an origin rule of {@code *} answers {@code *}. */
    private static void allow(S3Response resp, CorsRule rule, String allowedOrigin, String origin) {
        boolean any = allowedOrigin.equals("*");
        resp.header("Access-Control-Allow-Origin", any ? "*" : origin);
        resp.header("Access-Control-Allow-Methods", String.join(", ", rule.allowedMethods()));
        if (!any) {
            resp.header("Access-Control-Allow-Credentials", "true");
        }
        if (!rule.exposeHeaders().isEmpty()) {
            resp.header("Access-Control-Expose-Headers", String.join(", ", rule.exposeHeaders()));
        }
        if (rule.maxAgeSeconds() >= 0) {
            resp.header("Access-Control-Max-Age", Integer.toString(rule.maxAgeSeconds()));
        }
    }

    private static List<String> headerList(String value) {
        List<String> out = new ArrayList<>();
        if (value != null) {
            for (String h : value.split(",")) {
                if (!h.isBlank()) {
                    out.add(h.trim());
                }
            }
        }
        return out;
    }
}
