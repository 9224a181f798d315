package io.coffer.keyserver.server;

import io.coffer.keyserver.oprf.KeyId;
import io.coffer.keyserver.oprf.OprfPrivateKey;
import io.coffer.keyserver.oprf.P256OprfPrivateKey;
import io.coffer.keyserver.oprf.RsaOprfPrivateKey;
import io.coffer.keyserver.pki.KeyServerDirectory;
import io.coffer.keyserver.pki.Pem;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Creates and extends a key-server directory ({@link KeyServerDirectory}): the OPRF key, a self-signed CA,
 * the server certificate and client certificates. Certificates use ECDSA P-256 keys signed with
 * SHA256withECDSA. Nothing is overwritten: {@link #create} refuses a directory that already holds a CA.
 */
public final class KeyServerInit {
    /** Which OPRF key to create. */
    public enum OprfAlgorithm {
        /** RSA-OPRF (DupLESS). */
        RSA,
        /** RFC 9497 P256-SHA256 (VOPRF on the wire). */
        P256
    }

    /** Options for {@link #create}; defaults: RSA 2048, no extra names, no clients, certificates valid 2 years. */
    public static final class Options {
        private OprfAlgorithm algorithm = OprfAlgorithm.RSA;
        private int rsaBits = 2048;
        private final List<String> serverNames = new ArrayList<>();
        private final List<String> clients = new ArrayList<>();
        private Duration validity = Duration.ofDays(730);

        public Options algorithm(OprfAlgorithm algorithm) {
            this.algorithm = Objects.requireNonNull(algorithm);
            return this;
        }

        /** 2048 (default), 3072 or 4096; 1024 only for comparisons. */
        public Options rsaBits(int bits) {
            if (bits != 1024 && bits != 2048 && bits != 3072 && bits != 4096) {
                throw new IllegalArgumentException("RSA bits must be 2048, 3072 or 4096 (1024 for comparison only)");
            }
            this.rsaBits = bits;
            return this;
        }

        /** An extra DNS name or IP address for the server certificate (localhost and 127.0.0.1 are always in). */
        public Options serverName(String name) {
            serverNames.add(Objects.requireNonNull(name));
            return this;
        }

        /** A client certificate to issue right away. */
        public Options client(String name) {
            clients.add(KeyServerDirectory.checkName(name));
            return this;
        }

        public Options validity(Duration validity) {
            if (validity.isNegative() || validity.isZero()) {
                throw new IllegalArgumentException("validity must be positive");
            }
            this.validity = validity;
            return this;
        }
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    private KeyServerInit() {}

    /** Creates a new key-server directory (the directory itself may exist but must not hold a CA yet). */
    public static KeyServerDirectory create(Path dir, Options options) throws IOException, GeneralSecurityException {
        KeyServerDirectory d = new KeyServerDirectory(dir);
        if (Files.exists(d.caKey())) {
            throw new IOException("already initialised: " + dir);
        }
        Files.createDirectories(dir.resolve("clients"));
        Files.createDirectories(dir.resolve("oprf"));
        Instant now = Instant.now();

        KeyPair ca = newTlsKeyPair();
        X500Name caName = name("Coffer key server CA");
        X509Certificate caCert = sign(caName, ca.getPrivate(), caName, ca.getPublic(), now, Duration.ofDays(3650),
                b -> {
                    b.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
                    b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
                }, null);
        Pem.writeSecret(d.caKey(), Pem.PRIVATE_KEY, ca.getPrivate().getEncoded());
        Pem.writePublic(d.caCertificate(), Pem.CERTIFICATE, caCert.getEncoded());

        KeyPair server = newTlsKeyPair();
        List<GeneralName> sans = new ArrayList<>();
        sans.add(new GeneralName(GeneralName.dNSName, "localhost"));
        sans.add(new GeneralName(GeneralName.iPAddress, "127.0.0.1"));
        for (String n : options.serverNames) {
            sans.add(isIpAddress(n) ? new GeneralName(GeneralName.iPAddress, n) : new GeneralName(GeneralName.dNSName, n));
        }
        X509Certificate serverCert = sign(caName, ca.getPrivate(), name("Coffer key server"), server.getPublic(), now,
                options.validity, b -> {
                    b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
                    b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
                    b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
                    b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(sans.toArray(new GeneralName[0])));
                }, caCert);
        Pem.writeSecret(d.serverKey(), Pem.PRIVATE_KEY, server.getPrivate().getEncoded());
        Pem.writePublic(d.serverCertificate(), Pem.CERTIFICATE, serverCert.getEncoded());

        rotateKey(d, options.algorithm, options.rsaBits);
        for (String client : options.clients) {
            issueClient(d, client, options.validity);
        }
        return d;
    }

    /** Issues a client certificate CN=name, valid 2 years, into clients/NAME.crt and clients/NAME.key. */
    public static void issueClient(KeyServerDirectory dir, String name) throws IOException, GeneralSecurityException {
        issueClient(dir, name, Duration.ofDays(730));
    }

    public static void issueClient(KeyServerDirectory dir, String name, Duration validity) throws IOException, GeneralSecurityException {
        KeyServerDirectory.checkName(name);
        if (Files.exists(dir.clientKey(name))) {
            throw new IOException("client already issued: " + name);
        }
        X509Certificate caCert = dir.loadCaCertificate();
        PrivateKey caKey = Pem.readPrivateKey(dir.caKey());
        KeyPair client = newTlsKeyPair();
        X509Certificate cert = sign(X500Name.getInstance(caCert.getSubjectX500Principal().getEncoded()), caKey, name(name),
                client.getPublic(), Instant.now(), validity, b -> {
                    b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
                    b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
                    b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
                }, caCert);
        Pem.writeSecret(dir.clientKey(name), Pem.PRIVATE_KEY, client.getPrivate().getEncoded());
        Pem.writePublic(dir.clientCertificate(name), Pem.CERTIFICATE, cert.getEncoded());
    }

    /**
     * Creates a new OPRF key and makes it current. Older keys stay in the directory (a restarted server
     * still answers queries that name them), and their answers keep naming their own key id.
     */
    public static KeyId rotateKey(KeyServerDirectory dir, OprfAlgorithm algorithm, int rsaBits) throws IOException {
        OprfPrivateKey key = algorithm == OprfAlgorithm.RSA
                ? RsaOprfPrivateKey.generate(rsaBits, RANDOM)
                : P256OprfPrivateKey.generate(RANDOM);
        KeyId id = key.keyId();
        Files.createDirectories(dir.root().resolve("oprf"));
        Pem.writeSecret(dir.oprfPrivateKey(id), Pem.PRIVATE_KEY, key.exportSecretPkcs8());
        Pem.writePublic(dir.oprfPublicKey(id), Pem.PUBLIC_KEY, key.publicKey().spki());
        Path tmp = dir.currentFile().resolveSibling("CURRENT.tmp");
        Files.writeString(tmp, id.toHex() + "\n", StandardCharsets.US_ASCII);
        Files.move(tmp, dir.currentFile(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return id;
    }

    private interface Extensions {
        void add(X509v3CertificateBuilder b) throws IOException;
    }

    private static X509Certificate sign(X500Name issuer, PrivateKey issuerKey, X500Name subject, PublicKey subjectKey,
            Instant now, Duration validity, Extensions extensions, X509Certificate issuerCert) throws IOException, GeneralSecurityException {
        BigInteger serial = new BigInteger(127, RANDOM).add(BigInteger.ONE);
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuer, serial, Date.from(now.minusSeconds(300)),
                Date.from(now.plus(validity)), subject, subjectKey);
        JcaX509ExtensionUtils utils = new JcaX509ExtensionUtils();
        b.addExtension(Extension.subjectKeyIdentifier, false, utils.createSubjectKeyIdentifier(subjectKey));
        if (issuerCert != null) {
            b.addExtension(Extension.authorityKeyIdentifier, false, utils.createAuthorityKeyIdentifier(issuerCert));
        }
        extensions.add(b);
        try {
            return new JcaX509CertificateConverter().getCertificate(b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey)));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException("cannot sign certificate", e);
        }
    }

    private static KeyPair newTlsKeyPair() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
        return g.generateKeyPair();
    }

    private static X500Name name(String cn) {
        return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, cn).build();
    }

    private static boolean isIpAddress(String n) {
        if (!n.matches("[0-9.]+") && !n.contains(":")) {
            return false;
        }
        try {
            InetAddress.getByName(n);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
