package io.coffer.gateway.config;

import io.coffer.gateway.auth.Credential;
import io.coffer.keyserver.pki.SecretFile;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The gateway's access keys: from configuration ({@code access-key}/{@code secret-key}, {@code credentials}), or else
 * the {@code credentials} file in the data directory, created with random keys (mode 0600) on first start and refused
 * when group or others may read it.
 */
public final class CredentialsFile {
    public static final String FILE_NAME = "credentials";
    public static final String DEFAULT_TENANT = "default";
    private static final char[] ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".toCharArray();
    private static final char[] SECRET_ALPHABET =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".toCharArray();

    /** The credentials to use and whether the primary one was just created. */
    public record Loaded(List<Credential> credentials, boolean created) {
        public Credential primary() {
            return credentials.get(0);
        }
    }

    private CredentialsFile() {
    }

    public static Loaded load(GatewayConfig c) throws IOException {
        List<Credential> list = new ArrayList<>();
        boolean created = false;
        if (c.get(ConfigKey.ACCESS_KEY) != null) {
            list.add(new Credential(c.get(ConfigKey.ACCESS_KEY), c.get(ConfigKey.SECRET_KEY), DEFAULT_TENANT));
        } else {
            Path file = c.dataDir().resolve(FILE_NAME);
            if (!Files.exists(file)) {
                Files.createDirectories(c.dataDir());
                create(file);
                created = true;
            }
            SecretFile.checkPrivate(file, "credentials file");
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(r);
            }
            String ak = p.getProperty("access-key");
            String sk = p.getProperty("secret-key");
            if (ak == null || sk == null) {
                throw new IOException(file + " must contain access-key and secret-key");
            }
            list.add(new Credential(ak, sk, p.getProperty("tenant", DEFAULT_TENANT)));
        }
        String more = c.get(ConfigKey.CREDENTIALS);
        if (more != null && !more.isBlank()) {
            for (String entry : more.split(",")) {
                String[] parts = entry.strip().split(":");
                if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty() || parts[2].isEmpty()) {
                    throw new IllegalArgumentException("credentials entries must be ACCESS_KEY:SECRET:tenant");
                }
                list.add(new Credential(parts[0], parts[1], parts[2]));
            }
        }
        return new Loaded(list, created);
    }

    private static void create(Path file) throws IOException {
        SecureRandom rnd = new SecureRandom();
        String ak = "CK" + random(rnd, ALPHABET, 18);
        String sk = random(rnd, SECRET_ALPHABET, 40);
        try {
            SecretFile.createPrivate(file);
        } catch (FileAlreadyExistsException e) {
            return;
        }
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING)) {
            w.write("# Coffer gateway credentials, created on first start. Keep this file private.\n");
            w.write("access-key=" + ak + "\nsecret-key=" + sk + "\ntenant=" + DEFAULT_TENANT + "\n");
        }
    }

    private static String random(SecureRandom rnd, char[] alphabet, int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append(alphabet[rnd.nextInt(alphabet.length)]);
        }
        return sb.toString();
    }
}
