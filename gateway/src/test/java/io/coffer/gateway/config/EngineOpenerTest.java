package io.coffer.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.PutObjectRequest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineOpenerTest {
    @TempDir
    Path dir;

    @Test
    void anEngineOpenedForCheckingReadsTheBackendAndCannotWriteThere() throws IOException {
        GatewayConfig c = GatewayConfig.load(null, Map.of(), Map.of(ConfigKey.DATA, dir.resolve("data").toString()));
        byte[] body = new byte[64 * 1024];
        try (Coffer coffer = EngineOpener.open(c, null)) {
            coffer.createBucket("photos", "me", null);
            coffer.putObject(PutObjectRequest.of("photos", "a", body.length), new ByteArrayInputStream(body));
        }
        List<Path> blobsBefore = blobs();

        try (Coffer checking = EngineOpener.openExisting(c, true, true)) {
            assertThat(checking.fsck(true).clean()).isTrue();
            assertThatThrownBy(() -> checking.putObject(PutObjectRequest.of("photos", "b", body.length),
                    new ByteArrayInputStream(new byte[body.length])))
                    .hasStackTraceContaining("read-only");
        }
        assertThat(blobs()).isEqualTo(blobsBefore);
    }

    private List<Path> blobs() throws IOException {
        try (Stream<Path> files = Files.walk(dir.resolve("data/blobs"))) {
            return files.filter(Files::isRegularFile).sorted().toList();
        }
    }
}
