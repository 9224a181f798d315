package io.coffer.por.field;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Blocks cut into 30-bit segments: the grouped conversion equals the bit-by-bit definition and round-trips. */
class SegmentsTest {
    /** The definition: bit j of the block is bit j mod 30 of element j / 30. */
    private static int[] bitByBit(byte[] block, int offset, int length) {
        int[] out = new int[Segments.count(length)];
        for (int j = 0; j < length * 8; j++) {
            int bit = block[offset + j / 8] >> (j % 8) & 1;
            out[j / Zp.SEGMENT_BITS] |= bit << (j % Zp.SEGMENT_BITS);
        }
        return out;
    }

    @Test
    void everyLengthAndOffsetGivesTheElementsOfTheDefinitionAndRoundTrips() {
        Random random = new Random(19);
        for (int length = 0; length <= 200; length++) {
            for (int offset : new int[] {0, 1, 7}) {
                byte[] buffer = new byte[offset + length + 3];
                random.nextBytes(buffer);
                int[] elements = Segments.fromBytes(buffer, offset, length);
                assertThat(elements).as("length %d offset %d", length, offset)
                        .isEqualTo(bitByBit(buffer, offset, length));
                assertThat(Segments.toBytes(elements, length))
                        .isEqualTo(Arrays.copyOfRange(buffer, offset, offset + length));
            }
        }
        byte[] block = new byte[65536];
        random.nextBytes(block);
        assertThat(Segments.fromBytes(block, 0, block.length)).isEqualTo(bitByBit(block, 0, block.length));
        Arrays.fill(block, (byte) 0xff);
        int[] ones = Segments.fromBytes(block, 0, block.length);
        assertThat(Arrays.stream(ones).limit(ones.length - 1)).allMatch(e -> e == (1 << Zp.SEGMENT_BITS) - 1);
    }

    @Test
    void aLongerArrayKeepsWhatFollowsTheElementsAndAShortOneOrBadRangeIsRefused() {
        byte[] block = new byte[4096];
        new Random(23).nextBytes(block);
        int count = Segments.count(block.length);
        int[] out = new int[count + 1];
        out[count] = 42;
        Segments.fromBytes(block, 0, block.length, out);
        assertThat(Arrays.copyOf(out, count)).isEqualTo(Segments.fromBytes(block, 0, block.length));
        assertThat(out[count]).isEqualTo(42);
        assertThatThrownBy(() -> Segments.fromBytes(block, 0, block.length, new int[count - 1]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Segments.fromBytes(block, 1, block.length, new int[count]))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }
}
