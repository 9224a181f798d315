package io.coffer.por.checksum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.field.Segments;
import io.coffer.por.field.Zp;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ChecksumKeyTest {
    private static final int WIDTH = Segments.count(4096);

    /**
     * Sealed checksums on disk were computed under M as derived from the key: a faster checksum loop or another
     * layout of M in memory must not change one. Expected values computed with the code of commit bc718bc.
     */
    @Test
    void checksumsAreThoseOfTheRowMajorMatrixTheStoresWereWrittenWith() {
        byte[] seed = new byte[32];
        for (int i = 0; i < 32; i++) {
            seed[i] = (byte) (7 * i + 1);
        }
        int blockWidth = 1094;
        ChecksumKey key = ChecksumKey.derive(seed, 3 * blockWidth);
        SplittableRandom random = new SplittableRandom(2026);
        int[] block = new int[blockWidth];
        for (int i = 0; i < blockWidth; i++) {
            block[i] = random.nextInt(Zp.P);
        }
        block[0] = Zp.P - 1;
        assertThat(key.checksum(block, 0)).isEqualTo(
                Checksum.of(new int[] {293425020, 95577891, 1684722971, 1542854097, 823998259}));
        assertThat(key.checksum(block, blockWidth)).isEqualTo(
                Checksum.of(new int[] {1223495265, 18517544, 1207570362, 837359362, 703005327}));
        assertThat(key.checksum(block, 2 * blockWidth - 5)).isEqualTo(
                Checksum.of(new int[] {386661920, 445085537, 1509041586, 1580457716, 1151691110}));
        assertThat(key.column(3 * blockWidth - 1)).isEqualTo(
                Checksum.of(new int[] {1580410314, 743349406, 1479900653, 921772596, 1266271095}));
    }

    @Test
    void checksumsAreAdditivelyHomomorphic() {
        ChecksumKey key = ChecksumKey.derive(bytes(32, 1), WIDTH);
        SplittableRandom random = new SplittableRandom(11);
        for (int trial = 0; trial < 200; trial++) {
            int[] b1 = randomVector(random, WIDTH);
            int[] b2 = randomVector(random, WIDTH);
            int a1 = random.nextInt(Zp.P);
            int a2 = random.nextInt(Zp.P);
            int[] combined = new int[WIDTH];
            for (int i = 0; i < WIDTH; i++) {
                combined[i] = Zp.add(Zp.mul(a1, b1[i]), Zp.mul(a2, b2[i]));
            }
            Checksum expected = key.checksum(b1).times(a1).plus(key.checksum(b2).times(a2));
            assertThat(key.checksum(combined)).isEqualTo(expected);
        }
    }

    @Test
    void theMatrixIsDeterministicInTheKeyAndDiffersAcrossKeys() {
        int[] block = randomVector(new SplittableRandom(3), WIDTH);
        Checksum a = ChecksumKey.derive(bytes(32, 1), WIDTH).checksum(block);
        assertThat(ChecksumKey.derive(bytes(32, 1), WIDTH).checksum(block)).isEqualTo(a);
        assertThat(ChecksumKey.derive(bytes(32, 2), WIDTH).checksum(block)).isNotEqualTo(a);
    }

    @Test
    void aOneElementChangeChangesTheChecksum() {
        ChecksumKey key = ChecksumKey.derive(bytes(32, 5), WIDTH);
        SplittableRandom random = new SplittableRandom(5);
        int[] block = randomVector(random, WIDTH);
        Checksum before = key.checksum(block);
        for (int trial = 0; trial < 100; trial++) {
            int[] changed = block.clone();
            int at = random.nextInt(WIDTH);
            changed[at] = Zp.add(changed[at], 1 + random.nextInt(Zp.P - 1));
            assertThat(key.checksum(changed)).isNotEqualTo(before);
        }
    }

    @Test
    void extremeElementsDoNotOverflowTheAccumulator() {
        ChecksumKey key = ChecksumKey.derive(bytes(32, 9), WIDTH);
        int[] block = new int[WIDTH];
        java.util.Arrays.fill(block, Zp.P - 1);
        // sigma(-1 * ones) = -sigma(ones)
        int[] ones = new int[WIDTH];
        java.util.Arrays.fill(ones, 1);
        assertThat(key.checksum(block)).isEqualTo(key.checksum(ones).times(Zp.P - 1));
    }

    @Test
    void theChecksumIsTheSumOfMsColumnsTimesTheElementsAtAnyOffset() {
        int width = 4 * WIDTH; // as a batch key: blocks at offsets
        ChecksumKey key = ChecksumKey.derive(bytes(32, 13), width);
        SplittableRandom random = new SplittableRandom(13);
        for (int offset : new int[] {0, WIDTH, 3 * WIDTH, 7}) {
            int[] block = randomVector(random, WIDTH);
            block[0] = Zp.P - 1;
            block[WIDTH - 1] = Zp.P - 1;
            Checksum expected = Checksum.zero();
            for (int c = 0; c < WIDTH; c++) {
                expected = expected.plus(key.column(offset + c).times(block[c]));
            }
            assertThat(key.checksum(block, offset)).isEqualTo(expected);
        }
    }

    /** Every length modulo the four products summed at once, at offsets of every residue, with extreme elements. */
    @Test
    void shortBlocksAtEveryOffsetAreMsColumnsTimesTheElements() {
        ChecksumKey key = ChecksumKey.derive(bytes(32, 17), 64);
        SplittableRandom random = new SplittableRandom(17);
        for (int length = 1; length <= 13; length++) {
            for (int offset = 0; offset <= 5; offset++) {
                int[] block = randomVector(random, length);
                for (int c = 0; c < length; c++) {
                    int kind = random.nextInt(4);
                    block[c] = kind == 0 ? Zp.P - 1 : kind == 1 ? 0 : block[c];
                }
                Checksum expected = Checksum.zero();
                for (int c = 0; c < length; c++) {
                    expected = expected.plus(key.column(offset + c).times(block[c]));
                }
                assertThat(key.checksum(block, offset)).as("length %d at %d", length, offset).isEqualTo(expected);
            }
        }
    }

    @Test
    void anElementOutsideTheFieldIsRefusedWhereverItIs() {
        ChecksumKey key = ChecksumKey.derive(bytes(32, 1), 9);
        for (int bad : new int[] {Zp.P, Zp.P + 1, Integer.MAX_VALUE, Integer.MIN_VALUE, -1}) {
            for (int at = 0; at < 9; at++) {
                int[] block = new int[9];
                java.util.Arrays.fill(block, Zp.P - 1);
                block[at] = bad;
                assertThatThrownBy(() -> key.checksum(block)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("at " + at + ": " + bad);
            }
        }
    }

    @Test
    void badInputIsRefused() {
        ChecksumKey key = ChecksumKey.derive(bytes(32, 1), 8);
        assertThatThrownBy(() -> key.checksum(new int[7])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> key.checksum(new int[] {0, 0, 0, Zp.P, 0, 0, 0, 0}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at 3");
        assertThatThrownBy(() -> key.checksum(new int[] {0, 0, 0, 0, 0, 0, 0, -1}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at 7");
        assertThatThrownBy(() -> ChecksumKey.derive(new byte[16], 8)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Checksum.fromBytes(new byte[19])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aBlocksChecksumFromItsBytesIsThatOfItsSegmentsAtTheOffset() {
        int blockWidth = Segments.count(4096) + 1; // a tag column, as the client's keys have
        ChecksumKey key = ChecksumKey.derive(bytes(32, 21), 3 * blockWidth);
        byte[] block = bytes(4096, 21);
        int[] segments = Segments.fromBytes(block, 0, block.length);
        for (int offset : new int[] {0, blockWidth, 3 * blockWidth - segments.length}) {
            int[] placed = new int[3 * blockWidth];
            System.arraycopy(segments, 0, placed, offset, segments.length);
            assertThat(key.checksumOfSegments(block, offset)).as("at %d", offset).isEqualTo(key.checksum(placed));
        }
        assertThatThrownBy(() -> key.checksumOfSegments(block, 3 * blockWidth - segments.length + 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> key.checksumOfSegments(block, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void oneBlocksChecksumsUnderSeveralKeysAreEachKeysChecksumOfItsSegments() {
        int blockWidth = Segments.count(4096) + 1;
        ChecksumKey blockKey = ChecksumKey.derive(bytes(32, 23), blockWidth);
        ChecksumKey batchKey = ChecksumKey.derive(bytes(32, 24), 4 * blockWidth);
        byte[] block = bytes(4096, 23);
        int[] segments = Segments.fromBytes(block, 0, block.length);
        Checksum[] sums = ChecksumKey.ofSegments(block, new ChecksumKey[] {blockKey, batchKey},
                new int[] {0, 2 * blockWidth}); // whichever form the chosen kernel takes: this suite runs both
        assertThat(sums[0]).isEqualTo(blockKey.checksum(segments, 0));
        assertThat(sums[1]).isEqualTo(batchKey.checksum(segments, 2 * blockWidth));
        assertThatThrownBy(() -> ChecksumKey.ofSegments(block, new ChecksumKey[] {blockKey}, new int[] {0, 1}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void checksumBytesRoundTrip() {
        Checksum c = Checksum.of(new int[] {0, 1, Zp.P - 1, 12345, 1 << 30});
        assertThat(Checksum.fromBytes(c.toBytes())).isEqualTo(c);
    }

    static int[] randomVector(SplittableRandom random, int width) {
        int[] v = new int[width];
        for (int i = 0; i < width; i++) {
            v[i] = random.nextInt(Zp.P);
        }
        return v;
    }

    static byte[] bytes(int length, int seed) {
        byte[] b = new byte[length];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }
}
