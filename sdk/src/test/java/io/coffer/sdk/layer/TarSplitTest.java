package io.coffer.sdk.layer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.testing.TestData;
import io.coffer.sdk.testing.TestTar;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tar split into metadata and bodies, and joined back byte for byte, whatever the bytes are. */
class TarSplitTest {
    @TempDir
    Path dir;

    @Test
    void headersGoToTheMetadataStreamAndFileDataToTheBodies() throws IOException {
        byte[] tar = TestTar.of(40, 3000, 1_700_000_000L);
        Split s = split(tar);
        assertThat(s.metadata).isEqualTo(40 * 512L);
        assertThat(s.bytes).hasSameSizeAs(tar);
        for (int i = 0; i < s.metadata; i += 512) {
            assertThat(TarHeaders.memberDataLength(s.bytes, i)).as("a header at %d", i).isGreaterThanOrEqualTo(0);
        }
        byte[] firstBody = TestData.text(1000, 3000);
        assertThat(Arrays.copyOfRange(s.bytes, (int) s.metadata, (int) s.metadata + firstBody.length))
                .isEqualTo(firstBody);
        assertThat(join(s)).isEqualTo(tar);
    }

    @Test
    void paxAndLongNameRecordsAreMetadataWithTheirHeaders() throws IOException {
        byte[] paxRecord = "30 mtime=1700000000.123456789\n".getBytes(StandardCharsets.US_ASCII);
        byte[] name = ("pkg/" + "d".repeat(150) + "/file.py\0").getBytes(StandardCharsets.US_ASCII);
        byte[] pax = padded(paxRecord);
        byte[] longName = padded(name);
        byte[] body = TestData.text(7, 5000);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(TestTar.header("PaxHeaders/file.py", paxRecord.length, 1_700_000_000L, 'x'));
        out.writeBytes(pax);
        out.writeBytes(TestTar.header("././@LongLink", name.length, 0, 'L'));
        out.writeBytes(longName);
        out.writeBytes(TestTar.header("pkg/file.py", body.length, 1_700_000_000L, '0'));
        out.writeBytes(padded(body));
        out.writeBytes(TestTar.header("pkg/link", 0, 1_700_000_000L, '2'));
        out.writeBytes(new byte[1024]);
        byte[] tar = out.toByteArray();
        Split s = split(tar);
        assertThat(s.metadata).isEqualTo(4 * 512L + pax.length + longName.length);
        assertThat(Arrays.copyOfRange(s.bytes, (int) s.metadata, (int) s.metadata + body.length)).isEqualTo(body);
        assertThat(join(s)).isEqualTo(tar);
    }

    @Test
    void bytesThatAreNotTarAreAllBodies() throws IOException {
        byte[] text = TestData.text(3, 100_000);
        Split s = split(text);
        assertThat(s.metadata).isZero();
        assertThat(s.bytes).isEqualTo(text);
        assertThat(join(s)).isEqualTo(text);
        Split empty = split(new byte[0]);
        assertThat(empty.metadata).isZero();
        assertThat(join(empty)).isEmpty();
    }

    @Test
    void aDamagedHeaderOrATarCutShortLeavesTheRestAsBodiesAndStillJoinsBack() throws IOException {
        byte[] tar = TestTar.of(10, 2000, 1L);
        byte[] damaged = tar.clone();
        int third = 2 * (512 + 2048); // each member is a header and 2048 bytes (about 2000, padded)
        assertThat(TarHeaders.memberDataLength(damaged, third)).isEqualTo(2048);
        damaged[third + 148] ^= 1; // the third header's checksum
        Split s = split(damaged);
        assertThat(s.metadata).isEqualTo(2 * 512L);
        assertThat(join(s)).isEqualTo(damaged);
        byte[] cut = Arrays.copyOf(tar, third + 512 + 100); // the third member's data ends early
        Split c = split(cut);
        assertThat(c.metadata).isEqualTo(2 * 512L);
        assertThat(join(c)).isEqualTo(cut);
        byte[] ragged = Arrays.copyOf(tar, third + 300); // ends inside the third header
        assertThat(join(split(ragged))).isEqualTo(ragged);
    }

    @Test
    void streamsThatDoNotFitTogetherFailInsteadOfJoiningWrongly() throws IOException {
        Split s = split(TestTar.of(10, 2000, 1L));
        byte[] meta = Arrays.copyOf(s.bytes, (int) s.metadata);
        byte[] bodies = Arrays.copyOfRange(s.bytes, (int) s.metadata, s.bytes.length);
        byte[] badHeader = meta.clone();
        badHeader[512 + 148] ^= 1;
        assertThatThrownBy(() -> readAll(TarSplit.join(in(badHeader), meta.length, in(bodies))))
                .isInstanceOf(IOException.class).hasMessageContaining("damaged header");
        assertThatThrownBy(() -> readAll(TarSplit.join(in(meta), meta.length, in(Arrays.copyOf(bodies, 5000)))))
                .isInstanceOf(EOFException.class);
        assertThatThrownBy(() -> readAll(TarSplit.join(in(meta), meta.length - 100, in(bodies))))
                .isInstanceOf(EOFException.class);
    }

    private record Split(long metadata, byte[] bytes) {
    }

    private Split split(byte[] tar) throws IOException {
        Path in = Files.write(Files.createTempFile(dir, "tar-", ".tar"), tar);
        Path out = Files.createTempFile(dir, "split-", ".bin");
        long metadata = TarSplit.split(in, out);
        try (var leftover = Files.list(dir)) {
            assertThat(leftover.filter(p -> p.getFileName().toString().endsWith(".bodies"))).isEmpty();
        }
        return new Split(metadata, Files.readAllBytes(out));
    }

    private static byte[] join(Split s) throws IOException {
        return readAll(TarSplit.join(in(Arrays.copyOf(s.bytes, (int) s.metadata)), s.metadata,
                in(Arrays.copyOfRange(s.bytes, (int) s.metadata, s.bytes.length))));
    }

    /** Reads in small, odd-sized pieces, so that pieces end inside headers and bodies. */
    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[333];
        try (in) {
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                out.write(buf, 0, n);
            }
        }
        return out.toByteArray();
    }

    private static InputStream in(byte[] b) {
        return new ByteArrayInputStream(b);
    }

    private static byte[] padded(byte[] b) {
        return Arrays.copyOf(b, (b.length + 511) / 512 * 512);
    }
}
