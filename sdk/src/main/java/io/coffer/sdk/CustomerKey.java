package io.coffer.sdk;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * A 256-bit key a client names for one object (S3's SSE-C: {@code x-amz-server-side-encryption-customer-key}). The
 * engine never stores it: it derives the object's chunk keys from it (so dedup happens only under the same key) and
 * wraps them with it; it stores only a keyed digest, to tell a wrong key from the right one later (docs/SECURITY.md,
 * "Customer-provided keys"). {@link #toString()} never shows the bytes.
 */
public final class CustomerKey {
    public static final int LENGTH = 32;
    /** S3's only algorithm for customer keys. */
    public static final String ALGORITHM = "AES256";
    /**
     * The stored header (in the object's sealed attributes) that marks an object stored under a customer key and holds
     * the key's digest; never answered to clients.
     */
    public static final String DIGEST_HEADER = "x-coffer-sse-c-key-digest";

    private final byte[] bytes;

    private CustomerKey(byte[] bytes) {
        this.bytes = bytes;
    }

    /** The key of these 32 bytes; IllegalArgumentException for another length. */
    public static CustomerKey of(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("a customer key is " + LENGTH + " bytes, not " + bytes.length);
        }
        return new CustomerKey(bytes.clone());
    }

    /** Whether an object with these attributes was stored under a customer key. */
    public static boolean protects(ObjectAttributes attributes) {
        return attributes.headers().containsKey(DIGEST_HEADER);
    }

    /** The raw key: only for the engine's derivations. */
    public byte[] rawBytes() {
        return bytes.clone();
    }

    /** Base64 of the key's MD5, as S3 echoes it in {@code x-amz-server-side-encryption-customer-key-MD5}. */
    public String md5Base64() {
        try {
            return Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is a required JDK algorithm", e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CustomerKey other && MessageDigest.isEqual(bytes, other.bytes);
    }

    /** From the key's MD5, which clients send anyway: no bits of the key itself. */
    @Override
    public int hashCode() {
        return md5Base64().hashCode();
    }

    @Override
    public String toString() {
        return "CustomerKey[redacted]";
    }
}
