package io.coffer.benchmarks.layers;

import io.coffer.benchmarks.layers.EngineLayerRatio.Stored;
import io.coffer.sdk.layer.LayerModePolicy;
import io.coffer.sdk.layer.LayerModePolicy.KeyAssignment;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Issue 20's two ratio targets on one counting: SimEnc's layer mode, and its baselines MLE-512K and LSH-MLE, each the
 * stored bytes (packs, manifests, journal, bucket records) of a fresh engine store the directory's files were PUT
 * into, in version order. MLE-512K: {@link EngineMleRatio} (compressed per chunk as the engine does; the paper's
 * uncompressed setting beside it). LSH-MLE: the layer path exactly as SimEnc's mode runs it (spaces, recipes, tar
 * split, sub-chunking, sealing, neighbours' keys), only the 512 KiB chunks grouped under keys by FirstFit on Finesse
 * super-features instead of by clusters ({@link KeyAssignment#FIRST_FIT}). SimEnc: {@link EngineLayerRatio} as it
 * runs by default. Last line: {@code coffer-layers ratio R} of SimEnc's run.
 *
 * <p>Usage: {@code LayerBaselines DIR [MODE [SUB_CHUNK_AVERAGE [THRESHOLD]]]} (defaults {@code high}, 1024, 64).
 */
public final class LayerBaselines {
    /** Issue 20: SimEnc stores at least this many times less than MLE-512K. */
    static final double MLE_FACTOR_TARGET = 2.0;
    /** Issue 20: SimEnc stores at least this fraction less than LSH-MLE. */
    static final double LSH_SAVING_TARGET = 0.30;

    private LayerBaselines() {
    }

    /** The four stores' figures. */
    record Figures(Stored mle, Stored mleUncompressed, Stored lsh, Stored simEnc) {
        /** How many times less SimEnc stores than compressed MLE-512K. */
        double mleFactor() {
            return (double) mle.stored() / simEnc.stored();
        }

        /** The same against the paper's uncompressed MLE-512K. */
        double mleUncompressedFactor() {
            return (double) mleUncompressed.stored() / simEnc.stored();
        }

        /** The fraction of LSH-MLE's stored bytes that SimEnc does not store. */
        double lshSaving() {
            return 1 - (double) simEnc.stored() / lsh.stored();
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: LayerBaselines DIR [MODE [SUB_CHUNK_AVERAGE [THRESHOLD]]]");
            System.exit(2);
        }
        String mode = args.length > 1 ? args[1] : "high";
        int avg = args.length > 2 ? Integer.parseInt(args[2]) : LayerModePolicy.DEFAULT_SUB_CHUNK_AVERAGE;
        int threshold = args.length > 3 ? Integer.parseInt(args[3]) : LayerModePolicy.DEFAULT_THRESHOLD;
        run(Path.of(args[0]), mode, avg, threshold, System.out);
    }

    static Figures run(Path dir, String mode, int subChunkAverage, int threshold, PrintStream out) throws Exception {
        Stored mle = EngineMleRatio.run(dir, true, out);
        Stored mleRaw = EngineMleRatio.run(dir, false, out);
        Stored lsh = EngineLayerRatio.run(dir, mode, subChunkAverage, threshold, KeyAssignment.FIRST_FIT, out);
        Stored simEnc = EngineLayerRatio.run(dir, mode, subChunkAverage, threshold, KeyAssignment.CLUSTERS, out);
        Figures f = new Figures(mle, mleRaw, lsh, simEnc);
        report(f, out);
        return f;
    }

    static void report(Figures f, PrintStream out) {
        out.println();
        out.println("| method (engine, stored bytes of a real store) | stored bytes | packs | manifests | other | ratio |");
        out.println("|---|---:|---:|---:|---:|---:|");
        row(out, "MLE-512K, decompressed, uncompressed chunks (the paper's setting)", f.mleUncompressed());
        row(out, "MLE-512K, decompressed, compressed per chunk", f.mle());
        row(out, "LSH-MLE (Finesse, FirstFit groups), Coffer's layer path", f.lsh());
        row(out, "SimEnc (clusters), Coffer's layer path", f.simEnc());
        out.printf(Locale.ROOT, "target SimEnc >= %.0fx less than MLE-512K: %.3fx less (%.3fx less than the paper's"
                + " uncompressed MLE-512K): %s%n", MLE_FACTOR_TARGET, f.mleFactor(), f.mleUncompressedFactor(),
                f.mleFactor() >= MLE_FACTOR_TARGET ? "met" : "missed");
        out.printf(Locale.ROOT, "target SimEnc >= %.0f %% less than LSH-MLE: %.1f %% less: %s%n",
                LSH_SAVING_TARGET * 100, f.lshSaving() * 100, f.lshSaving() >= LSH_SAVING_TARGET ? "met" : "missed");
        out.printf(Locale.ROOT, "coffer-layers ratio %.3f%n", f.simEnc().ratio());
    }

    private static void row(PrintStream out, String method, Stored s) {
        out.printf(Locale.ROOT, "| %s | %,d | %,d | %,d | %,d | %.3f |%n", method, s.stored(), s.packs(),
                s.manifests(), s.other(), s.ratio());
    }
}
