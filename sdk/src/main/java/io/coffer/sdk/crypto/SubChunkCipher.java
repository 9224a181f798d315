package io.coffer.sdk.crypto;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.bouncycastle.crypto.modes.GCMSIVBlockCipher;
import org.bouncycastle.crypto.params.AEADParameters;
import org.bouncycastle.crypto.params.KeyParameter;

/**
 * Deterministic, misuse-resistant encryption of the sub-chunks of SimEnc's layer mode, which share one cluster key:
 * AES-256-GCM-SIV (RFC 8452, BouncyCastle's {@link GCMSIVBlockCipher}) under {@code Ks = HMAC-SHA256(sealKey,
 * "coffer/subchunk/v1" || K)}, with a synthetic nonce {@code N = HMAC-SHA256(Kn, plaintext)[0..12)},
 * {@code Kn = HMAC-SHA256(sealKey, "coffer/subchunk-nonce/v1" || K)}. Stored form: {@code N(12) || ciphertext || tag(16)}.
 *
 * <p>Why not {@link ChunkCipher}: its fixed nonce is sound only because a key there covers one plaintext. A cluster key
 * covers every sub-chunk of every chunk in its cluster, thousands of different plaintexts; AES-GCM (or CTR) with a
 * fixed nonce under such a key gives away the XOR of plaintexts and lets anyone forge tags. Nothing here uses a fixed
 * nonce under a shared key.
 *
 * <p>Why this is safe although deterministic: the nonce is a PRF of the plaintext under a key only the store holds,
 * so two different plaintexts get different nonces (except with probability 2^-96 per pair), and GCM-SIV then runs
 * within its nonce-respecting bounds. Equal (K, plaintext) give an equal nonce and so an equal ciphertext, which is
 * exactly what deduplication by ciphertext needs; and because GCM-SIV stays secure even when a nonce repeats (RFC 8452
 * section 9), the scheme as a whole is a deterministic authenticated encryption: an observer learns which stored
 * sub-chunks are equal and nothing else (IND security up to equality, the best a deduplicating scheme can give).
 *
 * <p>Why the seal key (from the master key) takes part: the cluster key {@code K} comes from the key source, so
 * whoever knows a cluster's representative chunk can obtain it. Under {@code K} alone they could forge sub-chunks a
 * reader would accept; under {@code Ks} they also need the master key, as for {@link ChunkCipher}. Instances are not
 * thread-safe (they reuse a {@link Mac}); use one per thread.
 */
public final class SubChunkCipher {
    /** Bytes of the synthetic nonce stored in front of each sealed sub-chunk. */
    public static final int NONCE_LENGTH = 12;
    /** Bytes of the GCM-SIV tag stored after the ciphertext. */
    public static final int TAG_LENGTH = 16;
    /** Bytes a sealed sub-chunk has beyond its plaintext. */
    public static final int OVERHEAD = NONCE_LENGTH + TAG_LENGTH;
    /** The {@link MasterKey#deriveSecret} purpose of the key every sub-chunk key is derived from. */
    public static final String SEAL_PURPOSE = "subchunk-seal";
    private static final byte[] ENC_LABEL = "coffer/subchunk/v1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NONCE_LABEL = "coffer/subchunk-nonce/v1".getBytes(StandardCharsets.US_ASCII);

    private final SecretKeySpec sealKey;
    private final Mac mac;
    private final GCMSIVBlockCipher siv = new GCMSIVBlockCipher();
    private ChunkKey lastKey;
    private byte[] lastEncKey;
    private SecretKeySpec lastNonceKey;

