package io.coffer.gateway.auth;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Verifies AWS Signature Version 2 (HMAC-SHA1), in the Authorization header ({@code AWS AKID:signature}, Date or
 * x-amz-date within 15 minutes) or in the query ({@code AWSAccessKeyId}, {@code Signature}, {@code Expires}).
 * Every {@code x-amz-*} header is part of the string to sign, so none can be added unsigned. The body is not
 * signed: it is checked against x-amz-content-sha256, Content-MD5 or x-amz-checksum-* when the client sends them.
 */
public final class SigV2Verifier {
    public static final String HEADER_PREFIX = "AWS ";
    static final List<String> QUERY_PARAMS = List.of("AWSAccessKeyId", "Signature", "Expires");
    private static final Pattern WEEKDAY = Pattern.compile("^[A-Za-z]{3},\\s*");

    private final CredentialStore credentials;
    private final Clock clock;

    public SigV2Verifier(CredentialStore credentials, Clock clock) {
        this.credentials = credentials;
        this.clock = clock;
    }

    /** True when the request is signed with Signature Version 2 (header or query). */
    public static boolean applies(SignedRequest r) {
        String authorization = r.header("authorization");
        if (authorization != null) {
            return authorization.startsWith(HEADER_PREFIX);
        }
        return r.queryParam("AWSAccessKeyId") != null || r.queryParam("Signature") != null;
    }

    public AuthResult verify(SignedRequest r) {
        String authorization = r.header("authorization");
        return authorization != null ? verifyHeader(r, authorization) : verifyQuery(r);
    }

    private AuthResult verifyHeader(SignedRequest r, String authorization) {
        String credential = authorization.substring(HEADER_PREFIX.length()).strip();
        int colon = credential.lastIndexOf(':');
        if (colon <= 0 || colon == credential.length() - 1) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "AWS authorization header is invalid."
                    + "  Expected AwsAccessKeyId:signature");
        }
        String amzDate = r.header("x-amz-date");
        String date = amzDate != null ? amzDate : r.header("date");
        Instant time = date == null ? null : parseHttpDate(date.strip());
        if (time == null) {
            throw new S3Exception(S3ErrorCode.ACCESS_DENIED, "AWS authentication requires a valid Date or x-amz-date"
                    + " header");
        }
        if (Duration.between(time, clock.instant()).abs().compareTo(SigV4Verifier.MAX_SKEW) > 0) {
            throw new S3Exception(S3ErrorCode.REQUEST_TIME_TOO_SKEWED);
        }
        // with x-amz-date the Date line is empty: x-amz-date is signed among the x-amz-* headers
        String dateLine = amzDate != null ? "" : date.strip();
        return check(r, credential.substring(0, colon), credential.substring(colon + 1), dateLine, r.headers(),
                Set.of(), Map.of(), false);
    }

    private AuthResult verifyQuery(SignedRequest r) {
        String accessKeyId = r.queryParam("AWSAccessKeyId");
        String signature = r.queryParam("Signature");
        String expires = r.queryParam("Expires");
        if (accessKeyId == null || signature == null || expires == null) {
            throw new S3Exception(S3ErrorCode.ACCESS_DENIED, "Query-string authentication requires the Signature,"
                    + " Expires and AWSAccessKeyId parameters");
        }
        long expiresAt;
        try {
            expiresAt = Long.parseLong(expires);
        } catch (NumberFormatException e) {
            throw new S3Exception(S3ErrorCode.ACCESS_DENIED, "Invalid date (should be seconds since epoch): "
                    + expires);
        }
        if (clock.instant().getEpochSecond() > expiresAt) {
            throw new S3Exception(S3ErrorCode.ACCESS_DENIED, "Request has expired");
        }
        // presigners (botocore) move the signed x-amz-*, Content-Type and Content-MD5 headers into the query;
        // a header of the same name sent as well is what gets signed, so it cannot be swapped unsigned
        Map<String, List<String>> headers = new LinkedHashMap<>(r.headers());
        Set<String> consumed = new HashSet<>(QUERY_PARAMS);
        Map<String, String> queryHeaders = new LinkedHashMap<>();
        for (Map.Entry<String, String> p : r.query()) {
            String name = p.getKey().toLowerCase(Locale.ROOT);
            if (name.startsWith("x-amz-") || name.equals("content-type") || name.equals("content-md5")) {
                consumed.add(p.getKey());
                if (!r.headers().containsKey(name)) {
                    headers.computeIfAbsent(name, k -> new ArrayList<>()).add(p.getValue());
                    queryHeaders.merge(name, p.getValue(), (a, b) -> a + "," + b);
                }
            }
        }
        // a Base64 '+' left unescaped in the URL arrives as a space
        return check(r, accessKeyId, signature.replace(' ', '+'), expires, headers, Set.copyOf(consumed),
                Map.copyOf(queryHeaders), true);
    }

    private AuthResult check(SignedRequest r, String accessKeyId, String signature, String dateLine,
                             Map<String, List<String>> headers, Set<String> authParams,
                             Map<String, String> queryHeaders, boolean presigned) {
        Credential cred = credentials.find(accessKeyId)
                .orElseThrow(() -> new S3Exception(S3ErrorCode.INVALID_ACCESS_KEY_ID));
        String stringToSign = SigV2.stringToSign(r.method(), first(headers, "content-md5"),
                first(headers, "content-type"), dateLine, SigV2.canonicalAmzHeaders(headers),
                SigV2.canonicalResource(r.virtualBucket(), r.rawPath(), r.query()));
        String expected = SigV2.sign(cred.secretKey(), stringToSign);
        if (!MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                signature.getBytes(StandardCharsets.UTF_8))) {
            throw new S3Exception(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
        }
        return new AuthResult(cred, payloadHash(r), null, null, null, expected, presigned, authParams, queryHeaders);
    }

    /** The body is unsigned unless the client declared its SHA-256 (or unsigned aws-chunked with trailers). */
    private static String payloadHash(SignedRequest r) {
        String declared = r.header("x-amz-content-sha256");
        if (declared == null || declared.equals(SigV4.UNSIGNED_PAYLOAD)) {
            return SigV4.UNSIGNED_PAYLOAD;
        }
        if (declared.equals(SigV4.STREAMING_UNSIGNED_TRAILER)
                || declared.length() == 64 && declared.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            return declared;
        }
        throw new S3Exception(S3ErrorCode.INVALID_REQUEST, "x-amz-content-sha256 " + declared + " needs Signature"
                + " Version 4");
    }

    private static String first(Map<String, List<String>> headers, String name) {
        List<String> v = headers.get(name);
        return v == null || v.isEmpty() ? null : HeaderText.signed(v.get(0)).strip();
    }

    /**
     * RFC 1123 ({@code Tue, 27 Mar 2007 19:36:42 +0000} or {@code GMT}) from 1970 on, or ISO 8601 basic, else null.
     * The weekday is not checked against the date (S3 does not: a wrong one still gets RequestTimeTooSkewed or passes).
     */
    private static Instant parseHttpDate(String value) {
        try {
            Instant t = ZonedDateTime.parse(WEEKDAY.matcher(value).replaceFirst(""),
                    DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            return t.isBefore(Instant.EPOCH) ? null : t; // S3: a date before 1970 is no valid date (AccessDenied)
        } catch (DateTimeParseException e) {
            try {
                return ZonedDateTime.parse(value, SigV4Verifier.AMZ_DATE).toInstant();
            } catch (DateTimeParseException e2) {
                return null;
            }
        }
    }
}
