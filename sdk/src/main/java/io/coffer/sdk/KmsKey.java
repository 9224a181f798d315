package io.coffer.sdk;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A 256-bit key of a keyring, named by its id (S3's SSE-KMS: {@code x-amz-server-side-encryption: aws:kms} with
 * {@code x-amz-server-side-encryption-aws-kms-key-id}). An object stored under it is stored as under a customer key
 * (SSE-C) whose bytes are {@code HMAC-SHA256(k, "coffer/sse-kms/object-key/v1")}: the same wrapping of chunk keys, dedup
 * only among objects under the same key, and a keyed digest in the attributes; a label keeps a keyring key from
 * ever being the same key as one a client sends for SSE-C. The object's stored headers name the algorithm and the key
 * id ({@link #stamp}), in the sealed manifest, so a read needs no key from the client: the gateway finds the id there
 * and the key in its keyring (docs/FORMAT.md, "Objects under a keyring key"). A key from a KMS ({@link #ofDataKey}) is
 * a data key the KMS generated under the key id: its KMS-encrypted form is stamped too ({@link #DATA_KEY_HEADER}), so a
 * read asks the KMS to decrypt it and needs nothing else (docs/FORMAT.md, "Objects under a KMS data key").
 * {@link #toString()} never shows the key.
 */
public final class KmsKey {
    public static final int LENGTH = 32;
    /** S3's algorithm name for SSE-KMS. */
    public static final String ALGORITHM = "aws:kms";
    /** The stored header naming the algorithm, answered on GET and HEAD as S3 does. */
    public static final String SSE_HEADER = "x-amz-server-side-encryption";
    /** The stored header naming the key id, answered on GET and HEAD as S3 does. */
    public static final String KEY_ID_HEADER = "x-amz-server-side-encryption-aws-kms-key-id";
    /** The stored header that keeps whether the client asked for a bucket key (changes nothing here; echoed). */
    public static final String BUCKET_KEY_HEADER = "x-amz-server-side-encryption-bucket-key-enabled";
    /** The stored header that keeps the client's encryption context (base64 JSON); never answered on GET or HEAD. */
    public static final String CONTEXT_HEADER = "x-coffer-sse-kms-context";
    /** The stored header that keeps a KMS data key as the KMS encrypted it (base64); never answered on GET or HEAD. */
    public static final String DATA_KEY_HEADER = "x-coffer-sse-kms-data-key";
    private static final String[] STAMPED = {SSE_HEADER, KEY_ID_HEADER, BUCKET_KEY_HEADER, CONTEXT_HEADER,
        DATA_KEY_HEADER};
    private static final byte[] OBJECT_KEY_LABEL = "coffer/sse-kms/object-key/v1".getBytes(StandardCharsets.US_ASCII);

    private final String id;
    private final byte[] bytes;
    private final String wrappedDataKey;

    private KmsKey(String id, byte[] bytes, String wrappedDataKey) {
        this.id = id;
        this.bytes = bytes;
        this.wrappedDataKey = wrappedDataKey;
    }

    /** The key {@code id} with these 32 bytes; IllegalArgumentException for another length or an empty id. */
    public static KmsKey of(String id, byte[] bytes) {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("a keyring key needs an id");
        }
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("a keyring key is " + LENGTH + " bytes, not " + bytes.length);
        }
        return new KmsKey(id, bytes.clone(), null);
    }

    /**
     * A KMS data key: its 32 plaintext bytes, generated under the KMS key {@code id}, and {@code wrappedDataKey}, the
     * base64 of the KMS's encryption of them, which objects stored under it keep; IllegalArgumentException as
     * {@link #of}, or for a missing wrapped form.
     */
    public static KmsKey ofDataKey(String id, byte[] dataKey, String wrappedDataKey) {
        if (wrappedDataKey == null || wrappedDataKey.isEmpty()) {
            throw new IllegalArgumentException("a KMS data key needs its encrypted form");
        }
        KmsKey plain = of(id, dataKey);
        return new KmsKey(plain.id, plain.bytes, wrappedDataKey);
    }

    public String id() {
        return id;
    }

    /** The KMS's encryption of this data key (base64), null for a keyring key. */
    public String wrappedDataKey() {
        return wrappedDataKey;
    }

    /** The customer key objects under this key are stored with (the engine's SSE-C path). */
    public CustomerKey objectKey() {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(bytes, "HmacSHA256"));
            return CustomerKey.of(mac.doFinal(OBJECT_KEY_LABEL));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is a required JDK algorithm", e);
        }
    }

    /** The key id an object with these attributes was stored under, or null for an object not under a keyring key. */
    public static String keyIdOf(ObjectAttributes attributes) {
        return ALGORITHM.equals(attributes.headers().get(SSE_HEADER)) ? attributes.headers().get(KEY_ID_HEADER) : null;
    }

    /** The KMS-encrypted data key an object with these attributes was stored under, null when it names none. */
    public static String wrappedDataKeyOf(ObjectAttributes attributes) {
        return keyIdOf(attributes) == null ? null : attributes.headers().get(DATA_KEY_HEADER);
    }

    /**
     * {@code attributes} marked as stored under this key: the algorithm, the id, the encryption context when given,
     * the bucket-key flag when set and a KMS data key's encrypted form, replacing any such marks they had.
     */
    public ObjectAttributes stamp(ObjectAttributes attributes, String context, boolean bucketKeyEnabled) {
        Map<String, String> headers = unstamped(attributes.headers());
        headers.put(SSE_HEADER, ALGORITHM);
        headers.put(KEY_ID_HEADER, id);
        if (context != null) {
            headers.put(CONTEXT_HEADER, context);
        }
        if (bucketKeyEnabled) {
            headers.put(BUCKET_KEY_HEADER, "true");
        }
        if (wrappedDataKey != null) {
            headers.put(DATA_KEY_HEADER, wrappedDataKey);
        }
        return attributes.withHeaders(headers);
    }

    /** {@code attributes} without any keyring marks (a copy of such an object stored otherwise). */
    public static ObjectAttributes unstamp(ObjectAttributes attributes) {
        if (!attributes.headers().containsKey(SSE_HEADER) && !attributes.headers().containsKey(KEY_ID_HEADER)) {
            return attributes;
        }
        return attributes.withHeaders(unstamped(attributes.headers()));
    }

    private static Map<String, String> unstamped(Map<String, String> headers) {
        Map<String, String> out = new TreeMap<>(headers);
        for (String h : STAMPED) {
            out.remove(h);
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KmsKey other && id.equals(other.id) && MessageDigest.isEqual(bytes, other.bytes)
                && Objects.equals(wrappedDataKey, other.wrappedDataKey);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return "KmsKey[" + id + ", redacted]";
    }
}
