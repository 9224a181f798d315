package io.coffer.gateway.auth;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Verifies AWS Signature Version 4 on a request, in the Authorization header or in a presigned URL's query.
 * Checks the algorithm, credential scope (service {@code s3}, any region), the 15-minute clock skew window or the
 * presigned expiry (at most 7 days), and compares signatures in constant time. The payload itself is verified
 * later, while the body streams ({@link VerifyingInputStream}, {@link AwsChunkedInputStream}).
 */
public final class SigV4Verifier {
    public static final Duration MAX_SKEW = Duration.ofMinutes(15);
    public static final long MAX_PRESIGN_EXPIRY_SECONDS = 7 * 24 * 3600;
    public static final String UNSIGNED_HEADERS = "There were headers present in the request which were not signed";
    /** The query parameters of a presigned URL: authentication, not parameters of the action. */
    static final Set<String> PRESIGN_PARAMS = Set.of("X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date",
            "X-Amz-Expires", "X-Amz-SignedHeaders", "X-Amz-Signature", "X-Amz-Content-Sha256", "X-Amz-Security-Token");
    static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    private final CredentialStore credentials;
    private final Clock clock;

    public SigV4Verifier(CredentialStore credentials, Clock clock) {
        this.credentials = credentials;
        this.clock = clock;
    }

    /** Verifies the request or throws the S3 error a client would get from S3. */
    public AuthResult verify(SignedRequest r) {
        String authorization = r.header("authorization");
        if (authorization != null) {
            return verifyHeader(r, authorization);
        }
        if (r.queryParam("X-Amz-Algorithm") != null || r.queryParam("X-Amz-Signature") != null) {
            return verifyPresigned(r);
        }
        throw new S3Exception(S3ErrorCode.ACCESS_DENIED);
    }

