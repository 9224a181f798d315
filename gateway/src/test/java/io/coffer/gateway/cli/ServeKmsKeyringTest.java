package io.coffer.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code serve} refuses to start with a keyring (kms-keyring) that others may read or that does not read, a keyring
 * and a KMS at once, or a KMS setting that does not read.
 */
class ServeKmsKeyringTest {
    private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);

    @TempDir
    Path dir;

    @Test
    void keyringReadableByOthersStopsTheStartNamingTheFileNotTheKey() throws Exception {
        Path keyring = dir.resolve("keyring");
        Files.writeString(keyring, "testkey-1 " + KEY + "\n");
        Files.setPosixFilePermissions(keyring, PosixFilePermissions.fromString("rw-r--r--"));
        String out = serve(keyring);
        assertThat(out).startsWith("2\n").contains("KMS keyring file " + keyring).contains("chmod 600")
                .doesNotContain(KEY);
        assertThat(dir.resolve("data")).doesNotExist();
    }

    @Test
    void keyringWithABadLineStopsTheStartNamingTheLine() throws Exception {
        Path keyring = dir.resolve("keyring");
        Files.writeString(keyring, "testkey-1 " + KEY + "\ntestkey-2 c2hvcnQ=\n");
        Files.setPosixFilePermissions(keyring, PosixFilePermissions.fromString("rw-------"));
        assertThat(serve(keyring)).startsWith("2\n").contains("line 2").contains("not 32");
        assertThat(dir.resolve("data")).doesNotExist();
    }

    @Test
    void keyringAndKmsEndpointTogetherStopTheStart() throws Exception {
        Path keyring = dir.resolve("keyring");
        Files.writeString(keyring, "testkey-1 " + KEY + "\n");
        Files.setPosixFilePermissions(keyring, PosixFilePermissions.fromString("rw-------"));
        String out = serve("kms-keyring = " + keyring + "\nkms-endpoint = http://127.0.0.1:1\n");
        assertThat(out).doesNotStartWith("0\n").contains("kms-keyring and kms-endpoint are both set");
        assertThat(dir.resolve("data")).doesNotExist();
    }

    @Test
    void kmsEndpointThatIsNotAnHttpUrlOrHalfACredentialStopsTheStart() throws Exception {
        assertThat(serve("kms-endpoint = ftp://kms.example\n")).doesNotStartWith("0\n")
                .contains("kms-endpoint must be an http or https URL");
        assertThat(serve("kms-endpoint = http://127.0.0.1:1\nkms-access-key = AK\n")).doesNotStartWith("0\n")
                .contains("kms-access-key and kms-secret-key go together");
        assertThat(dir.resolve("data")).doesNotExist();
    }

    private String serve(Path keyring) throws Exception {
        return serve("kms-keyring = " + keyring + "\n");
    }

    private String serve(String configLines) throws Exception {
        Path config = dir.resolve("coffer.conf");
        Files.writeString(config, configLines);
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-------"));
        StringWriter out = new StringWriter();
        CommandLine cl = CofferCommand.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(out));
        int rc = cl.execute("serve", "--config", config.toString(), "--data", dir.resolve("data").toString(),
                "--port", "0", "--admin-port", "0");
        return rc + "\n" + out;
    }
}
