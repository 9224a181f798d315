package io.coffer.sdk.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MasterKeyFileTest {
    @TempDir
    Path dir;

    @Test
    void theKeyFileIsCreatedOwnerOnlyAndRefusedOnceGroupOrOthersMayReadIt() throws Exception {
        Path file = dir.resolve("master.key");
        MasterKey created = MasterKey.loadOrCreate(file);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(MasterKey.load(file).keyIdHex()).isEqualTo(created.keyIdHex());

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        assertThatThrownBy(() -> MasterKey.loadOrCreate(file)).isInstanceOf(IOException.class)
                .hasMessageContaining("master key file " + file).hasMessageContaining("chmod 600");
    }
}
