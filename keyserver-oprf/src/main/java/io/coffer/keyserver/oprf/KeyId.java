package io.coffer.keyserver.oprf;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The 8-byte identifier of an OPRF key: the first 8 bytes of
 * SHA-256("COFFER-OPRF-KEYID-v1" || algorithm byte || public key encoding), where the algorithm byte is
 * 0x01 for RSA (encoding: X.509 SubjectPublicKeyInfo DER) and 0x02 for P-256 (encoding: 33-byte compressed
 * point). Public information; every answer names the key id it was made with.
 */
public final class KeyId {
    public static final int LENGTH = 8;
    private final byte[] bytes;

    private KeyId(byte[] bytes) {
        this.bytes = bytes;
    }

    public static KeyId of(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("key id must be 8 bytes");
        }
        return new KeyId(bytes.clone());
    }

    public static KeyId fromHex(String hex) {
        return of(HexFormat.of().parseHex(hex));
    }

    static KeyId derive(int algorithm, byte[] publicKeyEncoding) {
        byte[] digest = Octets.sha256(Octets.ascii("COFFER-OPRF-KEYID-v1"), new byte[] {(byte) algorithm}, publicKeyEncoding);
        return new KeyId(Arrays.copyOf(digest, LENGTH));
    }

    public byte[] toBytes() {
        return bytes.clone();
    }

    public String toHex() {
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyId && MessageDigest.isEqual(bytes, ((KeyId) o).bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return toHex();
    }
}
