package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code window} record (docs/FORMAT.md): a window whose next C's checksums came at the freeze is still written as
 * {@code CPORWIN1} (21 bytes, what a server from before reads), one that takes the client's part as {@code CPORWIN2}
 * with its flag; a {@code CPORWIN1} record as the former server wrote it reads as a window without the client's part,
 * and a {@code CPORWIN2} record with another flag value, or of another length, is refused.
 */
class PacedWindowFilesTest {
    @TempDir
    Path dir;

    @Test
    void theRecordSaysWhetherTheWindowTakesTheClientsPartAndAFormerRecordReadsWithout() throws IOException {
        PacedWindowFiles.write(dir, new PacedWindowFiles.State(7, PacedWindowFiles.OPEN));
        byte[] former = Files.readAllBytes(dir.resolve(PacedWindowFiles.RECORD));
        assertThat(former).hasSize(21).startsWith("CPORWIN1".getBytes(StandardCharsets.US_ASCII));
        assertThat(former).isEqualTo(record("CPORWIN1", 7, PacedWindowFiles.OPEN, null)); // the former layout
        assertThat(PacedWindowFiles.read(dir)).isEqualTo(new PacedWindowFiles.State(7, PacedWindowFiles.OPEN, false));

        PacedWindowFiles.write(dir, new PacedWindowFiles.State(8, PacedWindowFiles.SWITCHING, true));
        assertThat(Files.readAllBytes(dir.resolve(PacedWindowFiles.RECORD)))
                .isEqualTo(record("CPORWIN2", 8, PacedWindowFiles.SWITCHING, (byte) 1));
        assertThat(PacedWindowFiles.read(dir)).isEqualTo(new PacedWindowFiles.State(8, PacedWindowFiles.SWITCHING,
                true));

        for (byte[] bad : new byte[][] {record("CPORWIN2", 8, PacedWindowFiles.OPEN, (byte) 0),
            record("CPORWIN2", 8, PacedWindowFiles.OPEN, (byte) 3), record("CPORWIN2", 8, PacedWindowFiles.OPEN, null),
            record("CPORWIN1", 8, PacedWindowFiles.OPEN, (byte) 1)}) {
            Files.write(dir.resolve(PacedWindowFiles.RECORD), bad);
            assertThatThrownBy(() -> PacedWindowFiles.read(dir)).isInstanceOf(IOException.class)
                    .hasMessageContaining("damaged");
        }
    }

    /** A record as docs/FORMAT.md lays it out: magic, epoch, phase, the flags byte where given, CRC-32C. */
    private static byte[] record(String magic, long epoch, byte phase, Byte flags) {
        ByteBuffer b = ByteBuffer.allocate(8 + 8 + 1 + (flags == null ? 0 : 1) + 4);
        b.put(magic.getBytes(StandardCharsets.US_ASCII)).putLong(epoch).put(phase);
        if (flags != null) {
            b.put(flags);
        }
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, b.position());
        b.putInt((int) crc.getValue());
        return b.array();
    }
}
