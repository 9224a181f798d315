package io.coffer.por.store;

import java.util.ArrayList;
import java.util.List;

/**
 * Ascending element positions of a slice grouped into contiguous ranges to read, so a slice that takes a few
 * positions from each block of a batch vector reads those pieces and not the whole span between the first and the
 * last (which for a batch of 2^b blocks is up to 2^b times as much). Ranges closer than {@link #MERGE_GAP} elements
 * are read as one: one read of a little more beats two reads.
 */
record PositionRanges(int[] firsts, int[] lengths, int[] offsets) {
    /** Elements of gap under which two ranges are read as one. */
    static final int MERGE_GAP = 256;

    static PositionRanges of(int[] positions, int width) {
        if (positions.length == 0 || positions[0] < 0 || positions[positions.length - 1] >= width) {
            throw new IllegalArgumentException("element positions outside [0, " + width + ")");
        }
        List<int[]> ranges = new ArrayList<>(); // {first, last, index in positions of first}
        int first = positions[0];
        int last = first;
        int start = 0;
        for (int j = 1; j < positions.length; j++) {
            if (positions[j] <= positions[j - 1]) {
                throw new IllegalArgumentException("element positions must ascend");
            }
            if (positions[j] - last > MERGE_GAP) {
                ranges.add(new int[] {first, last, start});
                first = positions[j];
                start = j;
            }
            last = positions[j];
        }
        ranges.add(new int[] {first, last, start});
        int[] firsts = new int[ranges.size()];
        int[] lengths = new int[ranges.size()];
        int[] offsets = new int[ranges.size()];
        for (int r = 0; r < ranges.size(); r++) {
            firsts[r] = ranges.get(r)[0];
            lengths[r] = ranges.get(r)[1] - ranges.get(r)[0] + 1;
            offsets[r] = ranges.get(r)[2];
        }
        return new PositionRanges(firsts, lengths, offsets);
    }

    int count() {
        return firsts.length;
    }

    /** The longest range, in elements: the buffer a reader needs. */
    int longest() {
        int max = 0;
        for (int length : lengths) {
            max = Math.max(max, length);
        }
        return max;
    }
}
