package io.coffer.keyserver.client;

import io.coffer.keyserver.pki.Pem;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** Builds the client's mutual-TLS context: its certificate and key, trusting only the key server's CA. */
public final class ClientTls {
    private ClientTls() {}

    public static SSLContext context(Path clientCertificate, Path clientKey, Path caCertificate)
            throws IOException, GeneralSecurityException {
        X509Certificate cert = Pem.readCertificate(clientCertificate);
        PrivateKey key = Pem.readPrivateKey(clientKey);
        X509Certificate ca = Pem.readCertificate(caCertificate);
        char[] password = new char[0];
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("client", key, password, new Certificate[] {cert});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, password);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", ca);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), new SecureRandom());
        return ctx;
    }
}
