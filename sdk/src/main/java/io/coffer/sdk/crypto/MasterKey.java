package io.coffer.sdk.crypto;

import io.coffer.keyserver.pki.SecretFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The gateway's own secret: seals manifests, pack indexes and bucket records with AES-256-GCM, and derives the
 * keyed names of bucket record blobs. Sub-keys are {@code HMAC-SHA256(master, "coffer/" + purpose)} so that no two
 * uses share a key.
 *
 * <p>Sealed format (docs/FORMAT.md, "Sealed blobs"): {@code 0x01 | key id (8) | nonce (12) | ciphertext | tag (16)},
 * with associated data {@code "coffer/v1/" + purpose + "/" + name}, which binds every sealed blob to what it is and
 * where it lives: a backend that swaps two manifests makes both fail to open.
 */
public final class MasterKey {
    public static final int KEY_LENGTH = 32;
    private static final byte VERSION = 1;
    private static final int ID_LENGTH = 8;
    private static final int NONCE_LENGTH = 12;
    private static final int TAG_BITS = 128;
    /** Bytes a sealed value adds to its plaintext. */
    public static final int OVERHEAD = 1 + ID_LENGTH + NONCE_LENGTH + TAG_BITS / 8;
    private static final String FILE_HEADER = "coffer-master-key v1";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] keyId;
    private final byte[] sealKey;
    private final byte[] nameKey;

    private MasterKey(byte[] master, byte[] keyId) {
        if (master.length != KEY_LENGTH) {
            throw new IllegalArgumentException("master key must be " + KEY_LENGTH + " bytes");
        }
        this.keyId = keyId.clone();
        this.sealKey = derive(master, "seal");
        this.nameKey = derive(master, "names");
    }

    /** A master key from raw bytes (for example supplied by the operator); its id is derived from the key. */
    public static MasterKey of(byte[] master) {
        byte[] id = new byte[ID_LENGTH];
        System.arraycopy(derive(master, "key-id"), 0, id, 0, ID_LENGTH);
        return new MasterKey(master, id);
    }

    public static MasterKey random() {
        byte[] k = new byte[KEY_LENGTH];
        RANDOM.nextBytes(k);
        return of(k);
    }

    /**
     * Loads the key file, or creates it (mode 0600, created exclusively so two starts cannot race) when absent.
     * An existing file readable by group or others is refused, as ssh refuses such private keys.
     */
    public static MasterKey loadOrCreate(Path file) throws IOException {
        if (Files.exists(file)) {
            return load(file);
        }
        MasterKey key;
        byte[] raw = new byte[KEY_LENGTH];
        RANDOM.nextBytes(raw);
        key = of(raw);
        String text = FILE_HEADER + "\nkey-id: " + HexFormat.of().formatHex(key.keyId) + "\nkey: "
                + Base64.getEncoder().encodeToString(raw) + "\n";
        Files.createDirectories(file.toAbsolutePath().getParent());
        try {
            SecretFile.createPrivate(file);
        } catch (FileAlreadyExistsException raced) {
            return load(file);
        }
        Files.writeString(file, text, StandardCharsets.US_ASCII, StandardOpenOption.WRITE, StandardOpenOption.SYNC);
        Arrays.fill(raw, (byte) 0);
        return key;
    }

    /** Loads a key file written by {@link #loadOrCreate}. */
    public static MasterKey load(Path file) throws IOException {
        SecretFile.checkPrivate(file, "master key file");
        String[] lines = Files.readString(file, StandardCharsets.US_ASCII).split("\n");
        if (lines.length < 3 || !lines[0].equals(FILE_HEADER) || !lines[2].startsWith("key: ")) {
            throw new IOException("not a coffer master key file: " + file);
        }
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(lines[2].substring(5).trim());
        } catch (IllegalArgumentException e) {
            throw new IOException("malformed master key file: " + file);
        }
        if (raw.length != KEY_LENGTH) {
            throw new IOException("malformed master key file: " + file);
        }
        MasterKey key = of(raw);
        Arrays.fill(raw, (byte) 0);
        return key;
    }

    /** Hex of the 8-byte key id, safe to log. */
    public String keyIdHex() {
        return HexFormat.of().formatHex(keyId);
    }

    /** Encrypts and authenticates {@code plaintext} for {@code purpose}/{@code name}. */
    public byte[] seal(String purpose, String name, byte[] plaintext) {
        byte[] nonce = new byte[NONCE_LENGTH];
        RANDOM.nextBytes(nonce);
        try {
            Cipher gcm = gcm(Cipher.ENCRYPT_MODE, nonce, purpose, name);
            ByteBuffer out = ByteBuffer.allocate(OVERHEAD + plaintext.length);
            out.put(VERSION).put(keyId).put(nonce);
            // GCM in slices: one huge doFinal is slow on JDK 17
            int done = 0;
            byte[] buf = out.array();
            int pos = out.position();
            while (plaintext.length - done > 16384) {
                pos += gcm.update(plaintext, done, 16384, buf, pos);
                done += 16384;
            }
            gcm.doFinal(plaintext, done, plaintext.length - done, buf, pos);
            return buf;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed", e);
        }
    }

    /**
     * Opens a value sealed by {@link #seal} with the same purpose and name.
     *
     * @throws ChunkIntegrityException if it was altered, moved, or sealed under another key
     */
    public byte[] open(String purpose, String name, byte[] sealed) throws ChunkIntegrityException {
        if (sealed.length < OVERHEAD || sealed[0] != VERSION) {
            throw new ChunkIntegrityException("Sealed value is malformed.");
        }
        byte[] id = Arrays.copyOfRange(sealed, 1, 1 + ID_LENGTH);
        if (!MessageDigest.isEqual(id, keyId)) {
            throw new ChunkIntegrityException("Sealed under another master key (key id " + HexFormat.of().formatHex(id)
                    + ").");
        }
        byte[] nonce = Arrays.copyOfRange(sealed, 1 + ID_LENGTH, 1 + ID_LENGTH + NONCE_LENGTH);
        int start = 1 + ID_LENGTH + NONCE_LENGTH;
        try {
            Cipher gcm = gcm(Cipher.DECRYPT_MODE, nonce, purpose, name);
            return gcm.doFinal(sealed, start, sealed.length - start);
        } catch (AEADBadTagException e) {
            throw new ChunkIntegrityException("Integrity check failed.");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed", e);
        }
    }

    /** A keyed, deterministic name for {@code value} (hex of 16 bytes of HMAC): hides the value, stable across runs. */
    public String blindName(String purpose, String value) {
        byte[] mac = hmac(nameKey, ("coffer/" + purpose + "/" + value).getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(mac, 0, 16);
    }

    /** A 32-byte secret derived for {@code purpose}, for components that need their own key (e.g. a convergence secret). */
    public byte[] deriveSecret(String purpose) {
        return hmac(sealKey, ("coffer/derived/" + purpose).getBytes(StandardCharsets.UTF_8));
    }

    private Cipher gcm(int mode, byte[] nonce, String purpose, String name) throws GeneralSecurityException {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(mode, new SecretKeySpec(sealKey, "AES"), new GCMParameterSpec(TAG_BITS, nonce));
        c.updateAAD(("coffer/v1/" + purpose + "/" + name).getBytes(StandardCharsets.UTF_8));
        return c;
    }

    private static byte[] derive(byte[] master, String purpose) {
        return hmac(master, ("coffer/" + purpose).getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    @Override
    public String toString() {
        return "MasterKey[id=" + keyIdHex() + "]";
    }
}