    private AuthResult verifyHeader(SignedRequest r, String authorization) {
        if (!authorization.startsWith(SigV4.ALGORITHM + " ")) {
            throw new S3Exception(S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED);
        }
        String credential = null;
        String signedHeaders = null;
        String signature = null;
        for (String part : authorization.substring(SigV4.ALGORITHM.length() + 1).split(",")) {
            String p = part.trim();
            int eq = p.indexOf('=');
            if (eq <= 0) {
                throw new S3Exception(S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED);
            }
            String name = p.substring(0, eq);
            String value = p.substring(eq + 1).trim();
            switch (name) {
                case "Credential" -> credential = value;
                case "SignedHeaders" -> signedHeaders = value;
                case "Signature" -> signature = value;
                default -> throw new S3Exception(S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED);
            }
        }
        if (credential == null || signedHeaders == null || signature == null) {
            throw new S3Exception(S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED);
        }
        String amzDate = r.header("x-amz-date");
        Instant time;
        if (amzDate != null) {
            time = parseAmzDate(amzDate, S3ErrorCode.ACCESS_DENIED);
        } else if (r.header("date") != null) {
            try {
                time = ZonedDateTime.parse(r.header("date"), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            } catch (DateTimeParseException e) {
                throw new S3Exception(S3ErrorCode.ACCESS_DENIED, "AWS authentication requires a valid Date or"
                        + " x-amz-date header");
            }
            amzDate = AMZ_DATE.format(time);
        } else {
            throw new S3Exception(S3ErrorCode.ACCESS_DENIED, "AWS authentication requires a valid Date or x-amz-date"
                    + " header");
        }
        Instant now = clock.instant();
        if (Duration.between(time, now).abs().compareTo(MAX_SKEW) > 0) {
            throw new S3Exception(S3ErrorCode.REQUEST_TIME_TOO_SKEWED);
        }
        String payloadHash = r.header("x-amz-content-sha256");
        if (payloadHash == null) {
            throw new S3Exception(S3ErrorCode.INVALID_REQUEST, "Missing required header for this request:"
                    + " x-amz-content-sha256");
        }
        checkPayloadHash(payloadHash);
        Scope scope = parseCredential(credential, amzDate, S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED);
        return check(r, scope, amzDate, signedHeaders, signature, payloadHash, List.of(), false);
    }

    private AuthResult verifyPresigned(SignedRequest r) {
        String algorithm = r.queryParam("X-Amz-Algorithm");
        String credential = r.queryParam("X-Amz-Credential");
        String amzDate = r.queryParam("X-Amz-Date");
        String expires = r.queryParam("X-Amz-Expires");
        String signedHeaders = r.queryParam("X-Amz-SignedHeaders");
        String signature = r.queryParam("X-Amz-Signature");
        if (!SigV4.ALGORITHM.equals(algorithm) || credential == null || amzDate == null || signedHeaders == null
                || signature == null) {
            throw new S3Exception(S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR, "Query-string authentication"
                    + " version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date,"
                    + " X-Amz-SignedHeaders, and X-Amz-Expires parameters.");
        }
        long expirySeconds;
        try {
            expirySeconds = Long.parseLong(expires == null ? "" : expires);
        } catch (NumberFormatException e) {
            throw new S3Exception(S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR, "X-Amz-Expires should be a"
                    + " number");
        }
        // out of range is 403, as ceph/s3-tests expects of S3 (a presigned URL that never was or no longer is valid)
        if (expirySeconds < 0) {
            throw new S3Exception(S3ErrorCode.ACCESS_DENIED, "X-Amz-Expires must be non-negative");
        }
        if (expirySeconds > MAX_PRESIGN_EXPIRY_SECONDS) {
            throw new S3Exception(S3ErrorCode.ACCESS_DENIED, "X-Amz-Expires must be less than a week (in seconds)"
                    + " that is 604800");
        }
        Instant time = parseAmzDate(amzDate, S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR);
        Instant now = clock.instant();
        if (time.minus(MAX_SKEW).isAfter(now)) {
            throw new S3Exception(S3ErrorCode.ACCESS_DENIED, "Request is not valid yet");
        }
        // valid for X-Amz-Expires whole seconds from X-Amz-Date: a URL of 0 seconds is never valid
        if (!now.isBefore(time.plusSeconds(expirySeconds))) {
            throw new S3Exception(S3ErrorCode.ACCESS_DENIED, "Request has expired");
        }
        Scope scope = parseCredential(credential, amzDate, S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR);
        String payloadHash = r.queryParam("X-Amz-Content-Sha256");
        if (payloadHash == null) {
            payloadHash = r.header("x-amz-content-sha256");
        }
        if (payloadHash == null) {
            payloadHash = SigV4.UNSIGNED_PAYLOAD;
        }
        checkPayloadHash(payloadHash);
        return check(r, scope, amzDate, signedHeaders, signature, payloadHash, List.of("X-Amz-Signature"), true);
    }

    private AuthResult check(SignedRequest r, Scope scope, String amzDate, String signedHeaders, String signature,
                             String payloadHash, List<String> excludedParams, boolean presigned) {
        Credential cred = credentials.find(scope.accessKeyId)
                .orElseThrow(() -> new S3Exception(S3ErrorCode.INVALID_ACCESS_KEY_ID));
        TreeMap<String, String> canonicalHeaders = new TreeMap<>();
        for (String name : signedHeaders.split(";")) {
            if (name.isEmpty() || !name.equals(name.toLowerCase(Locale.ROOT))) {
                throw new S3Exception(S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED);
            }
            List<String> values = r.headers().get(name);
            if (values == null) {
                throw new S3Exception(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
            }
            List<String> folded = new ArrayList<>();
            for (String v : values) {
                folded.add(SigV4.foldValue(HeaderText.signed(v)));
            }
            canonicalHeaders.put(name, String.join(",", folded));
        }
        if (!canonicalHeaders.containsKey("host")) {
            throw new S3Exception(S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED, "SignedHeaders must include host");
        }
        refuseUnsignedAmzHeaders(r, canonicalHeaders.keySet());
        List<Map.Entry<String, String>> params = new ArrayList<>();
        for (Map.Entry<String, String> e : r.query()) {
            if (!excludedParams.contains(e.getKey())) {
                params.add(e);
            }
        }
        String canonicalRequest = SigV4.canonicalRequest(r.method(), SigV4.canonicalUri(r.decodedPath()),
                SigV4.canonicalQuery(params), canonicalHeaders, presigned && payloadHash.equals(SigV4.UNSIGNED_PAYLOAD)
                        ? SigV4.UNSIGNED_PAYLOAD : payloadHash);
        String scopeString = SigV4.scope(scope.date, scope.region, scope.service);
        byte[] key = SigV4.signingKey(cred.secretKey(), scope.date, scope.region, scope.service);
        String expected = SigV4.sign(key, SigV4.stringToSign(amzDate, scopeString, canonicalRequest));
        if (!SigV4.signaturesEqual(expected, signature)) {
            throw new S3Exception(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
        }
        return new AuthResult(cred, payloadHash, key, amzDate, scopeString, expected, presigned,
                presigned ? PRESIGN_PARAMS : Set.of(), Map.of());
    }

    /**
     * An x-amz-* header changes what an action does (x-amz-copy-source turns a PUT into a copy), so each must be
     * signed, as S3 requires; else a presigned PUT URL, which signs only host, would let its holder add them.
     * x-amz-content-sha256 may go unsigned, as with S3: the canonical request's last line binds the payload anyway.
     */
    private static void refuseUnsignedAmzHeaders(SignedRequest r, Set<String> signed) {
        List<String> unsigned = r.headers().keySet().stream()
                .filter(name -> name.startsWith("x-amz-") && !signed.contains(name)
                        && !name.equals("x-amz-content-sha256"))
                .sorted().toList();
        if (!unsigned.isEmpty()) {
            throw new S3Exception(S3ErrorCode.ACCESS_DENIED, UNSIGNED_HEADERS, "HeadersNotSigned",
                    String.join(", ", unsigned));
        }
    }

    private static void checkPayloadHash(String payloadHash) {
        boolean hex = payloadHash.length() == 64 && payloadHash.chars().allMatch(c -> Character.digit(c, 16) >= 0);
        if (!hex && !payloadHash.equals(SigV4.UNSIGNED_PAYLOAD) && !payloadHash.equals(SigV4.STREAMING_SIGNED)
                && !payloadHash.equals(SigV4.STREAMING_SIGNED_TRAILER)
                && !payloadHash.equals(SigV4.STREAMING_UNSIGNED_TRAILER)) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "x-amz-content-sha256 must be UNSIGNED-PAYLOAD,"
                    + " STREAMING-*, or a valid sha256 value.");
        }
    }

    private static Instant parseAmzDate(String value, S3ErrorCode error) {
        try {
            return ZonedDateTime.parse(value, AMZ_DATE).toInstant();
        } catch (DateTimeParseException e) {
            throw new S3Exception(error, "X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"");
        }
    }

    private static final Pattern REGION = Pattern.compile("[a-z0-9-]{1,64}");

    private static Scope parseCredential(String credential, String amzDate, S3ErrorCode error) {
        String[] parts = credential.split("/");
        if (parts.length != 5 || !parts[4].equals("aws4_request")) {
            throw new S3Exception(error, "The credential is malformed; expecting"
                    + " \"<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request\".");
        }
        if (!REGION.matcher(parts[2]).matches()) {
            throw new S3Exception(error, "The region in the credential is malformed.");
        }
        if (!parts[3].equals("s3")) {
            throw new S3Exception(error, "The credential should be scoped to the correct service: 's3'.");
        }
        if (!amzDate.startsWith(parts[1]) || parts[1].length() != 8) {
            throw new S3Exception(error, "The credential should be scoped to a valid date matching X-Amz-Date.");
        }
        return new Scope(parts[0], parts[1], parts[2], parts[3]);
    }

    private record Scope(String accessKeyId, String date, String region, String service) {
    }
}
