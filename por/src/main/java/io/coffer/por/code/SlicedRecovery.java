package io.coffer.por.code;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Recovers chosen blocks of U from C and the runs of H, like {@link Recovery}, but in slices of element positions,
 * so its memory is bounded by a budget instead of growing with the block size. Element positions are independent
 * (the code works per element), so a level decodes one slice of positions at a time.
 *
 * <p>First the tags alone (one position per block) are decoded: C's, checked as {@link Recovery} checks them, then
 * each run's, oldest first, which says for every asked-for block which source holds its current version (C, or a
 * write of a run, and its position in the batch). Then, for each source that holds an asked-for block, its level is
 * decoded slice by slice and the asked-for blocks' elements copied out. Memory: the output (the asked-for blocks) plus
 * one slice of one level, about {@code budgetBytes}; but at least one element position of the largest level decoded
 * (some 100 bytes per code vector, as Java arrays of one int each), whatever the budget.
 */
public final class SlicedRecovery {
    /** Reads elements {@code positions} (ascending) of every code vector of a part: out[i][j], null where lost. */
    @FunctionalInterface
    public interface SliceReader {
        int[][] read(int level, Part part, int[] positions);

        /** A slice reader over a reader of whole parts (memory as the whole part: for stores in memory). */
        static SliceReader of(Recovery.PartReader whole) {
            return (level, part, positions) -> {
                int[][] vectors = whole.read(level, part);
                int[][] out = new int[vectors.length][];
                for (int i = 0; i < vectors.length; i++) {
                    if (vectors[i] != null) {
                        out[i] = new int[positions.length];
                        for (int j = 0; j < positions.length; j++) {
                            out[i][j] = vectors[i][positions[j]];
                        }
                    }
                }
                return out;
            };
        }
    }

    /** Copies a level is held in while it decodes (the slices read, the decoder's working copies, its output). */
    private static final int COPIES = 4;
    /** What one Java int array costs besides its elements. */
    private static final int ARRAY_HEADER = 16;

    private final CodeParameters cParams;
    private final CodeParameters hParams;
    private final int batchSize;
    private final int blockWidth;
    private final long budgetBytes;

    /**
     * Recovery for 2^k blocks ({@code params}) in batches of 2^batchExponent, block vectors of {@code blockWidth}
     * elements (the tag last), decoding slices of about {@code budgetBytes}.
     */
    public SlicedRecovery(CodeParameters params, int batchExponent, int blockWidth, long budgetBytes) {
        if (batchExponent < 0 || batchExponent > params.k()) {
            throw new IllegalArgumentException("batch exponent must be in [0, " + params.k() + "]: " + batchExponent);
        }
        if (blockWidth < 1 || budgetBytes < 1) {
            throw new IllegalArgumentException("block width and budget must be positive: " + blockWidth + ", "
                    + budgetBytes);
        }
        this.cParams = params;
        this.hParams = new CodeParameters(params.k() - batchExponent);
        this.batchSize = 1 << batchExponent;
        this.blockWidth = blockWidth;
        this.budgetBytes = budgetBytes;
    }

    /** Where the current version of a block is: C (run -1), or write {@code write} of a run, at batch slot {@code slot}. */
    private record Source(int run, int write, int slot) {
        static final Source C = new Source(-1, 0, 0);
    }

    /**
     * The tagged vectors of U[indices], in the order asked, from C and the runs of H listed oldest writes first.
     *
     * @throws IllegalArgumentException when a level has lost more than half of its vectors, or a decoded tag names no
     *     block of U (the code vectors were damaged, not merely lost)
     */
    public int[][] recover(List<LogRun> runs, SliceReader h, SliceReader c, int[] indices) {
        Map<Integer, Source> sources = new LinkedHashMap<>();
        for (int index : indices) {
            if (index < 0 || index >= cParams.n()) {
                throw new IllegalArgumentException("block index " + index + " outside [0, " + cParams.n() + ")");
            }
            sources.put(index, Source.C);
        }
        checkCTags(c);
        for (int r = 0; r < runs.size(); r++) {
            findWrites(r, runs.get(r), h, sources);
        }
        Map<Integer, int[]> blocks = new LinkedHashMap<>();
        sources.keySet().forEach(i -> blocks.put(i, new int[blockWidth]));
        decodeC(c, sources, blocks);
        for (int r = 0; r < runs.size(); r++) {
            decodeRun(r, runs.get(r), h, sources, blocks);
        }
        int[][] out = new int[indices.length][];
        for (int i = 0; i < indices.length; i++) {
            out[i] = blocks.get(indices[i]).clone();
        }
        return out;
    }

