package io.coffer.keyserver.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.keyserver.pki.KeyServerDirectory;
import io.coffer.keyserver.pki.Pem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyServerInitTest {
    @TempDir
    Path tmp;

    @Test
    void createsCaServerAndClientCertificatesWithPrivateFilesOnlyOwnerReadable() throws Exception {
        KeyServerDirectory d = KeyServerInit.create(tmp.resolve("ks"),
                new KeyServerInit.Options().algorithm(KeyServerInit.OprfAlgorithm.P256).serverName("ks.example").serverName("10.0.0.7").client("gw1"));
        X509Certificate ca = d.loadCaCertificate();
        X509Certificate server = d.loadServerCertificate();
        server.verify(ca.getPublicKey());
        ca.verify(ca.getPublicKey());
        List<String> sans = new ArrayList<>();
        server.getSubjectAlternativeNames().forEach(n -> sans.add(String.valueOf(n.get(1))));
        assertThat(sans).contains("localhost", "127.0.0.1", "ks.example", "10.0.0.7");

        KeyServerInit.issueClient(d, "gw2");
        X509Certificate client = Pem.readCertificate(d.clientCertificate("gw2"));
        client.verify(ca.getPublicKey());
        assertThat(client.getSubjectX500Principal().getName()).isEqualTo("CN=gw2");
        assertThat(client.getExtendedKeyUsage()).contains("1.3.6.1.5.5.7.3.2");

        for (Path secret : List.of(d.caKey(), d.serverKey(), d.clientKey("gw1"), d.clientKey("gw2"), d.oprfPrivateKey(d.currentKeyId()))) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret))).as(secret.toString()).isEqualTo("rw-------");
        }
        assertThatThrownBy(() -> KeyServerInit.issueClient(d, "gw2")).hasMessageContaining("already");
        assertThatThrownBy(() -> KeyServerInit.issueClient(d, "../evil")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KeyServerInit.create(d.root(), new KeyServerInit.Options())).hasMessageContaining("already");
    }

    @Test
    void rotationAddsANewCurrentKeyAndKeepsTheOldOne() throws Exception {
        KeyServerDirectory d = KeyServerInit.create(tmp.resolve("ks"), new KeyServerInit.Options().algorithm(KeyServerInit.OprfAlgorithm.P256));
        var first = d.currentKeyId();
        var second = KeyServerInit.rotateKey(d, KeyServerInit.OprfAlgorithm.RSA, 2048);
        assertThat(second).isNotEqualTo(first);
        assertThat(d.currentKeyId()).isEqualTo(second);
        assertThat(d.loadOprfKeys().keySet()).containsExactly(second, first);
        assertThat(d.loadOprfPublicKey(first).keyId()).isEqualTo(first);
        assertThat(Files.readString(d.oprfPrivateKey(second))).startsWith("-----BEGIN PRIVATE KEY-----");
    }
}
