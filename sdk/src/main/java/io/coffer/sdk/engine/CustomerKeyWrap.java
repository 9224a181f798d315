package io.coffer.sdk.engine;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.CustomerKey;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.manifest.ManifestEntry;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What a customer key (SSE-C) does to an object (docs/FORMAT.md, "Objects under a customer key"): each chunk's key
 * is {@code HMAC-SHA256(HMAC-SHA256(C, "coffer/sse-c/chunk-key/v1"), K)} for the message-locked (or random) {@code K},
 * so equal chunks under different customer keys are different chunks; the manifest keeps each entry's key and hash
 * XORed with a PRF of the chunk id under {@code C}, so the master key alone opens neither; the attributes keep only
 * {@code HMAC-SHA256(deriveSecret("sse-c-digest"), C)}, compared in constant time on every later request.
 */
final class CustomerKeyWrap {
    private static final String DIGEST_PURPOSE = "sse-c-digest";
    static final String NOT_GIVEN = "The object was stored using a form of Server Side Encryption. The correct"
            + " parameters must be provided to retrieve the object.";

    private final byte[] chunkKeyKey;
    private final byte[] wrapKey;
    private final byte[] hashKey;

    CustomerKeyWrap(CustomerKey key) {
        byte[] c = key.rawBytes();
        this.chunkKeyKey = hmac(c, label("coffer/sse-c/chunk-key/v1"));
        this.wrapKey = hmac(c, label("coffer/sse-c/wrap-key/v1"));
        this.hashKey = hmac(c, label("coffer/sse-c/wrap-hash/v1"));
    }

    /** The key a chunk is stored under for this customer key, from its message-locked or random key. */
    ChunkKey chunkKey(ChunkKey key) {
        return ChunkKey.of(hmac(chunkKeyKey, key.rawBytesForCipher()));
    }

    /** Entries as the manifest keeps them (keys and hashes wrapped), or, applied to those, as they were. */
    List<ManifestEntry> wrap(List<ManifestEntry> entries) {
        try {
            Mac keys = mac(wrapKey);
            Mac hashes = mac(hashKey);
            List<ManifestEntry> out = new ArrayList<>(entries.size());
            for (ManifestEntry e : entries) {
                if (e.clusterKey() != null) {
                    throw new IllegalStateException("derived (layer) entries are never under a customer key");
                }
                byte[] id = e.id().toBytes();
                out.add(new ManifestEntry(e.id(), ChunkKey.of(xor(e.key().rawBytesForCipher(), keys.doFinal(id))),
                        xor(e.hash(), hashes.doFinal(id)), e.length()));
            }
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is a required JDK algorithm", e);
        }
    }

    /**
     * {@code attributes} with the digest of {@code key} among their stored headers, or, for a null key, without any
     * digest (a caller's attributes never name one the engine did not stamp).
     */
    static ObjectAttributes stamp(MasterKey master, ObjectAttributes attributes, CustomerKey key) {
        if (key == null && !CustomerKey.protects(attributes)) {
            return attributes;
        }
        Map<String, String> headers = new TreeMap<>(attributes.headers());
        headers.remove(CustomerKey.DIGEST_HEADER);
        if (key != null) {
            headers.put(CustomerKey.DIGEST_HEADER, digest(master, key));
        }
        return attributes.withHeaders(headers);
    }

    /**
     * Checks the key a request gives for an object with {@code attributes}: INVALID_REQUEST when the object is under a
     * customer key and none is given, or a key is given for an object under none; ACCESS_DENIED for another key.
     */
    static void check(MasterKey master, ObjectAttributes attributes, CustomerKey given) {
        String stored = attributes.headers().get(CustomerKey.DIGEST_HEADER);
        if (stored == null) {
            if (given != null) {
                throw CofferException.of(ErrorCode.INVALID_REQUEST,
                        "The encryption parameters are not applicable to this object.");
            }
            return;
        }
        if (given == null) {
            throw CofferException.of(ErrorCode.INVALID_REQUEST, NOT_GIVEN);
        }
        if (!MessageDigest.isEqual(stored.getBytes(StandardCharsets.US_ASCII),
                digest(master, given).getBytes(StandardCharsets.US_ASCII))) {
            throw CofferException.of(ErrorCode.ACCESS_DENIED, "Access Denied");
        }
    }

    static String digest(MasterKey master, CustomerKey key) {
        return Base64.getEncoder().encodeToString(hmac(master.deriveSecret(DIGEST_PURPOSE), key.rawBytes()));
    }

    private static byte[] xor(byte[] a, byte[] pad) {
        byte[] out = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = (byte) (a[i] ^ pad[i]);
        }
        return out;
    }

    private static byte[] label(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static Mac mac(byte[] key) throws GeneralSecurityException {
        Mac m = Mac.getInstance("HmacSHA256");
        m.init(new SecretKeySpec(key, "HmacSHA256"));
        return m;
    }

    private static byte[] hmac(byte[] key, byte[] data) {
        try {
            return mac(key).doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is a required JDK algorithm", e);
        }
    }
}
