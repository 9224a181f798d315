package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.Part;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code c.next.sealed} of a window that takes the client's part: made with every position empty (all zero, sparse),
 * filled a part at a time, its empty positions counted at open and kept as parts come (a part sent again counted
 * once, an all-zero checksum left empty), read back as {@code c.sealed} is; a file of another length is refused.
 */
class NextSealedFileTest {
    private static final int N = 5000; // more than one chunk of the count at open
    private static final int SEALED = ChecksumSealer.SEALED_BYTES;

    @TempDir
    Path dir;

    private final SplittableRandom random = new SplittableRandom(3);

    @Test
    void emptyAtTheFreezeFilledByPartsAndCountedAgainAtOpen() throws IOException {
        Path file = dir.resolve(PacedWindowFiles.NEXT_SEALED);
        NextSealedFile.createEmpty(file, N);
        assertThat(Files.size(file)).isEqualTo(2L * N * SEALED);
        byte[][] x = sealed(100);
        byte[][] y = sealed(100);
        try (NextSealedFile next = NextSealedFile.open(file, N)) {
            assertThat(next.missing()).isEqualTo(N);
            next.set(4090, x, y); // across the count's chunks
            assertThat(next.missing()).isEqualTo(N - 100);
            next.set(4090, x, y); // sent again: replaces itself, counted once
            assertThat(next.missing()).isEqualTo(N - 100);
            byte[][] oneEmpty = sealed(2);
            oneEmpty[1] = new byte[SEALED]; // an all-zero checksum: the position stays empty
            next.set(0, sealed(2), oneEmpty);
            assertThat(next.missing()).isEqualTo(N - 101);
        }
        try (NextSealedFile reopened = NextSealedFile.open(file, N)) {
            assertThat(reopened.missing()).isEqualTo(N - 101);
        }
        for (int i = 0; i < 100; i++) {
            assertThat(SealedLevelFile.read(file, Part.X, N, 4090 + i)).isEqualTo(x[i]);
            assertThat(SealedLevelFile.read(file, Part.Y, N, 4090 + i)).isEqualTo(y[i]);
        }
        assertThatThrownBy(() -> NextSealedFile.open(file, N + 1)).isInstanceOf(IOException.class)
                .hasMessageContaining("holds");
    }

    private byte[][] sealed(int count) {
        byte[][] out = new byte[count][SEALED];
        for (byte[] s : out) {
            random.nextBytes(s);
            s[0] = 1; // never all zero
        }
        return out;
    }
}
