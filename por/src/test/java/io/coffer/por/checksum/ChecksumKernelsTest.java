package io.coffer.por.checksum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.coffer.por.field.ChildJvm;
import io.coffer.por.field.Segments;
import io.coffer.por.field.Zp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The checksum kernels agree bit for bit (this suite runs with the Vector API module, so both run here), and the
 * choice: a JVM without the module, or told {@code -Dcoffer.por.vector=off}, runs the scalar loop.
 */
class ChecksumKernelsTest {

    /** sum(block[c] * m[base + c]) mod p the slow way, one reduced product at a time. */
    private static int reference(int[] m, int base, int[] block) {
        int sum = 0;
        for (int c = 0; c < block.length; c++) {
            sum = Zp.add(sum, Zp.mul(block[c], m[base + c]));
        }
        return sum;
    }

    private static int[] elements(SplittableRandom random, int length) {
        int[] v = new int[length];
        for (int i = 0; i < length; i++) {
            int kind = random.nextInt(5);
            v[i] = kind == 0 ? Zp.P - 1 : kind == 1 ? 0 : kind == 2 ? (1 << 30) - 1 : random.nextInt(Zp.P);
        }
        return v;
    }

    @Test
    void vectorAndScalarRowsAreTheSameForEveryLengthOffsetAndExtremeElements() {
        SplittableRandom random = new SplittableRandom(19);
        int[] m = elements(random, 40_000);
        List<Integer> lengths = new ArrayList<>();
        for (int length = 0; length <= 80; length++) {
            lengths.add(length);
        }
        lengths.addAll(List.of(Segments.count(4096) + 1, Segments.count(65536) + 1, 39_000));
        for (int length : lengths) {
            for (int base : new int[] {0, 1, 3, 7, 40_000 - length}) {
                int[] block = elements(random, length);
                int expected = reference(m, base, block);
                assertThat(ScalarChecksumKernel.INSTANCE.dot(m, base, block)).as("scalar, %d at %d", length, base)
                        .isEqualTo(expected);
                assertThat(VectorChecksumKernel.INSTANCE.dot(m, base, block)).as("vector, %d at %d", length, base)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void theLargestElementsEverywhereDoNotOverflowEitherKernel() {
        int[] m = new int[20_000];
        Arrays.fill(m, Zp.P - 1);
        int[] block = m.clone();
        int expected = reference(m, 0, block);
        assertThat(ScalarChecksumKernel.INSTANCE.dot(m, 0, block)).isEqualTo(expected);
        assertThat(VectorChecksumKernel.INSTANCE.dot(m, 0, block)).isEqualTo(expected);
    }

    @Test
    void bothKernelsRowsOfABlocksSegmentsReadFromItsBytesAreTheRowsOfTheSegmentsConverted() {
        SplittableRandom random = new SplittableRandom(29);
        int[] m = elements(random, 5 * 40_000);
        List<Integer> lengths = new ArrayList<>();
        for (int length = 0; length <= 260; length++) {
            lengths.add(length);
        }
        lengths.addAll(List.of(4095, 4096, 65535, 65536, 65537, 100_000));
        for (int length : lengths) {
            byte[] bytes = new byte[length];
            int kind = random.nextInt(3);
            if (kind == 0) {
                Arrays.fill(bytes, (byte) 0xff); // every segment 2^30 - 1
            } else {
                random.nextBytes(bytes);
            }
            int[] segments = Segments.fromBytes(bytes, 0, length);
            int width = 40_000;
            for (int offset : new int[] {0, 1, 3, width - segments.length}) {
                int[] expected = new int[5];
                for (int r = 0; r < 5; r++) {
                    expected[r] = reference(m, r * width + offset, segments);
                }
                int[] scalar = new int[5];
                ScalarChecksumKernel.INSTANCE.dotSegments(m, width, offset, bytes, scalar);
                assertThat(scalar).as("scalar, %d bytes at %d", length, offset).isEqualTo(expected);
                int[] vector = new int[5];
                VectorChecksumKernel.INSTANCE.dotSegments(m, width, offset, bytes, vector);
                assertThat(vector).as("vector, %d bytes at %d", length, offset).isEqualTo(expected);
            }
        }
    }

    @Test
    void theLargestSegmentsAgainstTheLargestEntriesDoNotOverflowTheVectorKernelsBytePath() {
        int width = Segments.count(65536);
        int[] m = new int[5 * width];
        Arrays.fill(m, Zp.P - 1);
        byte[] bytes = new byte[65536];
        Arrays.fill(bytes, (byte) 0xff);
        int[] segments = Segments.fromBytes(bytes, 0, bytes.length);
        int[] vector = new int[5];
        VectorChecksumKernel.INSTANCE.dotSegments(m, width, 0, bytes, vector);
        for (int r = 0; r < 5; r++) {
            assertThat(vector[r]).isEqualTo(reference(m, r * width, segments));
        }
    }

    @Test
    void aJvmWithoutTheVectorModuleRunsTheScalarKernelWithTheSameChecksums() throws Exception {
        List<String> out = probe(List.of());
        assertThat(out.get(0)).isEqualTo("scalar");
        assertThat(out.get(1)).isEqualTo(Arrays.toString(probeChecksum().rows()));
    }

    @Test
    void theScalarKernelCanBeForcedWithTheModulePresent() throws Exception {
        List<String> out = probe(List.of("--add-modules", ChecksumKernels.MODULE, "-Dcoffer.por.vector=off"));
        assertThat(out.get(0)).isEqualTo("scalar");
        assertThat(out.get(1)).isEqualTo(Arrays.toString(probeChecksum().rows()));
    }

    @Test
    void withTheModuleAndAvx512TheVectorKernelRunsWithTheSameChecksums() throws Exception {
        Path cpuinfo = Path.of("/proc/cpuinfo");
        assumeThat(Files.exists(cpuinfo) && Files.readString(cpuinfo).contains(" avx512dq")).as("an AVX-512 CPU")
                .isTrue();
        List<String> out = probe(List.of("--add-modules", ChecksumKernels.MODULE, "-XX:UseAVX=3"));
        assertThat(out.get(0)).startsWith("vector-");
        assertThat(out.get(1)).isEqualTo(Arrays.toString(probeChecksum().rows()));
    }

    /** A checksum of a 64 KiB block's width under a fixed key, computed by whichever kernel the JVM chose. */
    static Checksum probeChecksum() {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) 3);
        int width = Segments.count(65536) + 1;
        int[] block = elements(new SplittableRandom(23), width);
        return ChecksumKey.derive(key, width).checksum(block);
    }

    /** The lines {@link KernelProbe} prints in a child JVM started with {@code options}. */
    private static List<String> probe(List<String> options) throws IOException, InterruptedException {
        return ChildJvm.lines(KernelProbe.class, options);
    }
}
