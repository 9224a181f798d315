package io.coffer.por.code;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
 * (some 100 bytes per code vector, as Java arrays of one int each), whatever the budget. Each level is decoded once
 * for all the blocks asked for (the work is that of the levels, not per block), and where one part of a level has
 * lost nothing the other part is not read at all (the decoder needs one whole part, or any half).
 */
public final class SlicedRecovery {
    /**
     * Reads elements {@code positions} (ascending) of code vectors from .. from + count - 1 of a part (one run: a
     * level of a {@link DeamortizedLog} has three run slots, some never written): out[i][j] for vector from + i, null
     * where lost.
     */
    @FunctionalInterface
    public interface SliceReader {
        int[][] read(int level, Part part, int from, int count, int[] positions);

        /** A slice reader over a reader of whole parts (memory as the whole part: for stores in memory). */
        static SliceReader of(Recovery.PartReader whole) {
            return (level, part, from, count, positions) -> {
                int[][] vectors = whole.read(level, part);
                int[][] out = new int[count][];
                for (int i = 0; i < count; i++) {
                    int[] v = vectors[from + i];
                    if (v != null) {
                        out[i] = new int[positions.length];
                        for (int j = 0; j < positions.length; j++) {
                            out[i][j] = v[positions[j]];
                        }
                    }
                }
                return out;
            };
        }
    }

    /**
     * Where decoded elements go: {@code length} elements of the block at {@code row} (its rank among the distinct
     * asked-for indices, ascending), starting at element position {@code from}. Every position of every row is put
     * exactly once, so a sink can write them straight to a file.
     */
    @FunctionalInterface
    public interface Sink {
        void put(int row, int from, int[] elements, int offset, int length);
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
     * Memory: the blocks asked for, plus the slices.
     *
     * @throws IllegalArgumentException when a level has lost more than half of its vectors, or a decoded tag names no
     *     block of U (the code vectors were damaged, not merely lost)
     */
    public int[][] recover(List<LogRun> runs, SliceReader h, SliceReader c, int[] indices) {
        return recover(c, List.of(new Layer(runs, h)), indices);
    }

    /** Runs of one H and their reader, as {@link Recovery.Layer}: a paced C rebuild's window has two. */
    public record Layer(List<LogRun> runs, SliceReader h) {}

    /** A run and the reader of the H it belongs to. */
    private record Run(LogRun run, SliceReader h) {}

    /**
     * The tagged vectors of U[indices], in the order asked, from C and the layers of H oldest first ({@link
     * Recovery#recover(Recovery.PartReader, List)}).
     */
    public int[][] recover(SliceReader c, List<Layer> layers, int[] indices) {
        int[] rows = distinct(indices);
        int[][] blocks = new int[rows.length][blockWidth];
        recover(c, layers, rows, (row, from, elements, offset, length) ->
                System.arraycopy(elements, offset, blocks[row], from, length));
        int[][] out = new int[indices.length][];
        for (int i = 0; i < indices.length; i++) {
            out[i] = blocks[Arrays.binarySearch(rows, indices[i])].clone();
        }
        return out;
    }

    /**
     * Decodes the blocks U[rows[0]], U[rows[1]], ... ({@code rows} distinct and ascending) into {@code sink}, each
     * level that holds one of them decoded once, slice by slice, whatever the number of blocks: the work is that of
     * decoding the levels, not per block. Memory: the slices, and a few ints per asked-for block.
     *
     * @throws IllegalArgumentException as {@link #recover(List, SliceReader, SliceReader, int[])}, or when the rows
     *     are not distinct and ascending
     */
    public void recover(List<LogRun> runs, SliceReader h, SliceReader c, int[] rows, Sink sink) {
        recover(c, List.of(new Layer(runs, h)), rows, sink);
    }

