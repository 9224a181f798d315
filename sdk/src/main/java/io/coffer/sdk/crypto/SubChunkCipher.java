package io.coffer.sdk.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.NoSuchPaddingException;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Deterministic authenticated encryption of the sub-chunks of SimEnc's layer mode, which share one cluster key: the
 * SIV construction (Rogaway and Shrimpton, "Deterministic Authenticated-Encryption", 2006; RFC 5297 is its CMAC
 * instance) with HMAC-SHA256 as the PRF and AES-256-CTR as the IV-based cipher, both the JDK's (SHA and AES-NI
 * intrinsics):
 * <pre>
 * Km  = HMAC-SHA256(sealKey, "coffer/subchunk-siv/v2" || K)
 * Ke  = HMAC-SHA256(sealKey, "coffer/subchunk-ctr/v2" || K)
 * V   = HMAC-SHA256(Km, plaintext)[0..16)
 * C   = AES-256-CTR(Ke, initial counter block V, plaintext)     (128-bit big-endian counter)
 * stored form: V(16) || C
 * </pre>
 * {@link #open} decrypts, recomputes V from the plaintext and rejects the sub-chunk unless it equals the stored V.
 *
 * <p>Why not {@link ChunkCipher}: its fixed nonce is sound only because a key there covers one plaintext. A cluster key
 * covers every sub-chunk of every chunk in its cluster, thousands of different plaintexts; a fixed nonce under such a
 * key gives away the XOR of plaintexts and lets anyone forge tags. Here the counter block is a PRF of the plaintext.
 *
 * <p>Why this is safe although deterministic: SIV is a deterministic authenticated encryption (DAE) whenever the MAC
 * is a PRF and the cipher is IND$ under random IVs: equal (K, plaintext) give equal bytes, which deduplication by
 * ciphertext needs, and an observer learns which stored sub-chunks are equal and nothing else. Two different plaintexts
 * share a counter block only with probability 2^-128 per pair, and a forgery must hit the 128-bit V of whatever
 * plaintext its bytes decrypt to. Unlike a synthetic nonce fed to AES-GCM, a repeated V is not a catastrophe (no
 * authentication key to lose): at worst it shows two keystreams' overlap.
 *
 * <p>Why the seal key (from the master key) takes part: the cluster key {@code K} comes from the key source, so
 * whoever knows a cluster's representative chunk can obtain it. Under {@code K} alone they could forge sub-chunks a
 * reader would accept; under keys derived with the seal key they also need the master key, as for {@link ChunkCipher}.
 * Instances are not thread-safe (they reuse two {@link Mac}s and a {@link Cipher}); use one per thread.
 */
public final class SubChunkCipher {
    /** Bytes of the synthetic IV (the authenticator and the initial counter block) in front of each sealed sub-chunk. */
    public static final int SIV_LENGTH = 16;
    /** Bytes a sealed sub-chunk has beyond its plaintext. */
    public static final int OVERHEAD = SIV_LENGTH;
    /** The {@link MasterKey#deriveSecret} purpose of the key every sub-chunk key is derived from. */
    public static final String SEAL_PURPOSE = "subchunk-seal";
    private static final byte[] MAC_LABEL = "coffer/subchunk-siv/v2".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CTR_LABEL = "coffer/subchunk-ctr/v2".getBytes(StandardCharsets.US_ASCII);

    /** Keyed with the seal key once: derives Km and Ke. */
    private final Mac derive;
    /**
     * Keyed with Km of {@link #lastKey}: {@code doFinal} leaves a Mac keyed as it was, so consecutive sub-chunks under
     * one cluster key skip HMAC's key setup.
     */
    private final Mac siv;
    private final Cipher ctr;
    private final byte[] digest = new byte[32];
    private ChunkKey lastKey;
    private SecretKeySpec lastCtrKey;

    /** A cipher whose sub-chunk keys derive from the 32-byte {@code subChunkSealKey} (the master key's {@link #SEAL_PURPOSE}). */
    public SubChunkCipher(byte[] subChunkSealKey) {
        if (subChunkSealKey.length != 32) {
            throw new IllegalArgumentException("sub-chunk seal key must be 32 bytes");
        }
        try {
            this.derive = Mac.getInstance("HmacSHA256");
            this.derive.init(new SecretKeySpec(subChunkSealKey, "HmacSHA256"));
            this.siv = Mac.getInstance("HmacSHA256");
            this.ctr = Cipher.getInstance("AES/CTR/NoPadding");
        } catch (NoSuchAlgorithmException | NoSuchPaddingException | InvalidKeyException e) {
            throw new IllegalStateException("JCE lacks HmacSHA256 or AES/CTR", e);
        }
    }

    /** The stored length of a sub-chunk of {@code plainLength} bytes. */
    public static int sealedLength(int plainLength) {
        return plainLength + OVERHEAD;
    }

    /** Seals {@code length} bytes of {@code in} under the cluster key; equal (key, bytes) give equal output. */
    public byte[] seal(ChunkKey clusterKey, byte[] in, int offset, int length) {
        deriveKeys(clusterKey);
        byte[] out = new byte[sealedLength(length)];
        siv(in, offset, length, out);
        try {
            ctr.init(Cipher.ENCRYPT_MODE, lastCtrKey, new IvParameterSpec(out, 0, SIV_LENGTH));
            ctr.doFinal(in, offset, length, out, SIV_LENGTH);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-CTR encryption failed", e);
        }
        return out;
    }

    /**
     * The plaintext of a sealed sub-chunk.
     *
     * @throws ChunkIntegrityException when the synthetic IV does not match (altered, truncated or swapped bytes, wrong
     *                                 key)
     */
    public byte[] open(ChunkKey clusterKey, byte[] sealed, int offset, int length) throws ChunkIntegrityException {
        if (length < OVERHEAD) {
            throw new ChunkIntegrityException("Sub-chunk has " + length + " bytes, fewer than its " + OVERHEAD
                    + "-byte synthetic IV.");
        }
        deriveKeys(clusterKey);
        byte[] out = new byte[length - OVERHEAD];
        try {
            ctr.init(Cipher.DECRYPT_MODE, lastCtrKey, new IvParameterSpec(sealed, offset, SIV_LENGTH));
            ctr.doFinal(sealed, offset + SIV_LENGTH, out.length, out, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-CTR decryption failed", e);
        }
        byte[] expected = new byte[SIV_LENGTH];
        siv(out, 0, out.length, expected);
        if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(sealed, offset, offset + SIV_LENGTH))) {
            Arrays.fill(out, (byte) 0);
            throw new ChunkIntegrityException("Sub-chunk failed its integrity check.");
        }
        return out;
    }

    /** V = HMAC-SHA256(Km, plaintext)[0..16), written to {@code to}'s first 16 bytes. */
    private void siv(byte[] in, int offset, int length, byte[] to) {
        try {
            siv.update(in, offset, length);
            siv.doFinal(digest, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        System.arraycopy(digest, 0, to, 0, SIV_LENGTH);
    }

    /** Km and Ke for the cluster key, cached: consecutive sub-chunks mostly share one. */
    private void deriveKeys(ChunkKey clusterKey) {
        if (clusterKey.equals(lastKey)) {
            return;
        }
        try {
            byte[] k = clusterKey.rawBytesForCipher();
            derive.update(MAC_LABEL);
            byte[] km = derive.doFinal(k);
            derive.update(CTR_LABEL);
            byte[] ke = derive.doFinal(k);
            // lastKey is cleared first: a failure below must not leave siv keyed for a key it does not name
            lastKey = null;
            siv.init(new SecretKeySpec(km, "HmacSHA256"));
            lastCtrKey = new SecretKeySpec(ke, "AES");
            Arrays.fill(k, (byte) 0);
            Arrays.fill(km, (byte) 0);
            Arrays.fill(ke, (byte) 0);
            lastKey = clusterKey;
        } catch (InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }
}
