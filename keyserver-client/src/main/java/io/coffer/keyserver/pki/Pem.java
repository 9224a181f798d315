package io.coffer.keyserver.pki;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/** PEM armour (RFC 7468) for certificates, PKCS#8 private keys and SubjectPublicKeyInfo public keys. */
public final class Pem {
    public static final String CERTIFICATE = "CERTIFICATE";
    public static final String PRIVATE_KEY = "PRIVATE KEY";
    public static final String PUBLIC_KEY = "PUBLIC KEY";

    private Pem() {}

    public static String encode(String label, byte[] der) {
        String body = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
        return "-----BEGIN " + label + "-----\n" + body + "\n-----END " + label + "-----\n";
    }

    /** The DER of the first block with this label. */
    public static byte[] decode(String label, String text) throws IOException {
        String begin = "-----BEGIN " + label + "-----";
        String end = "-----END " + label + "-----";
        int b = text.indexOf(begin);
        int e = b < 0 ? -1 : text.indexOf(end, b);
        if (b < 0 || e < 0) {
            throw new IOException("no " + label + " PEM block");
        }
        try {
            return Base64.getMimeDecoder().decode(text.substring(b + begin.length(), e));
        } catch (IllegalArgumentException ex) {
            throw new IOException("bad base64 in " + label + " PEM block");
        }
    }

    /** The DER of the file's first block with this label; a private key file must be private ({@link SecretFile}). */
    public static byte[] read(String label, Path file) throws IOException {
        if (label.equals(PRIVATE_KEY)) {
            SecretFile.checkPrivate(file, "private key file");
        }
        return decode(label, Files.readString(file, StandardCharsets.US_ASCII));
    }

    public static X509Certificate readCertificate(Path file) throws IOException, GeneralSecurityException {
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(read(CERTIFICATE, file)));
    }

    /** Reads a PKCS#8 EC or RSA private key. */
    public static PrivateKey readPrivateKey(Path file) throws IOException, GeneralSecurityException {
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(read(PRIVATE_KEY, file));
        try {
            return KeyFactory.getInstance("EC").generatePrivate(spec);
        } catch (GeneralSecurityException notEc) {
            return KeyFactory.getInstance("RSA").generatePrivate(spec);
        }
    }

    /** Writes a public file (fails if it exists). */
    public static void writePublic(Path file, String label, byte[] der) throws IOException {
        Files.writeString(file, encode(label, der), StandardCharsets.US_ASCII, StandardOpenOption.CREATE_NEW);
    }

    /** Writes a secret file created with permissions 0600 ({@link SecretFile}). Fails if it exists. */
    public static void writeSecret(Path file, String label, byte[] der) throws IOException {
        if (Files.exists(file)) {
            throw new FileAlreadyExistsException(file.toString());
        }
        SecretFile.createPrivate(file);
        Files.writeString(file, encode(label, der), StandardCharsets.US_ASCII, StandardOpenOption.TRUNCATE_EXISTING);
    }
}
