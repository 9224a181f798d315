package io.coffer.sdk.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
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
 * <p>Format 3 compresses first: {@link #sealChunk} makes one zstd frame ({@link ChunkCompressor}) and keeps it only if it
 * is shorter than the plaintext by a margin ({@link #frameLimit}); then the chunk is stored as {@code nonce(12) |
 * AES-256-GCM(Kc, nonce, frame, aad = "coffer/chunk/v3/zstd")}, where {@code nonce} is a PRF of {@code K} and the
 * frame (so a key that ever met two different frames, after a zstd upgrade, never repeats a nonce). Otherwise the
 * chunk is stored exactly as format 2.
 *
 * <p>Chunks written before format 2 are AES-256-CTR under {@code K} with no tag, checked on read by the plaintext's
 * SHA-256 from the manifest. {@link #open} tells the three apart by the stored length against the plaintext length
 * (docs/FORMAT.md, "Chunks"): equal is format 1, 16 more is format 2, less is format 3. Instances are not
 * thread-safe (they reuse JCE objects and zstd contexts); use one per thread.
 */
public final class ChunkCipher {
    /** Bytes a sealed chunk has beyond its plaintext: the GCM tag. */
    public static final int TAG_LENGTH = 16;
    /** Bytes a compressed (format-3) chunk has beyond its zstd frame: the nonce and the GCM tag. */
    public static final int COMPRESSED_OVERHEAD = 12 + TAG_LENGTH;
    private static final byte[] V3_AAD = "coffer/chunk/v3/zstd".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NONCE_LABEL = "coffer/chunk-nonce/v3".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ZERO_NONCE = new byte[12];
    private static final byte[] ZERO_IV = new byte[16];
    private static final int SLICE = 16 << 10;
    private static final byte[] ID_LABEL = "coffer/chunk-id/v1".getBytes(StandardCharsets.US_ASCII);
    /** The {@link MasterKey#deriveSecret} purpose of the key that every chunk's sealing key is derived from. */
    public static final String SEAL_PURPOSE = "chunk-seal";

    private final int level;
    /** Made on first use: a reader of format-2 chunks only never loads the native library. */
    private ChunkCompressor compressor;
    /**
     * A format-3 chunk's frame on its way from decryption to decompression, kept for the next chunk up to {@link
     * #KEPT_FRAME} bytes: every I/O thread has a cipher, so a larger one (a frame of a chunk above 1 MiB that does not
     * compress well) is left to the garbage collector rather than held by each thread for good.
     */
    private byte[] frame = new byte[0];
    private static final int KEPT_FRAME = 1 << 20;
    private final Cipher ctr;
    private final MessageDigest sha256;
    /** HMACs under each chunk's own key: its id, the second step of a format-3 nonce. */
    private final FreshKeyHmac perKeyMac = new FreshKeyHmac();
    /**
     * Keyed once with the seal key, and {@link #nonceMac} once with the nonce key: a Mac returns to its keyed state
     * after {@code doFinal}, so the per-chunk HMACs under these fixed keys skip the key setup (the same bytes).
     */
    private final Mac sealMac;
    private final Mac nonceMac;
    private Cipher gcm;
    private byte[] lastSealed;

    /**
     * A cipher whose chunk sealing keys derive from the 32-byte {@code chunkSealKey}, which an engine derives once from
     * its master key ({@code masterKey.deriveSecret(SEAL_PURPOSE)}).
     */
    public ChunkCipher(byte[] chunkSealKey) {
        this(chunkSealKey, ChunkCompressor.DEFAULT_LEVEL);
    }

    /** As {@link #ChunkCipher(byte[])}, compressing at zstd {@code level} when {@link #sealChunk} is asked to. */
    public ChunkCipher(byte[] chunkSealKey, int level) {
        if (chunkSealKey.length != 32) {
            throw new IllegalArgumentException("chunk seal key must be 32 bytes");
        }
        if (level < ChunkCompressor.MIN_LEVEL || level > ChunkCompressor.MAX_LEVEL || level == 0) {
            throw new IllegalArgumentException("zstd level out of range: " + level);
        }
        this.level = level;
        try {
            ctr = Cipher.getInstance("AES/CTR/NoPadding");
            gcm = Cipher.getInstance("AES/GCM/NoPadding");
            sha256 = MessageDigest.getInstance("SHA-256");
            sealMac = Mac.getInstance("HmacSHA256");
            sealMac.init(new SecretKeySpec(chunkSealKey, "HmacSHA256"));
            // HMAC-SHA256(chunkSealKey, "coffer/chunk-nonce/v3") keys the PRF that makes format-3 nonces
            nonceMac = Mac.getInstance("HmacSHA256");
            nonceMac.init(new SecretKeySpec(sealMac.doFinal(NONCE_LABEL), "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("JCE lacks AES-GCM, AES-CTR, SHA-256 or HmacSHA256", e);
        }
    }

    /** The stored length of an uncompressed (format-2) chunk of {@code plainLength} bytes: the most any chunk takes. */
    public static int sealedLength(int plainLength) {
        return plainLength + TAG_LENGTH;
    }

    /**
     * The longest zstd frame a chunk of {@code plainLength} bytes is stored compressed with: compression must save at
     * least a 32nd of the chunk (and a byte) after {@link #COMPRESSED_OVERHEAD}, else the chunk is stored raw. Below
     * that the GET's decompression costs more than the bytes save; and a compressed chunk is thereby always stored in
     * fewer bytes than its plaintext, which is what tells format 3 from formats 1 and 2. Zero or less: never compressed.
     */
    public static int frameLimit(int plainLength) {
        return plainLength - COMPRESSED_OVERHEAD - Math.max(1, plainLength / 32);
    }

    /** Whether a chunk stored in {@code storedLength} bytes for {@code plainLength} plaintext bytes is format 3. */
    public static boolean isCompressed(int storedLength, int plainLength) {
        return storedLength < plainLength;
    }

    /** SHA-256 of a plaintext chunk: the input to the key source. */
    public byte[] hash(byte[] data, int offset, int length) {
        sha256.update(data, offset, length);
        return sha256.digest();
    }

    /** {@link #idFor} without a cipher instance (a manifest decoder deriving the ids of derived entries). */
    public static ChunkId idOf(ChunkKey key) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(key.rawBytesForCipher(), "HmacSHA256"));
            return ChunkId.of(m.doFinal(ID_LABEL));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is required of every Java platform", e);
        }
    }

    /** The chunk id for a key: {@code HMAC-SHA256(K, "coffer/chunk-id/v1")}. */
    public ChunkId idFor(ChunkKey key) {
        return ChunkId.of(perKeyMac.mac(key.rawBytesForCipher(), ID_LABEL, 0, ID_LABEL.length));
    }

    /**
     * Seals {@code length} bytes of {@code in} uncompressed (format 2) into {@link #sealedLength}{@code (length)} bytes
     * of {@code out}.
     */
    public void seal(ChunkKey key, byte[] in, int inOffset, int length, byte[] out, int outOffset) {
        byte[] aesKey = sealingKey(key);
        try {
            initEncrypt(aesKey, ZERO_NONCE);
            gcm.doFinal(in, inOffset, length, out, outOffset);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed", e);
        }
    }

    /**
     * Seals a chunk, compressed (format 3) when {@code compress} is set and its zstd frame fits {@link #frameLimit},
     * else as {@link #seal} does; returns its stored length. {@code out} must have {@link #sealedLength}{@code
     * (length)} bytes from {@code outOffset}: the frame is made there and encrypted in place, so no second buffer is
     * needed. One compression attempt per chunk; equal chunks under equal keys give equal bytes.
     */
    public int sealChunk(ChunkKey key, byte[] in, int inOffset, int length, boolean compress, byte[] out,
                         int outOffset) {
        int limit = compress ? frameLimit(length) : 0;
        int frameLength = limit > 0 ? compressor().compress(in, inOffset, length, out, outOffset + 12, limit) : -1;
        if (frameLength < 0) {
            seal(key, in, inOffset, length, out, outOffset);
            return sealedLength(length);
        }
        byte[] aesKey = sealingKey(key);
        try {
            byte[] nonce = nonce(key, out, outOffset + 12, frameLength);
            System.arraycopy(nonce, 0, out, outOffset, nonce.length);
            initEncrypt(aesKey, nonce);
            gcm.updateAAD(V3_AAD);
            gcm.doFinal(out, outOffset + 12, frameLength, out, outOffset + 12);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed", e);
        }
        return frameLength + COMPRESSED_OVERHEAD;
    }

    private void initEncrypt(byte[] aesKey, byte[] nonce) throws GeneralSecurityException {
        if (lastSealed != null && MessageDigest.isEqual(aesKey, lastSealed)) {
            // the JCE refuses to encrypt under the key and nonce of its previous encryption, and sealing one chunk
            // twice in a row is legitimate here (its ciphertext is the same): a fresh Cipher has no such memory
            gcm = Cipher.getInstance("AES/GCM/NoPadding");
        }
        gcm.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(aesKey, "AES"), new GCMParameterSpec(128, nonce));
        lastSealed = aesKey;
    }

    /** A format-3 nonce: {@code HMAC-SHA256(HMAC-SHA256(nonceKey, K), frame)[0:12]}. */
    private byte[] nonce(ChunkKey key, byte[] frameBytes, int offset, int length) {
        byte[] perKey = nonceMac.doFinal(key.rawBytesForCipher());
        return Arrays.copyOf(perKeyMac.mac(perKey, frameBytes, offset, length), 12);
    }

    private ChunkCompressor compressor() {
        if (compressor == null) {
            compressor = new ChunkCompressor(level);
        }
        return compressor;
    }

    /**
     * Opens a stored chunk in place: the plaintext is the first {@code plainLength} bytes at {@code offset}, so {@code
     * buf} must have room for {@code max(storedLength, plainLength)} bytes there. See the next {@code open}.
     */
    public void open(ChunkKey key, byte[] buf, int offset, int storedLength, int plainLength, byte[] expectedHash)
            throws ChunkIntegrityException {
        open(key, buf, offset, storedLength, buf, offset, plainLength, expectedHash);
    }

    /**
     * Decrypts the chunk stored in {@code buf[offset, offset + storedLength)}, checks it and leaves its plaintext in
     * {@code out[outOffset, outOffset + plainLength)}; {@code out} may be {@code buf} and the two ranges may overlap
     * (formats 1 and 2 are decrypted in place, then moved; a format-3 frame is decrypted into this cipher's own
     * buffer first). A chunk of {@code plainLength + TAG_LENGTH} stored bytes is checked by its GCM tag, one of {@code
     * plainLength} bytes (written before format 2) by comparing its plaintext's SHA-256 with {@code expectedHash}, a
     * shorter one (format 3) by its GCM tag and then a decompression to exactly {@code plainLength} bytes.
     *
     * @throws ChunkIntegrityException if the check fails, the frame does not decompress to {@code plainLength} bytes,
     *     or the stored length fits no format
     */
    public void open(ChunkKey key, byte[] buf, int offset, int storedLength, byte[] out, int outOffset,
                     int plainLength, byte[] expectedHash) throws ChunkIntegrityException {
        if (isCompressed(storedLength, plainLength)) {
            openCompressed(key, buf, offset, storedLength, out, outOffset, plainLength);
            return;
        }
        openInPlace(key, buf, offset, storedLength, plainLength, expectedHash);
        if (out != buf || outOffset != offset) {
            System.arraycopy(buf, offset, out, outOffset, plainLength);
        }
    }

    private void openCompressed(ChunkKey key, byte[] buf, int offset, int storedLength, byte[] out, int outOffset,
                                int plainLength) throws ChunkIntegrityException {
        int frameLength = storedLength - COMPRESSED_OVERHEAD;
        if (frameLength <= 0) {
            throw new ChunkIntegrityException("Chunk has " + storedLength + " stored bytes for " + plainLength
                    + " plaintext bytes.");
        }
        byte[] frame = this.frame;
        if (frame.length < frameLength) {
            frame = new byte[frameLength];
            if (frameLength <= KEPT_FRAME) {
                this.frame = frame;
            }
        }
        try {
            gcm.init(Cipher.DECRYPT_MODE, new SecretKeySpec(sealingKey(key), "AES"),
                    new GCMParameterSpec(128, buf, offset, 12));
            gcm.updateAAD(V3_AAD);
            gcm.doFinal(buf, offset + 12, frameLength + TAG_LENGTH, frame, 0);
        } catch (AEADBadTagException e) {
            throw new ChunkIntegrityException("Chunk failed its integrity check.");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed", e);
        }
        compressor().decompress(frame, 0, frameLength, out, outOffset, plainLength);
    }

    private void openInPlace(ChunkKey key, byte[] buf, int offset, int storedLength, int plainLength,
                             byte[] expectedHash) throws ChunkIntegrityException {
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
        return sealMac.doFinal(key.rawBytesForCipher());
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
