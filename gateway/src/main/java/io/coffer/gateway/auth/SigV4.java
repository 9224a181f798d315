package io.coffer.gateway.auth;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The building blocks of AWS Signature Version 4 exactly as AWS specifies them for S3: URI encoding, the canonical
 * request, the string to sign, the signing key and the chunk and trailer strings to sign of aws-chunked payloads.
 * Stateless; used by the verifier and by tests to sign requests.
 */
public final class SigV4 {
    public static final String ALGORITHM = "AWS4-HMAC-SHA256";
    public static final String UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
    public static final String STREAMING_SIGNED = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD";
    public static final String STREAMING_SIGNED_TRAILER = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER";
    public static final String STREAMING_UNSIGNED_TRAILER = "STREAMING-UNSIGNED-PAYLOAD-TRAILER";
    public static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    private static final HexFormat HEX = HexFormat.of();

    private SigV4() {
    }

    /**
     * URI-encodes as SigV4 requires: every byte but the unreserved characters {@code A-Z a-z 0-9 - _ . ~} becomes
     * {@code %XY} (upper-case hex); {@code /} is kept when {@code keepSlash}.
     */
    public static String uriEncode(String s, boolean keepSlash) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder(bytes.length + 16);
        for (byte b : bytes) {
            int c = b & 0xff;
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
                    || c == '.' || c == '~' || (keepSlash && c == '/')) {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return sb.toString();
    }

    /**
     * Decodes {@code %XY} escapes as UTF-8; {@code plusIsSpace} for query strings. Throws IllegalArgumentException on
     * a malformed escape or invalid UTF-8.
     */
    public static String percentDecode(String s, boolean plusIsSpace) {
        if (s.indexOf('%') < 0 && (!plusIsSpace || s.indexOf('+') < 0)) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    throw new IllegalArgumentException("malformed escape");
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw new IllegalArgumentException("malformed escape");
                }
                out.write(hi << 4 | lo);
                i += 2;
            } else if (c == '+' && plusIsSpace) {
                out.write(' ');
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
                    b = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                out.writeBytes(b);
            }
        }
        byte[] bytes = out.toByteArray();
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("invalid UTF-8 in escape", e);
        }
    }

    /** The canonical URI of an S3 request: the decoded path, encoded once (S3 does not double-encode). */
    public static String canonicalUri(String decodedPath) {
        return decodedPath.isEmpty() ? "/" : uriEncode(decodedPath, true);
    }

    /** The canonical query string of decoded name/value pairs: each encoded, sorted by name then value. */
    public static String canonicalQuery(List<Map.Entry<String, String>> decodedParams) {
        List<String[]> encoded = new ArrayList<>();
        for (Map.Entry<String, String> e : decodedParams) {
            encoded.add(new String[] {uriEncode(e.getKey(), false), uriEncode(e.getValue(), false)});
        }
        encoded.sort((a, b) -> {
            int c = a[0].compareTo(b[0]);
            return c != 0 ? c : a[1].compareTo(b[1]);
        });
        StringBuilder sb = new StringBuilder();
        for (String[] p : encoded) {
            if (sb.length() > 0) {
                sb.append('&');
            }
            sb.append(p[0]).append('=').append(p[1]);
        }
        return sb.toString();
    }

    /** A header value as canonicalized: trimmed, runs of spaces folded to one. */
    public static String foldValue(String v) {
        String t = v.trim();
        // most values have nothing to fold: skip the regex (it ran for every signed header of every request)
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (isSpace(c) && (c != ' ' || (i + 1 < t.length() && isSpace(t.charAt(i + 1))))) {
                return WHITESPACE.matcher(t).replaceAll(" ");
            }
        }
        return t;
    }

    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    /** Regex {@code \s}: space, tab, newline, vertical tab, form feed, carriage return. */
    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    /**
     * The canonical request.
     *
     * @param canonicalHeaders lower-case header name to the (already joined) values of the signed headers, sorted
     */
    public static String canonicalRequest(String method, String canonicalUri, String canonicalQuery,
                                          SortedMap<String, String> canonicalHeaders, String payloadHash) {
        StringBuilder sb = new StringBuilder(256);
        sb.append(method).append('\n').append(canonicalUri).append('\n').append(canonicalQuery).append('\n');
        for (Map.Entry<String, String> h : canonicalHeaders.entrySet()) {
            sb.append(h.getKey()).append(':').append(foldValue(h.getValue())).append('\n');
        }
        sb.append('\n').append(String.join(";", canonicalHeaders.keySet())).append('\n').append(payloadHash);
        return sb.toString();
    }

    public static String scope(String date, String region, String service) {
        return date + "/" + region + "/" + service + "/aws4_request";
    }

    public static String stringToSign(String amzDate, String scope, String canonicalRequest) {
        return ALGORITHM + "\n" + amzDate + "\n" + scope + "\n" + sha256Hex(canonicalRequest);
    }

    /** The string to sign of one aws-chunked chunk. */
    public static String chunkStringToSign(String amzDate, String scope, String previousSignature,
                                           String chunkSha256Hex) {
        return "AWS4-HMAC-SHA256-PAYLOAD\n" + amzDate + "\n" + scope + "\n" + previousSignature + "\n" + EMPTY_SHA256
                + "\n" + chunkSha256Hex;
    }

    /** The string to sign of an aws-chunked trailer block ({@code name:value\n} lines). */
    public static String trailerStringToSign(String amzDate, String scope, String previousSignature,
                                             String trailerHeaders) {
        return "AWS4-HMAC-SHA256-TRAILER\n" + amzDate + "\n" + scope + "\n" + previousSignature + "\n"
                + sha256Hex(trailerHeaders);
    }

    public static byte[] signingKey(String secretKey, String date, String region, String service) {
        byte[] k = hmac(("AWS4" + secretKey).getBytes(StandardCharsets.UTF_8), date);
        k = hmac(k, region);
        k = hmac(k, service);
        return hmac(k, "aws4_request");
    }

    public static String sign(byte[] signingKey, String stringToSign) {
        return HEX.formatHex(hmac(signingKey, stringToSign));
    }

    /** Constant-time comparison of two hex signatures. */
    public static boolean signaturesEqual(String expected, String provided) {
        if (provided == null) {
            return false;
        }
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                provided.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII));
    }

    public static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    public static String sha256Hex(String s) {
        return HEX.formatHex(sha256().digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    public static String hex(byte[] b) {
        return HEX.formatHex(b);
    }

    public static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}
