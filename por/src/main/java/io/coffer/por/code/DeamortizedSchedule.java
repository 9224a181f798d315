package io.coffer.por.code;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@link DeamortizedLog}'s schedule as pure functions of the add count (1-based, the log's t after the add): which
 * vectors each add reads and writes, and at which count any stored vector was written. The client needs them to
 * ask the server for exactly the checksums an add's merges read and to seal each written vector under its own write
 * time (section 5.4: kappa = PRF(sk0, addr, t), t unique per address and write); the server to check what it is
 * sent. Both parts (X and Y) of a listed vector are read or written alike.
 *
 * <p>Runs of level l are numbered by their first write: run r holds writes r * 2^l .. (r + 1) * 2^l - 1 and sits in
 * slot r mod {@link DeamortizedLog#SLOTS}, at positions slot * 2^l .. slot * 2^l + 2^l - 1 of each part.
 */
public final class DeamortizedSchedule {
    private DeamortizedSchedule() {}

    /** One vector of H: {@code index} of run {@code run} of {@code level}. */
    public record Vector(int level, int run, int index) {
        public Vector {
            if (level < 0 || level > CodeParameters.MAX_K || run < 0 || index < 0 || index >= 1 << level) {
                throw new IllegalArgumentException("no vector " + index + " of run " + run + " of level " + level);
            }
        }

        /** Its position in both parts of its level: slot * 2^level + index. */
        public int position() {
            return (run % DeamortizedLog.SLOTS << level) + index;
        }

        /** The add count at which it was written ({@link #writtenAt}). */
        public int writtenAt() {
            return DeamortizedSchedule.writtenAt(level, run, index);
        }
    }

    /**
     * The share of a level-l merge done at one add: output index j and j + 2^l of run {@code outputRun} of level l + 1
     * from index j of the level-l runs 2 * outputRun and 2 * outputRun + 1; {@code last} when j = 2^l - 1 (the inputs
     * are then dropped).
     */
    public record Merge(int level, int outputRun, int j) {
        public Vector olderInput() {
            return new Vector(level, 2 * outputRun, j);
        }

        public Vector newerInput() {
            return new Vector(level, 2 * outputRun + 1, j);
        }

        public Vector lowOutput() {
            return new Vector(level + 1, outputRun, j);
        }

        public Vector highOutput() {
            return new Vector(level + 1, outputRun, j + (1 << level));
        }

        public boolean last() {
            return j == (1 << level) - 1;
        }
    }

    /** d_l: how many adds after its last write a level-l run is complete (d_0 = 0, d_(l+1) = d_l + 2^l - 1). */
    public static int delay(int level) {
        return (1 << level) - level - 1;
    }

    /** The share of the level-{@code level} merge that add {@code count} does, or null when it does none. */
    public static Merge merge(int level, int count) {
        int half = 1 << level;
        int end = Math.floorDiv(count - delay(level), 2 * half) * 2 * half; // the pair that ends at add `end`
        int j = count - delay(level) - end;
        if (end < 2 * half || j >= half) {
            return null;
        }
        return new Merge(level, end / half / 2 - 1, j);
    }

    /** The merge steps of add {@code count} of a log of capacity exponent {@code k}, in increasing level. */
    public static List<Merge> merges(int k, int count) {
        checkCount(k, count);
        List<Merge> merges = new ArrayList<>();
        for (int level = 0; level + 1 < k; level++) {
            Merge merge = merge(level, count);
            if (merge != null) {
                merges.add(merge);
            }
        }
        return merges;
    }

    /**
     * The vectors add {@code count} reads that were written by earlier adds (an input completed by this add's own
     * lower merge is not listed): what a client simulating the add must be given, in a fixed order.
     */
    public static List<Vector> inputs(int k, int count) {
        Set<Vector> written = new LinkedHashSet<>();
        written.add(new Vector(0, count - 1, 0));
        List<Vector> inputs = new ArrayList<>();
        for (Merge merge : merges(k, count)) {
            for (Vector input : List.of(merge.olderInput(), merge.newerInput())) {
                if (!written.contains(input)) {
                    inputs.add(input);
                }
            }
            written.add(merge.lowOutput());
            written.add(merge.highOutput());
        }
        return inputs;
    }

    /** The vectors add {@code count} writes, each written at {@code count}: the new level-0 run, then the merges'. */
    public static List<Vector> outputs(int k, int count) {
        List<Vector> outputs = new ArrayList<>();
        outputs.add(new Vector(0, count - 1, 0));
        for (Merge merge : merges(k, count)) {
            outputs.add(merge.lowOutput());
            outputs.add(merge.highOutput());
        }
        return outputs;
    }

    /**
     * The add count at which vector {@code index} of run {@code run} of {@code level} was written: level 0: run + 1;
     * level L >= 1 (l = L - 1, half = 2^l): the merge of the pair ending at (2 run + 2) * half does index j and
     * j + half at add end + d_l + j.
     */
    public static int writtenAt(int level, int run, int index) {
        if (level == 0) {
            return run + 1;
        }
        int half = 1 << (level - 1);
        return (2 * run + 2) * half + delay(level - 1) + index % half;
    }

    /**
     * The complete runs of a log of capacity exponent {@code k} after {@code count} adds, holding every write of the
     * epoch, each in exactly one, oldest first: for each write not yet covered, the largest complete run that starts
     * with it (kept: its parent is not complete yet).
     */
    public static List<LogRun> runs(int k, int count) {
        if (count < 0 || count > 1 << k) {
            throw new IllegalArgumentException("add count " + count + " outside [0, 2^" + k + "]");
        }
        List<LogRun> runs = new ArrayList<>();
        int start = 0;
        while (start < count) {
            int level = 0;
            while (level + 1 < k && start % (2 << level) == 0 && complete(level + 1, start, count)) {
                level++;
            }
            runs.add(new LogRun(level, (start >> level) % DeamortizedLog.SLOTS << level, start));
            start += 1 << level;
        }
        return runs;
    }

    /** Whether the level-{@code level} run of writes start .. start + 2^level - 1 is complete after {@code count}. */
    private static boolean complete(int level, int start, int count) {
        return start + (1 << level) + delay(level) <= count;
    }

    private static void checkCount(int k, int count) {
        if (k < 0 || k > CodeParameters.MAX_K || count < 1 || count > 1 << k) {
            throw new IllegalArgumentException("add " + count + " outside [1, 2^" + k + "]");
        }
    }
}
