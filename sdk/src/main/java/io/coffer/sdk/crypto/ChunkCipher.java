package io.coffer.sdk.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Deterministic chunk encryption (docs/FORMAT.md, "Chunks"): AES-256-GCM with an all-zero nonce under
 * {@code HMAC-SHA256(chunkSealKey, K)}, where {@code K} is the chunk's message-locked (or random) key and
 * {@code chunkSealKey} comes from the master key.
 *
 * <p><b>Warning:</b> equal plaintexts under equal keys give equal ciphertexts; that is what deduplication needs. A
 * fixed nonce is sound only because every key encrypts exactly one plaintext: a message-locked key is a PRF of the
 * chunk's SHA-256, a random key is fresh. Never use this class with a key that can cover two different plaintexts
 * (SimEnc's cluster keys do: they use SIV).
 *
 * <p>Why the master key takes part: the GCM tag is the chunk's integrity check on read, and it must be one that only
 * this store can make. Under {@code K} alone anyone who knows a chunk's plaintext (and so, through the key source,
 * {@code K}) could forge a tag for other bytes.
 *
 * <p>Chunks written before format 2 are AES-256-CTR under {@code K} with no tag, checked on read by the plaintext's
 * SHA-256 from the manifest. {@link #open} tells the two apart by the stored length. Instances are not thread-safe
 * (they reuse JCE objects); use one per thread.
 */
public final class ChunkCipher {
    /** Bytes a sealed chunk has beyond its plaintext: the GCM tag. */
    public static final int TAG_LENGTH = 16;
    private static final byte[] ZERO_NONCE = new byte[12];
    private static final byte[] ZERO_IV = new byte[16];
    private static final int SLICE = 16 << 10;
    private static final byte[] ID_LABEL = "coffer/chunk-id/v1".getBytes(StandardCharsets.US_ASCII);
    /** The {@link MasterKey#deriveSecret} purpose of the key that every chunk's sealing key is derived from. */
    public static final String SEAL_PURPOSE = "chunk-seal";

    private final SecretKeySpec sealKey;
    private final Cipher ctr;
    private final MessageDigest sha256;
    private final Mac mac;
    private Cipher gcm;
    private byte[] lastSealed;

    /**
     * A cipher whose chunk sealing keys derive from the 32-byte {@code chunkSealKey}, which an engine derives once from
     * its master key ({@code masterKey.deriveSecret(SEAL_PURPOSE)}).
     */
    public ChunkCipher(byte[] chunkSealKey) {
        if (chunkSealKey.length != 32) {
            throw new IllegalArgumentException("chunk seal key must be 32 bytes");
        }
        this.sealKey = new SecretKeySpec(chunkSealKey, "HmacSHA256");
        try {
            ctr = Cipher.getInstance("AES/CTR/NoPadding");
            gcm = Cipher.getInstance("AES/GCM/NoPadding");
            sha256 = MessageDigest.getInstance("SHA-256");
            mac = Mac.getInstance("HmacSHA256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("JCE lacks AES-GCM, AES-CTR, SHA-256 or HmacSHA256", e);
        }
    }

    /** The stored length of a chunk of {@code plainLength} bytes. */
    public static int sealedLength(int plainLength) {
        return plainLength + TAG_LENGTH;
    }

    /** SHA-256 of a plaintext chunk: the input to the key source. */
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

    /** Seals {@code length} bytes of {@code in} into {@link #sealedLength}{@code (length)} bytes of {@code out}. */
    public void seal(ChunkKey key, byte[] in, int inOffset, int length, byte[] out, int outOffset) {
        byte[] aesKey = sealingKey(key);
        try {
            if (lastSealed != null && MessageDigest.isEqual(aesKey, lastSealed)) {
                // the JCE refuses to encrypt under the key and nonce of its previous encryption, and sealing one chunk
                // twice in a row is legitimate here (its ciphertext is the same): a fresh Cipher has no such memory
                gcm = Cipher.getInstance("AES/GCM/NoPadding");
            }
            gcm.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(aesKey, "AES"), new GCMParameterSpec(128, ZERO_NONCE));
            lastSealed = aesKey;
            gcm.doFinal(in, inOffset, length, out, outOffset);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed", e);
        }
    }

    /**
     * Decrypts a stored chunk in place and checks it; the plaintext is the first {@code plainLength} bytes at
     * {@code offset}. A chunk of {@code plainLength + TAG_LENGTH} stored bytes is checked by its GCM tag, one of
     * {@code plainLength} bytes (written before format 2) by comparing its plaintext's SHA-256 with
     * {@code expectedHash}.
     *
     * @throws ChunkIntegrityException if the check fails or the stored length fits neither format
     */
    public void open(ChunkKey key, byte[] buf, int offset, int storedLength, int plainLength, byte[] expectedHash)
            throws ChunkIntegrityException {
        if (storedLength == sealedLength(plainLength)) {
            try {
                gcm.init(Cipher.DECRYPT_MODE, new SecretKeySpec(sealingKey(key), "AES"),
                        new GCMParameterSpec(128, ZERO_NONCE));
                gcm.doFinal(buf, offset, storedLength, buf, offset);
            } catch (AEADBadTagException e) {
                throw new ChunkIntegrityException("Chunk failed its integrity check.");
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("AES-GCM failed", e);
            }
        } else if (storedLength == plainLength) {
            openCtr(key, buf, offset, plainLength, expectedHash);
        } else {
            throw new ChunkIntegrityException("Chunk has " + storedLength + " stored bytes for " + plainLength
                    + " plaintext bytes.");
        }
    }

    private byte[] sealingKey(ChunkKey key) {
        try {
            mac.init(sealKey);
            return mac.doFinal(key.rawBytesForCipher());
        } catch (InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Format 1: AES-256-CTR under {@code K}, zero IV, checked against the plaintext's SHA-256. */
    private void openCtr(ChunkKey key, byte[] buf, int offset, int length, byte[] expectedHash)
            throws ChunkIntegrityException {
        try {
            ctr.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key.rawBytesForCipher(), "AES"),
                    new IvParameterSpec(ZERO_IV));
            // 16 KiB slices: HotSpot compiles implCrypt to its AES-NI stub only after many calls, and 1 MiB slices
            // never got there (docs/BENCHMARKS.md, see also JceWarmup)
            int done = 0;
            while (done < length) {
                int n = Math.min(SLICE, length - done);
                done += ctr.update(buf, offset + done, n, buf, offset + done);
            }
            ctr.doFinal(buf, offset + done);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-CTR failed", e);
        }
        sha256.update(buf, offset, length);
        if (!MessageDigest.isEqual(sha256.digest(), expectedHash)) {
            throw new ChunkIntegrityException("Chunk failed its integrity check.");
        }
    }
}