    private void checkCTags(SliceReader c) {
        int[][] tags = decodeCSlice(c, new int[] {blockWidth - 1});
        for (int i = 0; i < tags.length; i++) {
            if (tags[i][0] - 1 != i) {
                throw new IllegalArgumentException("C decodes to a vector tagged " + (tags[i][0] - 1)
                        + " at position " + i);
            }
        }
    }

    /** Decodes the run's tags; every asked-for block a write of it names now comes from that write. */
    private void findWrites(int r, LogRun run, SliceReader h, Map<Integer, Source> sources) {
        int[] positions = new int[batchSize];
        for (int slot = 0; slot < batchSize; slot++) {
            positions[slot] = slot * blockWidth + blockWidth - 1;
        }
        int[][] writes = decodeRunSlice(run, h, positions);
        for (int w = 0; w < writes.length; w++) {
            for (int slot = 0; slot < batchSize; slot++) {
                int index = writes[w][slot] - 1;
                if (index == BlockTag.NONE && batchSize > 1) {
                    continue; // the padding of a batch flushed before it was full
                }
                if (index < 0 || index >= cParams.n()) {
                    throw new IllegalArgumentException("level " + run.level() + " decodes to a write tagged " + index);
                }
                if (sources.containsKey(index)) {
                    sources.put(index, new Source(r, w, slot));
                }
            }
        }
    }

    private void decodeC(SliceReader c, Map<Integer, Source> sources, Map<Integer, int[]> blocks) {
        List<Integer> wanted = new ArrayList<>();
        sources.forEach((index, source) -> {
            if (source.run() < 0) {
                wanted.add(index);
            }
        });
        if (wanted.isEmpty()) {
            return;
        }
        int width = sliceWidth(cParams.n(), 1);
        for (int from = 0; from < blockWidth; from += width) {
            int[] positions = range(from, Math.min(blockWidth, from + width), 0);
            int[][] u = decodeCSlice(c, positions);
            for (int index : wanted) {
                System.arraycopy(u[index], 0, blocks.get(index), from, positions.length);
            }
        }
    }

    private void decodeRun(int r, LogRun run, SliceReader h, Map<Integer, Source> sources,
            Map<Integer, int[]> blocks) {
        List<Integer> wanted = new ArrayList<>();
        boolean[] slotWanted = new boolean[batchSize];
        sources.forEach((index, source) -> {
            if (source.run() == r) {
                wanted.add(index);
                slotWanted[source.slot()] = true;
            }
        });
        if (wanted.isEmpty()) {
            return;
        }
        int[] slots = new int[batchSize];
        int[] slotAt = new int[batchSize]; // a slot's rank among the wanted ones
        int count = 0;
        for (int slot = 0; slot < batchSize; slot++) {
            if (slotWanted[slot]) {
                slotAt[slot] = count;
                slots[count++] = slot;
            }
        }
        int width = sliceWidth(1 << run.level(), count);
        for (int from = 0; from < blockWidth; from += width) {
            int to = Math.min(blockWidth, from + width);
            int[] positions = new int[count * (to - from)];
            for (int s = 0; s < count; s++) {
                System.arraycopy(range(from, to, slots[s] * blockWidth), 0, positions, s * (to - from), to - from);
            }
            int[][] writes = decodeRunSlice(run, h, positions);
            for (int index : wanted) {
                Source source = sources.get(index);
                System.arraycopy(writes[source.write()], slotAt[source.slot()] * (to - from), blocks.get(index), from,
                        to - from);
            }
        }
    }

    private int[][] decodeCSlice(SliceReader c, int[] positions) {
        int level = cParams.cLevel();
        return new LevelDecoder(cParams).decodeC(c.read(level, Part.X, positions), c.read(level, Part.Y, positions));
    }

    private int[][] decodeRunSlice(LogRun run, SliceReader h, int[] positions) {
        int from = run.offset();
        int to = from + run.size();
        return new LevelDecoder(hParams).decode(run.level(), run.start(),
                Arrays.copyOfRange(h.read(run.level(), Part.X, positions), from, to),
                Arrays.copyOfRange(h.read(run.level(), Part.Y, positions), from, to));
    }

    /** Element positions per slot in one slice of a level of {@code vectorsPerPart} vectors, within the budget. */
    private int sliceWidth(int vectorsPerPart, int slots) {
        long perVector = budgetBytes / (COPIES * 2L * vectorsPerPart);
        long elements = (perVector - ARRAY_HEADER) / Integer.BYTES / slots;
        return (int) Math.max(1, Math.min(blockWidth, elements));
    }

    private static int[] range(int from, int to, int offset) {
        int[] out = new int[to - from];
        for (int i = 0; i < out.length; i++) {
            out[i] = offset + from + i;
        }
        return out;
    }
}
