package io.coffer.por.code;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Rebuilds the current U from C and the filled levels of H, each possibly missing up to half of its code vectors:
 * decode C (U as of the last C rebuild), then replay the levels' writes oldest first (level k down to level 0, each
 * in write order), each tagged vector overwriting the block its {@link BlockTag} names. With batching
 * ({@link BatchedLog}) every decoded H vector is split into its blocks and padding is skipped.
 */
public final class Recovery {
    /** Reads the code vectors of part {@code part} of level {@code level}, null where lost. */
    @FunctionalInterface
    public interface PartReader {
        int[][] read(int level, Part part);
    }

    private final CodeParameters cParams;
    private final CodeParameters hParams;
    private final int batchSize;

    /** Recovery for a {@link HierarchicalLog} that keeps H and C together. */
    public Recovery(CodeParameters params) {
        this(params, 0);
    }

    /** Recovery for a {@link BatchedLog} of capacity 2^k blocks and batches of 2^batchExponent blocks. */
    public Recovery(CodeParameters params, int batchExponent) {
        if (batchExponent < 0 || batchExponent > params.k()) {
            throw new IllegalArgumentException("batch exponent must be in [0, " + params.k() + "]: " + batchExponent);
        }
        this.cParams = params;
        this.hParams = batchExponent == 0 ? params : new CodeParameters(params.k() - batchExponent);
        this.batchSize = 1 << batchExponent;
    }

    /** The n tagged vectors of the current U, from a log that keeps H and C in one store. */
    public int[][] recover(LogState state, PartReader reader) {
        return recover(state, reader, reader);
    }

    /** The n tagged vectors of the current U, from H (state {@code hState}, read by {@code h}) and C. */
    public int[][] recover(LogState hState, PartReader h, PartReader c) {
        List<LogRun> runs = new ArrayList<>();
        for (int level = hParams.k(); level >= 0; level--) {
            if (hState.filled(level)) {
                runs.add(new LogRun(level, 0, hState.start(level)));
            }
        }
        return recover(runs, h, c);
    }

    /**
     * The n tagged vectors of the current U, from C (read by {@code c}) and the runs of H (read by {@code h}) listed
     * oldest writes first ({@link HierarchicalLog#runs()}, {@link DeamortizedLog#runs()}).
     *
     * @throws IllegalArgumentException when a level has lost more than half of its vectors, or a decoded tag names no
     *     block of U (the code vectors were damaged, not merely lost)
     */
    public int[][] recover(List<LogRun> runs, PartReader h, PartReader c) {
        return recover(c, List.of(new Layer(runs, h)));
    }

    /** Runs of one H and their reader: a paced C rebuild's window has two, the frozen epoch's and the current. */
    public record Layer(List<LogRun> runs, PartReader h) {}

    /**
     * The n tagged vectors of the current U from C and the layers of H oldest first, each layer's runs oldest first: in
     * a paced C rebuild's window, the old C, the ended epoch's frozen runs, then the current runs. The same decoding
     * as for one H, replayed layer after layer.
     */
    public int[][] recover(PartReader c, List<Layer> layers) {
        int cLevel = cParams.cLevel();
        int[][] u = new LevelDecoder(cParams).decodeC(c.read(cLevel, Part.X), c.read(cLevel, Part.Y));
        for (int i = 0; i < u.length; i++) {
            if (BlockTag.index(u[i]) != i) {
                throw new IllegalArgumentException("C decodes to a vector tagged " + BlockTag.index(u[i])
                        + " at position " + i);
            }
        }
        int blockWidth = u[0].length;
        LevelDecoder decoder = new LevelDecoder(hParams);
        for (Layer layer : layers) {
            replay(layer, decoder, u, blockWidth);
        }
        return u;
    }

    private void replay(Layer layer, LevelDecoder decoder, int[][] u, int blockWidth) {
        PartReader h = layer.h();
        for (LogRun run : layer.runs()) {
            int from = run.offset();
            int to = from + run.size();
            int[][] writes = decoder.decode(run.level(), run.start(),
                    Arrays.copyOfRange(h.read(run.level(), Part.X), from, to),
                    Arrays.copyOfRange(h.read(run.level(), Part.Y), from, to));
            for (int[] write : writes) {
                for (int[] vector : batchSize == 1 ? new int[][] {write} : BatchedLog.split(write, blockWidth)) {
                    int index = BlockTag.index(vector);
                    if (index == BlockTag.NONE && batchSize > 1) {
                        continue; // the padding of a batch flushed before it was full
                    }
                    if (index < 0 || index >= u.length) {
                        throw new IllegalArgumentException("level " + run.level() + " decodes to a write tagged "
                                + index);
                    }
                    u[index] = vector;
                }
            }
        }
    }
}
