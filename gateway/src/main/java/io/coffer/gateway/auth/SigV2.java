package io.coffer.gateway.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The building blocks of AWS Signature Version 2 for S3 ("Signing and authenticating REST requests"): the string to
 * sign, its CanonicalizedAmzHeaders and CanonicalizedResource, and the Base64 HMAC-SHA1 signature. Stateless.
 */
public final class SigV2 {
    /**
     * The query parameters that are part of the CanonicalizedResource: the subresources and response overrides that
     * botocore's HmacV1Auth signs (a superset of the list on AWS's page and of the Java SDK v1's).
     */
    public static final Set<String> SIGNED_SUBRESOURCES = Set.of("accelerate", "acl", "analytics", "cors",
            "defaultObjectAcl", "delete", "inventory", "legal-hold", "lifecycle", "location", "logging", "metrics",
            "notification", "object-lock", "partNumber", "policy", "replication", "requestPayment", "restore",
            "retention", "select", "select-type", "storageClass", "tagging", "torrent", "uploadId", "uploads",
            "versionId", "versioning", "versions", "website", "response-cache-control", "response-content-disposition",
            "response-content-encoding", "response-content-language", "response-content-type", "response-expires");

    private SigV2() {
    }

    /**
     * {@code METHOD \n Content-MD5 \n Content-Type \n Date \n CanonicalizedAmzHeaders CanonicalizedResource}.
     *
     * @param date the Date header, empty when x-amz-date is present, or the Expires parameter of query auth
     */
    public static String stringToSign(String method, String contentMd5, String contentType, String date,
                                      String canonicalAmzHeaders, String canonicalResource) {
        return method + "\n" + nullToEmpty(contentMd5) + "\n" + nullToEmpty(contentType) + "\n" + nullToEmpty(date)
                + "\n" + canonicalAmzHeaders + canonicalResource;
    }

    /**
     * The {@code x-amz-*} headers, lower-case names sorted, the values of one name trimmed and joined by commas, each
     * as {@code name:value\n}.
     */
    public static String canonicalAmzHeaders(Map<String, List<String>> headers) {
        TreeMap<String, String> amz = new TreeMap<>();
        for (Map.Entry<String, List<String>> h : headers.entrySet()) {
            String name = h.getKey().toLowerCase(Locale.ROOT);
            if (name.startsWith("x-amz-")) {
                List<String> values = new ArrayList<>();
                for (String v : h.getValue()) {
                    values.add(HeaderText.signed(v).strip());
                }
                amz.merge(name, String.join(",", values), (a, b) -> a + "," + b);
            }
        }
        StringBuilder sb = new StringBuilder();
        amz.forEach((name, value) -> sb.append(name).append(':').append(value).append('\n'));
        return sb.toString();
    }

    /**
     * {@code /bucket} when the Host names the bucket, then the path as sent, then {@code ?} and the signed
     * subresources sorted by name ({@code name} or {@code name=value}, values not encoded), joined by {@code &}. The
     * resource of a bucket ends in {@code /} in either style: botocore sends a path-style {@code /bucket} but signs
     * {@code /bucket/}.
     */
    public static String canonicalResource(String virtualBucket, String rawPath, List<Map.Entry<String, String>> query) {
        StringBuilder sb = new StringBuilder();
        if (virtualBucket != null) {
            sb.append('/').append(virtualBucket);
        }
        sb.append(rawPath.isEmpty() ? "/" : rawPath);
        if (virtualBucket == null && sb.length() > 1 && sb.indexOf("/", 1) < 0) {
            sb.append('/');
        }
        List<Map.Entry<String, String>> signed = new ArrayList<>();
        for (Map.Entry<String, String> e : query) {
            if (SIGNED_SUBRESOURCES.contains(e.getKey())) {
                signed.add(e);
            }
        }
        signed.sort(Map.Entry.comparingByKey());
        for (int i = 0; i < signed.size(); i++) {
            Map.Entry<String, String> e = signed.get(i);
            sb.append(i == 0 ? '?' : '&').append(e.getKey());
            if (!e.getValue().isEmpty()) {
                sb.append('=').append(e.getValue());
            }
        }
        return sb.toString();
    }

    /** Base64 of the HMAC-SHA1 of the string to sign (UTF-8) under the secret key. */
    public static String sign(String secretKey, String stringToSign) {
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(secretKey.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
            return Base64.getEncoder().encodeToString(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA1 unavailable", e);
        }
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
