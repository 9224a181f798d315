package io.coffer.sdk.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Behaviour of {@link FastCdcChunker} beyond the published vectors. */
class FastCdcChunkerTest {

    @ParameterizedTest(name = "min {0} avg {1} max {2} level {3} seed {4}")
    @CsvSource({
        "64, 256, 1024, 0, 0",
        "64, 256, 1024, 1, 0",
        "65, 257, 1023, 2, 0",
        "65, 255, 1025, 3, 7",
        "101, 333, 999, 1, 0",
        "1024, 4096, 32768, 1, 0",
        "1023, 4097, 32767, 2, 12345",
        "2048, 8192, 65536, 3, 0",
        "4096, 16384, 65535, 1, 666",
        "8192, 16384, 32768, 3, 0",
    })
    void twoBytesPerStepLoopCutsExactlyWhereTheByteAtATimeRuleDoes(int min, int avg, int max, int level, long seed) {
        FastCdcChunker chunker = new FastCdcChunker(min, avg, max, level, seed);
        Random random = new Random(31L * min + avg + max + level);
        byte[] data = new byte[max * 24 + 17];
        random.nextBytes(data);
        // Low-entropy stretches make long no-cut runs (chunks of max) and cuts near the edges more likely.
        for (int i = 0; i < data.length; i += max * 5) {
            int runEnd = Math.min(data.length, i + max + random.nextInt(max));
            for (int k = i; k < runEnd; k++) {
                data[k] = (byte) (k % 3);
            }
        }
        for (int trial = 0; trial < 1500; trial++) {
            int offset = random.nextInt(data.length);
            int length = 1 + random.nextInt(Math.min(data.length - offset, max + 64));
            FastCdcChunker.Cut cut = chunker.cutWithHash(data, offset, length);
            long[] ref = ReferenceFastCdc.cut(data, offset, length, min, avg, max, level, seed);
            assertThat(cut.length()).as("cut at offset %d length %d", offset, length).isEqualTo((int) ref[0]);
            assertThat(cut.length()).isBetween(1, Math.min(length, max));
            boolean cutByHash = cut.length() < Math.min(length, max) && length > min;
            if (cutByHash) {
                long expected = (cut.length() & 1) == 0 ? ref[1] << 1 : ref[1];
                assertThat(cut.gearHash()).as("hash at cut %d", cut.length()).isEqualTo(expected);
            }
        }
    }

    @Test
    void chunkSizesStayWithinMinAndMaxAndAverageNearTarget() {
        FastCdcChunker chunker = new FastCdcChunker(2048, 8192, 65536);
        byte[] data = randomBytes(8 << 20, 3);
        List<Integer> lengths = chunk(chunker, data);
        assertThat(lengths.subList(0, lengths.size() - 1)).allSatisfy(n -> assertThat(n).isBetween(2048, 65536));
        double mean = (double) data.length / lengths.size();
        assertThat(mean).isBetween(8192 * 0.75, 8192 * 1.5);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"fastcdc:2k:8k:64k", "fastcdc:16k:64k:512k", "fastcdc:16k:64k:512k:level=2"})
    void insertingOneByteInTheMiddleLeavesMostChunksIdentical(String spec) {
        Chunker chunker = ChunkerSpec.parse(spec).newChunker();
        byte[] original = randomBytes(8 << 20, 42);
        int at = original.length / 2;
        byte[] edited = new byte[original.length + 1];
        System.arraycopy(original, 0, edited, 0, at);
        edited[at] = (byte) 0x5a;
        System.arraycopy(original, at, edited, at + 1, original.length - at);

        Set<ByteBuffer> before = new HashSet<>();
        int offset = 0;
        for (int n : chunk(chunker, original)) {
            before.add(ByteBuffer.wrap(original, offset, n).slice());
            offset += n;
        }
        long shared = 0;
        offset = 0;
        for (int n : chunk(chunker, edited)) {
            if (before.contains(ByteBuffer.wrap(edited, offset, n).slice())) {
                shared += n;
            }
            offset += n;
        }
        assertThat((double) shared / edited.length).isGreaterThanOrEqualTo(0.90);
    }

    @Test
    void remainderNoLongerThanMinIsOneChunk() {
        FastCdcChunker chunker = new FastCdcChunker(64, 256, 1024);
        byte[] data = randomBytes(100, 1);
        assertThat(chunker.nextCut(data, 0, 64)).isEqualTo(64);
        assertThat(chunker.nextCut(data, 10, 1)).isEqualTo(1);
        assertThat(chunker.cutWithHash(data, 0, 64).gearHash()).isZero();
    }

    @Test
    void rejectsEmptyOrOutOfBoundsInput() {
        FastCdcChunker chunker = new FastCdcChunker(64, 256, 1024);
        byte[] data = new byte[100];
        assertThatThrownBy(() -> chunker.nextCut(data, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> chunker.nextCut(data, 50, 51)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> chunker.nextCut(data, -1, 5)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void rejectsParametersWithoutMasks() {
        assertThatThrownBy(() -> new FastCdcChunker(64, 100, 1024, 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("masks");
        assertThatThrownBy(() -> new FastCdcChunker(1 << 20, 32 << 20, 64 << 20, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("masks");
        assertThatThrownBy(() -> new FastCdcChunker(64, 256, 1024, 4))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("level");
    }

    @Test
    void specRoundTripsThroughTheParser() {
        FastCdcChunker chunker = new FastCdcChunker(256 << 10, 1 << 20, 4 << 20, 2);
        assertThat(chunker.spec()).isEqualTo("fastcdc:256k:1m:4m:level=2");
        Chunker parsed = ChunkerSpec.parse(chunker.spec()).newChunker();
        assertThat(parsed).isInstanceOf(FastCdcChunker.class);
        assertThat(((FastCdcChunker) parsed).level()).isEqualTo(2);
        assertThat(parsed.minSize()).isEqualTo(256 << 10);
        assertThat(parsed.maxSize()).isEqualTo(4 << 20);
    }

    static byte[] randomBytes(int n, long seed) {
        byte[] data = new byte[n];
        new Random(seed).nextBytes(data);
        return data;
    }

    static List<Integer> chunk(Chunker chunker, byte[] data) {
        List<Integer> lengths = new ArrayList<>();
        for (int offset = 0; offset < data.length; ) {
            int n = chunker.nextCut(data, offset, data.length - offset);
            lengths.add(n);
            offset += n;
        }
        return lengths;
    }
}