    /** As {@link #recover(List, SliceReader, SliceReader, int[], Sink)}, from C and the layers of H oldest first. */
    public void recover(SliceReader c, List<Layer> layers, int[] rows, Sink sink) {
        List<Run> runs = new ArrayList<>();
        for (Layer layer : layers) {
            for (LogRun run : layer.runs()) {
                runs.add(new Run(run, layer.h()));
            }
        }
        for (int i = 0; i < rows.length; i++) {
            if (rows[i] < 0 || rows[i] >= cParams.n()) {
                throw new IllegalArgumentException("block index " + rows[i] + " outside [0, " + cParams.n() + ")");
            }
            if (i > 0 && rows[i] <= rows[i - 1]) {
                throw new IllegalArgumentException("block indices must be distinct and ascending");
            }
        }
        Source[] sources = new Source[rows.length];
        Arrays.fill(sources, Source.C);
        checkCTags(c);
        for (int r = 0; r < runs.size(); r++) {
            findWrites(r, runs.get(r).run(), runs.get(r).h(), rows, sources);
        }
        decodeC(c, rows, sources, sink);
        for (int r = 0; r < runs.size(); r++) {
            decodeRun(r, runs.get(r).run(), runs.get(r).h(), sources, sink);
        }
    }

    /** The distinct values of {@code indices}, ascending. */
    public static int[] distinct(int[] indices) {
        return Arrays.stream(indices).sorted().distinct().toArray();
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
    private void findWrites(int r, LogRun run, SliceReader h, int[] rows, Source[] sources) {
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
                int row = Arrays.binarySearch(rows, index);
                if (row >= 0) {
                    sources[row] = new Source(r, w, slot);
                }
            }
        }
    }

    private void decodeC(SliceReader c, int[] rows, Source[] sources, Sink sink) {
        List<Integer> wanted = new ArrayList<>();
        for (int row = 0; row < sources.length; row++) {
            if (sources[row].run() < 0) {
                wanted.add(row);
            }
        }
        if (wanted.isEmpty()) {
            return;
        }
        int width = sliceWidth(cParams.n(), 1);
        for (int from = 0; from < blockWidth; from += width) {
            int[] positions = range(from, Math.min(blockWidth, from + width), 0);
            int[][] u = decodeCSlice(c, positions);
            for (int row : wanted) {
                sink.put(row, from, u[rows[row]], 0, positions.length);
            }
        }
    }

    private void decodeRun(int r, LogRun run, SliceReader h, Source[] sources, Sink sink) {
        List<Integer> wanted = new ArrayList<>();
        boolean[] slotWanted = new boolean[batchSize];
        for (int row = 0; row < sources.length; row++) {
            if (sources[row].run() == r) {
                wanted.add(row);
                slotWanted[sources[row].slot()] = true;
            }
        }
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
            for (int row : wanted) {
                Source source = sources[row];
                sink.put(row, from, writes[source.write()], slotAt[source.slot()] * (to - from), to - from);
            }
        }
    }

    private int[][] decodeCSlice(SliceReader c, int[] positions) {
        int level = cParams.cLevel();
        int n = cParams.n();
        int[][] x = c.read(level, Part.X, 0, n, positions);
        int[][] y = whole(x) ? new int[x.length][] : c.read(level, Part.Y, 0, n, positions);
        return new LevelDecoder(cParams).decodeC(x, y);
    }

    private int[][] decodeRunSlice(LogRun run, SliceReader h, int[] positions) {
        int[][] x = h.read(run.level(), Part.X, run.offset(), run.size(), positions);
        int[][] y = whole(x) ? new int[x.length][] : h.read(run.level(), Part.Y, run.offset(), run.size(), positions);
        return new LevelDecoder(hParams).decode(run.level(), run.start(), x, y);
    }

    /** Whether no vector of the part is lost: then the decoder needs that part alone, and the other is not read. */
    private static boolean whole(int[][] part) {
        for (int[] v : part) {
            if (v == null) {
                return false;
            }
        }
        return true;
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
