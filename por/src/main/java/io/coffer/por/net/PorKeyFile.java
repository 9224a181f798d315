package io.coffer.por.net;

import io.coffer.keyserver.pki.SecretFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The key a PoR client and its server share to authenticate their sessions: 32 random bytes, hex on one line, in a
 * file readable by its owner only (the project's secret-file rule: one that group or others can read is refused). It
 * only authenticates the connection; it gives no access to the client's checksum or sealing keys.
 */
public final class PorKeyFile {
    public static final int KEY_BYTES = 32;

    private PorKeyFile() {
    }

    /** Creates {@code file} (0600) with a new random key and returns the key; fails if the file exists. */
    public static byte[] create(Path file, SecureRandom random) throws IOException {
        byte[] key = new byte[KEY_BYTES];
        random.nextBytes(key);
        SecretFile.createPrivate(file);
        Files.writeString(file, HexFormat.of().formatHex(key) + "\n", StandardCharsets.US_ASCII);
        return key;
    }

    /** Reads the key of {@code file}, refusing a file that group or others can access or that holds no valid key. */
    public static byte[] load(Path file) throws IOException {
        SecretFile.checkPrivate(file, "PoR session key file");
        if (Files.size(file) > 4 * KEY_BYTES) {
            throw new IOException("PoR session key file " + file + " is not a key: too long");
        }
        String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
        try {
            byte[] key = HexFormat.of().parseHex(text);
            if (key.length != KEY_BYTES) {
                throw new IOException("PoR session key file " + file + " holds " + key.length + " bytes, not "
                        + KEY_BYTES);
            }
            return key;
        } catch (IllegalArgumentException e) {
            throw new IOException("PoR session key file " + file + " is not hex: " + e.getMessage());
        }
    }
}
