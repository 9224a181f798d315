package io.coffer.por.checksum;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts and authenticates checksums before they go to the server (section 5.4), so the server never sees a
 * checksum (it would learn M from enough of them) and cannot substitute one.
 *
 * <ul>
 *   <li>C and H: AES-256-GCM under the key kappa = HMAC-SHA256(sk0, 0x00 || buffer || level || t), t the time the
 *       level (or C) was written, with the block's whole address (buffer, level, part, index) and, from client state
 *       version 3 on ({@link #boundTo}), the store's capacity exponent k as associated data. Both
 *       sides can compute t from the current time alone, so an old checksum (another t) or another block's (another
 *       address) fails to open: freshness without a tree.</li>
 *   <li>U: AES-256-GCM under the fixed key HMAC-SHA256(sk0, 0x01), the address as associated data; freshness comes
 *       from the Merkle tree over the sealed checksums of U.</li>
 * </ul>
 *
 * <p>The paper puts the whole address into the PRF input (kappa = PRF(sk0, 0, addr, t)); here the index goes into
 * the associated data instead, so one key serves a whole level written at time t. The binding is the same (a GCM tag
 * under that key covers the address), and a rebuild derives one key instead of one per block, which halves its cost
 * (an AES key schedule per block dominated). Nonces are random, so reusing a key is safe: at most 2^27 sealings
 * share one (C's 2n), far below GCM's 2^32 limit for random nonces.
 *
 * <p>Sealed format ({@link #SEALED_BYTES} bytes): a random 12-byte nonce, the 20-byte checksum encrypted, the 16-byte
 * tag. Random nonces also make a write retried at the same time after a crash safe. Not thread-safe (it holds its
 * ciphers); one per client. The exception is {@link #openU}, which a client's reads call on many threads at once: it
 * opens with a cipher of the calling thread's own.
 */
public final class ChecksumSealer {
    public static final int NONCE_BYTES = 12;
    public static final int TAG_BYTES = 16;
    public static final int SEALED_BYTES = NONCE_BYTES + Checksum.BYTES + TAG_BYTES;

    /** {@link #capacity()} of a sealer whose C and H checksums name no capacity (client state version 2). */
    public static final int UNBOUND = -1;

    private final Mac prf;
    private final Cipher gcm;
    private final SecretKeySpec uKey;
    private final SecureRandom random;
    /** The capacity exponent k in C's and H's associated data, or {@link #UNBOUND}. */
    private final int capacity;
    /** Ciphers for {@link #openU}, one per thread: reads of U are verified concurrently. */
    private final ThreadLocal<Cipher> uOpeners = ThreadLocal.withInitial(ChecksumSealer::newGcm);
    private byte[] lastKeyInput;
    private SecretKeySpec lastKey;

    public ChecksumSealer(byte[] sk0, SecureRandom random) {
        if (sk0.length != 32) {
            throw new IllegalArgumentException("sk0 must be 32 bytes, got " + sk0.length);
        }
        try {
            this.prf = Mac.getInstance("HmacSHA256");
            prf.init(new SecretKeySpec(sk0, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 unavailable", e);
        }
        this.gcm = newGcm();
        this.uKey = new SecretKeySpec(prf.doFinal(new byte[] {1}), "AES");
        this.random = random;
        this.capacity = UNBOUND;
    }

    private ChecksumSealer(ChecksumSealer from, int capacity) {
        this.prf = from.prf;
        this.gcm = newGcm();
        this.uKey = from.uKey;
        this.random = from.random;
        this.capacity = capacity;
    }

    /**
     * This sealer with the store's capacity exponent {@code k} bound into the associated data of C's and H's sealed
     * checksums (address || k): one sealed for another capacity, or by an unbound sealer, never opens here, whatever
     * its time. U's sealing is unchanged (the Merkle root binds U). Shares this sealer's keys (same thread only).
     */
    public ChecksumSealer boundTo(int k) {
        if (k < 0 || k > Byte.MAX_VALUE) {
            throw new IllegalArgumentException("capacity exponent out of range: " + k);
        }
        return new ChecksumSealer(this, k);
    }

    /** The capacity exponent bound into C's and H's sealed checksums, or {@link #UNBOUND}. */
    public int capacity() {
        return capacity;
    }

    private static Cipher newGcm() {
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM unavailable", e);
        }
    }

    /** Seals the checksum of the block written at {@code address} (in C or H) at time {@code t}. */
    public byte[] seal(BlockAddress address, long t, Checksum checksum) {
        return encrypt(key(address, t), aad(address), checksum);
    }

    /** Opens a sealed checksum of C or H; throws {@link SealBrokenException} unless sealed at this address and t. */
    public Checksum open(BlockAddress address, long t, byte[] sealed) {
        return decrypt(gcm, key(address, t), aad(address), sealed, address);
    }

    /** C's and H's associated data: the address, then k (1 byte) once bound. */
    private byte[] aad(BlockAddress address) {
        byte[] bytes = address.toBytes();
        if (capacity == UNBOUND) {
            return bytes;
        }
        byte[] bound = Arrays.copyOf(bytes, bytes.length + 1);
        bound[bytes.length] = (byte) capacity;
        return bound;
    }

    /** Seals the checksum of block {@code index} of U. */
    public byte[] sealU(long index, Checksum checksum) {
        return encrypt(uKey, BlockAddress.u(index).toBytes(), checksum);
    }

    /** Opens a sealed checksum of U; thread-safe. */
    public Checksum openU(long index, byte[] sealed) {
        BlockAddress address = BlockAddress.u(index);
        return decrypt(uOpeners.get(), uKey, address.toBytes(), sealed, address);
    }

    private SecretKeySpec key(BlockAddress address, long t) {
        if (address.buffer() == BlockAddress.Buffer.U) {
            throw new IllegalArgumentException("U is sealed under the fixed key: use sealU/openU");
        }
        byte[] input = ByteBuffer.allocate(1 + 1 + 4 + 8).put((byte) 0).put((byte) address.buffer().ordinal())
                .putInt(address.level()).putLong(t).array();
        if (!Arrays.equals(input, lastKeyInput)) { // a rebuild seals a whole level under one key: derive it once
            lastKey = new SecretKeySpec(prf.doFinal(input), "AES");
            lastKeyInput = input;
        }
        return lastKey;
    }

    private byte[] encrypt(SecretKeySpec key, byte[] aad, Checksum checksum) {
        byte[] out = new byte[SEALED_BYTES];
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        System.arraycopy(nonce, 0, out, 0, NONCE_BYTES);
        try {
            gcm.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BYTES * 8, nonce));
            gcm.updateAAD(aad);
            gcm.doFinal(checksum.toBytes(), 0, Checksum.BYTES, out, NONCE_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed to encrypt", e);
        }
        return out;
    }

    private static Checksum decrypt(Cipher gcm, SecretKeySpec key, byte[] aad, byte[] sealed, BlockAddress address) {
        if (sealed == null || sealed.length != SEALED_BYTES) {
            throw new SealBrokenException("sealed checksum at " + address + " is "
                    + (sealed == null ? "missing" : sealed.length + " bytes, not " + SEALED_BYTES));
        }
        try {
            gcm.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BYTES * 8, sealed, 0, NONCE_BYTES));
            gcm.updateAAD(aad);
            byte[] plain = gcm.doFinal(sealed, NONCE_BYTES, SEALED_BYTES - NONCE_BYTES);
            return Checksum.fromBytes(plain);
        } catch (AEADBadTagException e) {
            throw new SealBrokenException("sealed checksum at " + address + " fails authentication");
        } catch (IllegalArgumentException e) {
            throw new SealBrokenException("sealed checksum at " + address + " holds no checksum: " + e.getMessage());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed to decrypt", e);
        }
    }
}
