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
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
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
 *
 * <p>After a key rotation (docs/SECURITY.md, "Key rotation") a key carries a keyring: it seals under itself, opens a
 * value sealed under any earlier key of the store by the key id in the value's header, and takes blinded names and
 * derived secrets (chunk sealing, the embedded OPRF key) from the store's first key, so that names and chunks written
 * before the rotation stay where they are.
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

    /** Purpose of a previous key sealed under its successor ({@link #wrap}). */
    private static final String WRAP_PURPOSE = "previous-key";

    private final byte[] master;
    private final byte[] keyId;
    private final byte[] sealKey;
    private final byte[] nameKey;
    /** The store's first key: blinded names and derived secrets come from it. This key when there is no keyring. */
    private final MasterKey root;
    /** Earlier keys of the store by key id (hex), for values sealed before a rotation. */
    private final Map<String, MasterKey> previous;

    private MasterKey(byte[] master, byte[] keyId) {
        if (master.length != KEY_LENGTH) {
            throw new IllegalArgumentException("master key must be " + KEY_LENGTH + " bytes");
        }
        this.master = master.clone();
        this.keyId = keyId.clone();
        this.sealKey = derive(master, "seal");
        this.nameKey = derive(master, "names");
        this.root = this;
        this.previous = Map.of();
    }

    private MasterKey(MasterKey current, MasterKey root, Map<String, MasterKey> previous) {
        this.master = current.master;
        this.keyId = current.keyId;
        this.sealKey = current.sealKey;
        this.nameKey = current.nameKey;
        this.root = root;
        this.previous = Map.copyOf(previous);
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

    /**
     * This key with a keyring: it still seals under itself, and also opens values sealed under {@code previous} keys;
     * names and derived secrets come from {@code root}, the store's first key (this key or one of {@code previous}).
     */
    public MasterKey withKeyring(MasterKey root, Collection<MasterKey> previous) {
        Map<String, MasterKey> byId = new LinkedHashMap<>();
        for (MasterKey k : previous) {
            if (!k.keyIdHex().equals(keyIdHex())) {
                byId.put(k.keyIdHex(), k.alone());
            }
        }
        MasterKey r = root.keyIdHex().equals(keyIdHex()) ? alone() : byId.get(root.keyIdHex());
        if (r == null) {
            throw new IllegalArgumentException("the root key " + root.keyIdHex() + " is not in the keyring");
        }
        return new MasterKey(this, r, byId);
    }

    /** This key without a keyring. */
    private MasterKey alone() {
        return root == this && previous.isEmpty() ? this : new MasterKey(master, keyId);
    }

    /** Hex id of the store's first key, whose derived secrets this key uses (its own id without a keyring). */
    public String rootKeyIdHex() {
        return root.keyIdHex();
    }

    /** The earlier keys this key opens values of (none without a keyring). */
    public Collection<MasterKey> previousKeys() {
        return previous.values();
    }

    /** {@code other} (a previous key) sealed under this key as blob {@code name}, to be {@link #unwrap}ped later. */
    public byte[] wrap(String name, MasterKey other) {
        return seal(WRAP_PURPOSE, name, other.master);
    }

    /** The key that {@link #wrap} sealed as {@code name}. */
    public MasterKey unwrap(String name, byte[] sealed) throws ChunkIntegrityException {
        byte[] raw = open(WRAP_PURPOSE, name, sealed);
        if (raw.length != KEY_LENGTH) {
            throw new ChunkIntegrityException("Wrapped key is malformed.");
        }
        MasterKey k = of(raw);
        Arrays.fill(raw, (byte) 0);
        return k;
    }

    /** The key id of a sealed value, read from its header without opening it (hex), or null if it is malformed. */
    public static String sealedKeyIdHex(byte[] sealed) {
        if (sealed.length < OVERHEAD || sealed[0] != VERSION) {
            return null;
        }
        return HexFormat.of().formatHex(sealed, 1, 1 + ID_LENGTH);
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
            MasterKey earlier = previous.get(HexFormat.of().formatHex(id));
            if (earlier != null) {
                return earlier.open(purpose, name, sealed);
            }
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
        byte[] mac = hmac(root.nameKey, ("coffer/" + purpose + "/" + value).getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(mac, 0, 16);
    }

    /** A 32-byte secret derived for {@code purpose}, for components that need their own key (e.g. a convergence secret). */
    public byte[] deriveSecret(String purpose) {
        return hmac(root.sealKey, ("coffer/derived/" + purpose).getBytes(StandardCharsets.UTF_8));
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