    /** A cipher whose sub-chunk keys derive from the 32-byte {@code subChunkSealKey} (the master key's {@link #SEAL_PURPOSE}). */
    public SubChunkCipher(byte[] subChunkSealKey) {
        if (subChunkSealKey.length != 32) {
            throw new IllegalArgumentException("sub-chunk seal key must be 32 bytes");
        }
        this.sealKey = new SecretKeySpec(subChunkSealKey, "HmacSHA256");
        try {
            this.mac = Mac.getInstance("HmacSHA256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("JCE lacks HmacSHA256", e);
        }
    }

    /** The stored length of a sub-chunk of {@code plainLength} bytes. */
    public static int sealedLength(int plainLength) {
        return plainLength + OVERHEAD;
    }

    /** Seals {@code length} bytes of {@code in} under the cluster key; equal (key, bytes) give equal output. */
    public byte[] seal(ChunkKey clusterKey, byte[] in, int offset, int length) {
        deriveKeys(clusterKey);
        byte[] nonce = nonce(in, offset, length);
        byte[] out = new byte[sealedLength(length)];
        System.arraycopy(nonce, 0, out, 0, NONCE_LENGTH);
        try {
            siv.init(true, new AEADParameters(new KeyParameter(lastEncKey), TAG_LENGTH * 8, nonce));
            int n = siv.processBytes(in, offset, length, out, NONCE_LENGTH);
            siv.doFinal(out, NONCE_LENGTH + n);
        } catch (InvalidCipherTextException e) {
            throw new IllegalStateException("AES-GCM-SIV encryption failed", e);
        }
        return out;
    }

    /**
     * The plaintext of a sealed sub-chunk.
     *
     * @throws ChunkIntegrityException when the tag does not match (altered, truncated or swapped bytes, wrong key)
     */
    public byte[] open(ChunkKey clusterKey, byte[] sealed, int offset, int length) throws ChunkIntegrityException {
        if (length < OVERHEAD) {
            throw new ChunkIntegrityException("Sub-chunk has " + length + " bytes, fewer than its " + OVERHEAD
                    + "-byte nonce and tag.");
        }
        deriveKeys(clusterKey);
        byte[] nonce = Arrays.copyOfRange(sealed, offset, offset + NONCE_LENGTH);
        byte[] out = new byte[length - OVERHEAD];
        try {
            siv.init(false, new AEADParameters(new KeyParameter(lastEncKey), TAG_LENGTH * 8, nonce));
            int n = siv.processBytes(sealed, offset + NONCE_LENGTH, length - NONCE_LENGTH, out, 0);
            siv.doFinal(out, n);
        } catch (InvalidCipherTextException e) {
            throw new ChunkIntegrityException("Sub-chunk failed its integrity check.");
        }
        return out;
    }

    private byte[] nonce(byte[] in, int offset, int length) {
        try {
            mac.init(lastNonceKey);
            mac.update(in, offset, length);
            return Arrays.copyOf(mac.doFinal(), NONCE_LENGTH);
        } catch (InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Ks and Kn for the cluster key, cached: consecutive sub-chunks mostly share one. */
    private void deriveKeys(ChunkKey clusterKey) {
        if (clusterKey.equals(lastKey)) {
            return;
        }
        try {
            byte[] k = clusterKey.rawBytesForCipher();
            mac.init(sealKey);
            mac.update(ENC_LABEL);
            lastEncKey = mac.doFinal(k);
            mac.update(NONCE_LABEL);
            lastNonceKey = new SecretKeySpec(mac.doFinal(k), "HmacSHA256");
            Arrays.fill(k, (byte) 0);
            lastKey = clusterKey;
        } catch (InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Raw AES-GCM-SIV of RFC 8452 under {@code key} (16 or 32 bytes) and {@code nonce}, output {@code ct || tag}: the
     * primitive {@link #seal} uses, exposed so the RFC's test vectors can check it.
     */
    static byte[] gcmSiv(byte[] key, byte[] nonce, byte[] aad, byte[] plaintext) {
        GCMSIVBlockCipher c = new GCMSIVBlockCipher();
        c.init(true, new AEADParameters(new KeyParameter(key), TAG_LENGTH * 8, nonce, aad));
        byte[] out = new byte[plaintext.length + TAG_LENGTH];
        int n = c.processBytes(plaintext, 0, plaintext.length, out, 0);
        try {
            c.doFinal(out, n);
        } catch (InvalidCipherTextException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }
}
