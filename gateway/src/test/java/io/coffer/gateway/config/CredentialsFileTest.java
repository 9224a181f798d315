package io.coffer.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CredentialsFileTest {
    @TempDir
    Path dir;

    @Test
    void theCredentialsFileIsCreatedOwnerOnlyAndRefusedOnceGroupOrOthersMayReadIt() throws Exception {
        GatewayConfig c = GatewayConfig.load(null, Map.of(), Map.of(ConfigKey.DATA, dir.toString()));
        CredentialsFile.Loaded created = CredentialsFile.load(c);
        assertThat(created.created()).isTrue();
        Path file = dir.resolve(CredentialsFile.FILE_NAME);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(CredentialsFile.load(c).primary()).isEqualTo(created.primary());

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> CredentialsFile.load(c)).isInstanceOf(IOException.class)
                .hasMessageContaining("credentials file " + file).hasMessageContaining("chmod 600");
    }
}
