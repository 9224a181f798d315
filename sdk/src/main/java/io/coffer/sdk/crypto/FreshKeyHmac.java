package io.coffer.sdk.crypto;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.NoSuchProviderException;
import java.util.Arrays;

/**
 * HMAC-SHA256 (RFC 2104) under a key that changes with every call: chunk ids and the second step of format-3
 * nonces take one HMAC each under a key of their own. {@code Mac.init} with a new key costs more than the four SHA-256
 * blocks the HMAC itself takes (key objects, provider dispatch, under ACCP a native call per step: docs/DECISIONS.md,
 * "HMAC under per-chunk keys"); this class pads the key itself and feeds two digests it keeps. Equal to {@code
 * Mac.getInstance("HmacSHA256")} for every input (ChunkCipherTest, FreshKeyHmacTest with RFC 4231's vectors). Not
 * thread-safe.
 */
final class FreshKeyHmac {
    private static final int BLOCK = 64;
    private final MessageDigest inner = sha256();
    private final MessageDigest outer = sha256();
    private final byte[] pad = new byte[BLOCK];

    /**
     * The JDK's own SHA-256 where present: its compression function is a HotSpot intrinsic, while a native provider
     * (ACCP) pays a JNI call per update, which for the few bytes an HMAC hashes costs more than the hashing.
     */
    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256", "SUN");
        } catch (NoSuchProviderException e) {
            try {
                return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException missing) {
                throw new IllegalStateException("SHA-256 is required of every Java platform", missing);
            }
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    /**
     * {@code HMAC-SHA256(key, message[offset, offset + length))} for a {@code key} of at most 64 bytes (one SHA-256
     * block: RFC 2104 hashes longer keys first, which no caller needs; chunk keys have 32).
     */
    byte[] mac(byte[] key, byte[] message, int offset, int length) {
        if (key.length > BLOCK) {
            throw new IllegalArgumentException("key must be at most " + BLOCK + " bytes, got " + key.length);
        }
        padded(key, (byte) 0x36);
        inner.update(pad);
        inner.update(message, offset, length);
        byte[] innerHash = inner.digest();
        padded(key, (byte) 0x5c);
        outer.update(pad);
        outer.update(innerHash);
        Arrays.fill(pad, (byte) 0); // the padded key is key material: not left in the instance between calls
        return outer.digest();
    }

    private void padded(byte[] key, byte with) {
        for (int i = 0; i < key.length; i++) {
            pad[i] = (byte) (key[i] ^ with);
        }
        for (int i = key.length; i < BLOCK; i++) {
            pad[i] = with;
        }
    }
}
