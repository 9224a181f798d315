package io.coffer.keyserver.pki;

import io.coffer.keyserver.oprf.KeyId;
import io.coffer.keyserver.oprf.OprfPrivateKey;
import io.coffer.keyserver.oprf.OprfPublicKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The layout of a key-server directory, as the key server's {@code init} creates it:
 * <pre>
 * ca.crt, ca.key                 private CA (key 0600)
 * server.crt, server.key         TLS server certificate (SAN localhost, 127.0.0.1, configured names)
 * clients/NAME.crt, NAME.key     client certificates (subject CN=NAME)
 * oprf/KEYID.key, KEYID.pub      OPRF keys by key id (PKCS#8 0600 / SubjectPublicKeyInfo)
 * oprf/CURRENT                   hex key id of the key new queries should use
 * </pre>
 */
public final class KeyServerDirectory {
    static final Pattern CLIENT_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private final Path root;

    public KeyServerDirectory(Path root) {
        this.root = root;
    }

    public Path root() {
        return root;
    }

    public Path caCertificate() {
        return root.resolve("ca.crt");
    }

    public Path caKey() {
        return root.resolve("ca.key");
    }

    public Path serverCertificate() {
        return root.resolve("server.crt");
    }

    public Path serverKey() {
        return root.resolve("server.key");
    }

    public Path clientCertificate(String name) {
        return root.resolve("clients").resolve(checkName(name) + ".crt");
    }

    public Path clientKey(String name) {
        return root.resolve("clients").resolve(checkName(name) + ".key");
    }

    public Path oprfPublicKey(KeyId id) {
        return root.resolve("oprf").resolve(id.toHex() + ".pub");
    }

    public Path oprfPrivateKey(KeyId id) {
        return root.resolve("oprf").resolve(id.toHex() + ".key");
    }

    /** Holds the hex key id of the current OPRF key. */
    public Path currentFile() {
        return root.resolve("oprf").resolve("CURRENT");
    }

    /** {@code name} if it is a valid client name (no path separators); else IllegalArgumentException. */
    public static String checkName(String name) {
        if (!CLIENT_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("client name must match " + CLIENT_NAME.pattern());
        }
        return name;
    }

    public X509Certificate loadCaCertificate() throws IOException, GeneralSecurityException {
        return Pem.readCertificate(caCertificate());
    }

    public X509Certificate loadServerCertificate() throws IOException, GeneralSecurityException {
        return Pem.readCertificate(serverCertificate());
    }

    public PrivateKey loadServerKey() throws IOException, GeneralSecurityException {
        return Pem.readPrivateKey(serverKey());
    }

    /** The key id of the current OPRF key. */
    public KeyId currentKeyId() throws IOException {
        return KeyId.fromHex(Files.readString(currentFile(), StandardCharsets.US_ASCII).trim());
    }

    public OprfPublicKey loadOprfPublicKey(KeyId id) throws IOException, GeneralSecurityException {
        OprfPublicKey key = OprfPublicKey.fromSpki(Pem.read(Pem.PUBLIC_KEY, oprfPublicKey(id)));
        if (!key.keyId().equals(id)) {
            throw new GeneralSecurityException("public key file does not match its key id " + id);
        }
        return key;
    }

    /** Every OPRF private key in the directory, by key id, the current one first. */
    public Map<KeyId, OprfPrivateKey> loadOprfKeys() throws IOException, GeneralSecurityException {
        KeyId current = currentKeyId();
        Map<KeyId, OprfPrivateKey> keys = new LinkedHashMap<>();
        keys.put(current, loadOprfPrivateKey(current));
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(root.resolve("oprf"), "*.key")) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                KeyId id = KeyId.fromHex(name.substring(0, name.length() - 4));
                if (!keys.containsKey(id)) {
                    keys.put(id, loadOprfPrivateKey(id));
                }
            }
        }
        return keys;
    }

    public OprfPrivateKey loadOprfPrivateKey(KeyId id) throws IOException, GeneralSecurityException {
        OprfPrivateKey key = OprfPrivateKey.fromPkcs8(Pem.read(Pem.PRIVATE_KEY, oprfPrivateKey(id)));
        if (!key.keyId().equals(id)) {
            throw new GeneralSecurityException("private key file does not match its key id " + id);
        }
        return key;
    }

    @Override
    public String toString() {
        return "KeyServerDirectory[" + root + "]";
    }
}
