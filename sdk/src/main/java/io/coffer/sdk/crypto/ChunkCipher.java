package io.coffer.sdk.crypto;

import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Deterministic chunk encryption: AES-256-CTR under the chunk's key with an all-zero IV, as DupLESS's store procedure.
 *
 * <p><b>Warning:</b> equal plaintexts under equal keys give equal ciphertexts; that is what deduplication needs. The
 * construction is sound only because every key encrypts exactly one plaintext: a message-locked key is a PRF of the
 * chunk's SHA-256, a random key is fresh. Never use this class with a key that can cover two different plaintexts
 * (SimEnc's cluster keys do: they use SIV).
 *
 * <p>Integrity is not in the ciphertext: the manifest stores each chunk's plaintext SHA-256, and {@link #decrypt}
 * checks it, so a damaged or swapped chunk is an error, never wrong bytes. Instances are not thread-safe (they reuse
 * a JCE Cipher and digest); use one per thread.
 */
public final class ChunkCipher {
    private static final byte[] ZERO_IV = new byte[16];
    private static final int SLICE = 16 << 10;
    private static final byte[] ID_LABEL = "coffer/chunk-id/v1".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final Cipher cipher;
    private final MessageDigest sha256;
    private final Mac mac;

    public ChunkCipher() {
        try {
            cipher = Cipher.getInstance("AES/CTR/NoPadding");
            sha256 = MessageDigest.getInstance("SHA-256");
            mac = Mac.getInstance("HmacSHA256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("JCE lacks AES-CTR, SHA-256 or HmacSHA256", e);
        }
    }

    /** SHA-256 of a plaintext chunk: the input to the key source and the integrity check on read. */
    public byte[] hash(byte[] data, int offset, int length) {
        sha256.update(data, offset, length);
        return sha256.digest();
    }

    /** The chunk id for a key: {@code HMAC-SHA256(K, "coffer/chunk-id/v1")}. */
    public ChunkId idFor(ChunkKey key) {
        try {
            mac.init(new SecretKeySpec(key.rawBytesForCipher(), "HmacSHA256"));
            return ChunkId.of(mac.doFinal(ID_LABEL));
        } catch (InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Encrypts {@code length} bytes of {@code in} into {@code out} (same length). */
    public void encrypt(ChunkKey key, byte[] in, int inOffset, int length, byte[] out, int outOffset) {
        crypt(key, in, inOffset, length, out, outOffset);
    }

    /**
     * Decrypts in place and checks the plaintext against {@code expectedHash}.
     *
     * @throws ChunkIntegrityException if the plaintext's SHA-256 differs
     */
    public void decrypt(ChunkKey key, byte[] buf, int offset, int length, byte[] expectedHash)
            throws ChunkIntegrityException {
        crypt(key, buf, offset, length, buf, offset);
        sha256.update(buf, offset, length);
        if (!MessageDigest.isEqual(sha256.digest(), expectedHash)) {
            throw new ChunkIntegrityException("Chunk failed its integrity check.");
        }
    }

    private void crypt(ChunkKey key, byte[] in, int inOffset, int length, byte[] out, int outOffset) {
        try {
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key.rawBytesForCipher(), "AES"),
                    new IvParameterSpec(ZERO_IV));
            // CTR output length equals input length; 16 KiB slices: HotSpot compiles implCrypt to its AES-NI stub only
            // after many calls, and 1 MiB slices never got there (docs/BENCHMARKS.md, see also JceWarmup)
            int done = 0;
            while (done < length) {
                int n = Math.min(SLICE, length - done);
                done += cipher.update(in, inOffset + done, n, out, outOffset + done);
            }
            cipher.doFinal(out, outOffset + done);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-CTR failed", e);
        }
    }
}
