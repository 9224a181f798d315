package io.coffer.gateway.s3.sse;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.S3Request;
import io.coffer.gateway.s3.S3Response;
import io.coffer.sdk.CustomerKey;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * SSE-C's request headers ({@code x-amz-server-side-encryption-customer-algorithm}, {@code -key}, {@code -key-MD5},
 * and their {@code x-amz-copy-source-} forms for a copy's source), checked as S3 checks them: all three or none,
 * algorithm {@code AES256}, a key of 32 bytes in base64 and the base64 MD5 of those bytes (400 InvalidArgument
 * otherwise, before anything is read or stored). S3 refuses them over plain http; here that is
 * {@code sse-c-over-http} (docs/S3-COMPATIBILITY.md, "SSE-C").
 */
public final class CustomerKeyHeaders {
    public static final String ALGORITHM = "x-amz-server-side-encryption-customer-algorithm";
    public static final String KEY = "x-amz-server-side-encryption-customer-key";
    public static final String KEY_MD5 = "x-amz-server-side-encryption-customer-key-md5";
    /** What a copy's source headers have in place of {@code x-amz-}. */
    private static final String COPY_SOURCE = "x-amz-copy-source-";
    private static final int MAX_BASE64 = 64;

    private final boolean accepted;

    /** @param accepted whether SSE-C requests are accepted on this server (TLS, or allowed over http) */
    public CustomerKeyHeaders(boolean accepted) {
        this.accepted = accepted;
    }

    /** The key the request names for its object, or null when it names none. */
    public CustomerKey requested(S3Request r) {
        return parse(r, "x-amz-");
    }

    /** The key a copy names for its source ({@code x-amz-copy-source-server-side-encryption-customer-*}), or null. */
    public CustomerKey copySource(S3Request r) {
        return parse(r, COPY_SOURCE);
    }

    /** Echoes the key's algorithm and MD5 as S3 does on every response about an SSE-C object. */
    public static S3Response echo(S3Response resp, CustomerKey key) {
        if (key != null) {
            resp.header(ALGORITHM, CustomerKey.ALGORITHM);
            resp.header(KEY_MD5, key.md5Base64());
        }
        return resp;
    }

    private CustomerKey parse(S3Request r, String prefix) {
        String algorithm = r.header(prefix + unprefixed(ALGORITHM));
        String key = r.header(prefix + unprefixed(KEY));
        String md5 = r.header(prefix + unprefixed(KEY_MD5));
        if (algorithm == null && key == null && md5 == null) {
            return null;
        }
        if (!accepted) {
            throw new S3Exception(S3ErrorCode.INVALID_REQUEST, "Requests specifying Server Side Encryption with"
                    + " Customer provided keys must be made over a secure connection.");
        }
        if (algorithm == null) {
            throw invalid("Requests specifying Server Side Encryption with Customer provided keys must provide a"
                    + " valid encryption algorithm.");
        }
        if (!algorithm.trim().equals(CustomerKey.ALGORITHM)) {
            throw invalid("The encryption algorithm specified is not valid. Supported value: AES256.");
        }
        if (key == null) {
            throw invalid("Requests specifying Server Side Encryption with Customer provided keys must provide an"
                    + " appropriate secret key.");
        }
        if (md5 == null) {
            throw invalid("Requests specifying Server Side Encryption with Customer provided keys must provide the"
                    + " client calculated MD5 of the secret key.");
        }
        byte[] raw = decode(key.trim());
        if (raw == null || raw.length != CustomerKey.LENGTH) {
            throw invalid("The secret key was invalid for the specified algorithm.");
        }
        CustomerKey customerKey = CustomerKey.of(raw);
        byte[] givenMd5 = decode(md5.trim());
        if (givenMd5 == null || !MessageDigest.isEqual(givenMd5,
                Base64.getDecoder().decode(customerKey.md5Base64()))) {
            throw invalid("The calculated MD5 hash of the key did not match the hash that was provided.");
        }
        return customerKey;
    }

    private static String unprefixed(String header) {
        return header.substring("x-amz-".length());
    }

    /** Strict base64 of at most {@link #MAX_BASE64} characters, or null. */
    private static byte[] decode(String v) {
        if (v.length() > MAX_BASE64) {
            return null;
        }
        try {
            return Base64.getDecoder().decode(v);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static S3Exception invalid(String message) {
        return new S3Exception(S3ErrorCode.INVALID_ARGUMENT, message);
    }
}
