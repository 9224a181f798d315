package io.coffer.keyserver.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.keyserver.KeyServerFixture;
import io.coffer.keyserver.client.ClientTls;
import io.coffer.keyserver.server.KeyServerInit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Private keys of the key server and its clients are refused while group or others may read them. */
class PrivateKeyFilesTest {
    @TempDir
    Path tmp;

    @Test
    void theServerRefusesToStartWithAServerKeyReadableByOthers() throws Exception {
        KeyServerDirectory dir = KeyServerFixture.init(tmp.resolve("ks"), KeyServerInit.OprfAlgorithm.P256);
        Files.setPosixFilePermissions(dir.serverKey(), PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> KeyServerFixture.start(dir, "none")).isInstanceOf(IOException.class)
                .hasMessageContaining(dir.serverKey().toString()).hasMessageContaining("group or others")
                .hasMessageContaining("chmod 600");
    }

    @Test
    void theServerRefusesAnOprfKeyReadableByGroup() throws Exception {
        KeyServerDirectory dir = KeyServerFixture.init(tmp.resolve("ks"), KeyServerInit.OprfAlgorithm.P256);
        Path oprfKey = dir.oprfPrivateKey(dir.currentKeyId());
        Files.setPosixFilePermissions(oprfKey, PosixFilePermissions.fromString("rw-r-----"));
        assertThatThrownBy(dir::loadOprfKeys).isInstanceOf(IOException.class)
                .hasMessageContaining(oprfKey.toString()).hasMessageContaining("group or others");
        assertThatThrownBy(() -> KeyServerFixture.start(dir, "none")).hasMessageContaining(oprfKey.toString());
    }

    @Test
    void aClientRefusesAClientKeyReadableByGroup() throws Exception {
        KeyServerDirectory dir = KeyServerFixture.init(tmp.resolve("ks"), KeyServerInit.OprfAlgorithm.P256, "c");
        Files.setPosixFilePermissions(dir.clientKey("c"), PosixFilePermissions.fromString("rw-rw----"));
        assertThatThrownBy(() -> ClientTls.context(dir.clientCertificate("c"), dir.clientKey("c"), dir.caCertificate()))
                .isInstanceOf(IOException.class).hasMessageContaining(dir.clientKey("c").toString())
                .hasMessageContaining("group or others");
        Files.setPosixFilePermissions(dir.clientKey("c"), PosixFilePermissions.fromString("r--------"));
        assertThat(ClientTls.context(dir.clientCertificate("c"), dir.clientKey("c"), dir.caCertificate())).isNotNull();
    }

    @Test
    void secretFilesAreCreatedOwnerOnly() throws Exception {
        Path f = tmp.resolve("secret");
        SecretFile.createPrivate(f);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------");
        SecretFile.checkPrivate(f, "test file");
    }
}
