package io.coffer.por.blob;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The header that lets the block map be rebuilt from U. */
class PackHeaderTest {
    private static final int BLOCK = 1024;
    private static final Instant T = Instant.ofEpochMilli(1_700_000_000_123L);

    /** Lays header || zero content out in blocks as the store does; returns them by index. */
    private static Map<Integer, byte[]> layOut(PackHeader h) {
        byte[] header = h.encode();
        Map<Integer, byte[]> blocks = new HashMap<>();
        for (int j = 0; j < h.blocks().length; j++) {
            byte[] block = new byte[BLOCK];
            int from = j * BLOCK;
            if (from < header.length) {
                System.arraycopy(header, from, block, 0, Math.min(BLOCK, header.length - from));
            }
            blocks.put(h.blocks()[j], block);
        }
        return blocks;
    }

    @Test
    void aHeaderThatSpansSeveralBlocksDecodesThroughTheIndicesItAlreadyGave() {
        long length = 600L * BLOCK;
        int count = PackHeader.blockCount("p/x", length, BLOCK, 4096);
        assertThat(PackHeader.length(3, count)).isGreaterThan(2 * BLOCK); // the index list needs three blocks
        int[] indices = IntStream.range(0, count).map(i -> 4000 - 3 * i).toArray();
        PackHeader h = new PackHeader("p/x", length, T, indices);
        Map<Integer, byte[]> u = layOut(h);

        PackHeader back = PackHeader.decode(indices[0], u.get(indices[0]), 4096, u::get);

        assertThat(back).isNotNull();
        assertThat(back.name()).isEqualTo("p/x");
        assertThat(back.length()).isEqualTo(length);
        assertThat(back.created()).isEqualTo(T);
        assertThat(back.blocks()).containsExactly(indices);
    }

    @Test
    void theBlockCountCoversHeaderAndContent() {
        assertThat(PackHeader.blockCount("p/a", 0, BLOCK, 10)).isEqualTo(1);
        int count = PackHeader.blockCount("p/a", 10L * BLOCK, BLOCK, 100);
        assertThat((long) count * BLOCK).isGreaterThanOrEqualTo(PackHeader.length(3, count) + 10L * BLOCK);
        assertThat((long) (count - 1) * BLOCK).isLessThan(PackHeader.length(3, count - 1) + 10L * BLOCK);
        assertThat(PackHeader.blockCount("p/a", 10L * BLOCK, BLOCK, 5)).isEqualTo(-1);
        assertThat(PackHeader.blockCount("p/a", Long.MAX_VALUE, BLOCK, 1 << 26)).isEqualTo(-1);
    }

    @Test
    void blocksThatAreNotAHeaderOrAreDamagedDecodeToNothing() {
        PackHeader h = new PackHeader("p/y", 100, T, new int[] {5});
        byte[] block = layOut(h).get(5);

        assertThat(PackHeader.decode(5, block, 64, i -> null)).isNotNull();
        assertThat(PackHeader.decode(5, new byte[BLOCK], 64, i -> null)).isNull();
        assertThat(PackHeader.decode(6, block, 64, i -> null)).as("another block's header").isNull();
        byte[] altered = Arrays.copyOf(block, BLOCK);
        altered[30] ^= 1; // inside the name: the CRC no longer matches
        assertThat(PackHeader.decode(5, altered, 64, i -> null)).isNull();
        assertThat(PackHeader.decode(5, block, 4, i -> null)).as("an index beyond the capacity").isNull();
    }
}
