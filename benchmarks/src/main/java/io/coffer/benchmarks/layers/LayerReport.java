package io.coffer.benchmarks.layers;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Prints the layer experiment's tables and its last line, {@code coffer-layers ratio R}. */
final class LayerReport {
    private final PrintStream out;

    LayerReport(PrintStream out) {
        this.out = out;
    }

    private void line(String format, Object... args) {
        out.println(String.format(Locale.ROOT, format, args));
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }

    void print(int files, long compressed, SpaceIndex partial, SpaceIndex dec, long sideInfo, int reproducible,
               List<String> notReproducible, long decodeNanos, Map<String, ChunkKeys.SimEnc> simEnc,
               List<Tally> tallies, LayerExperiment.Options o) {
        line("dataset: %s, %d files", o.dir(), files);
        line("");
        line("| space | bytes | size | / compressed | 512 KiB chunks |");
        line("|---|---:|---:|---:|---:|");
        line("| compressed (as stored by clients) | %d | %s | 1.00 | - |", compressed, mib(compressed));
        line("| partially decoded (tokens) | %d | %s | %.2f | %d |", partial.bytes, mib(partial.bytes),
                (double) partial.bytes / compressed, partial.chunks());
        line("| partially decoded side information | %d | %s | %.4f | - |", sideInfo, mib(sideInfo),
                (double) sideInfo / compressed);
        line("| decompressed | %d | %s | %.2f | %d |", dec.bytes, mib(dec.bytes), (double) dec.bytes / compressed,
                dec.chunks());
        line("");
        line("partial decoding: %d of %d files re-encode bit-exactly (checked byte for byte); decode + re-encode + "
                + "compare %.1f s, %.0f MB/s of compressed input", reproducible, files, decodeNanos / 1e9,
                compressed / 1e6 / (decodeNanos / 1e9));
        for (String n : notReproducible) {
            line("  not reproducible, counted at layer level: %s", n);
        }
        line("sketching (Finesse 12 features / 3 super-features, 48-byte window, 256-bit MinHash code): "
                + "partially decoded %.0f MB/s, decompressed %.0f MB/s",
                partial.bytes / 1e6 / Math.max(1e-9, partial.sketchNanos / 1e9),
                dec.bytes / 1e6 / Math.max(1e-9, dec.sketchNanos / 1e9));
        for (Map.Entry<String, ChunkKeys.SimEnc> e : simEnc.entrySet()) {
            ChunkKeys.SimEnc s = e.getValue();
            line("SimEnc clustering, %s: warm-up %s (%d chunks) -> Algorithm 1 epsilon (percentile %.2f) %d bits of "
                    + "256, %d clusters; online threshold %d; %d clusters at the end; %.2f s with key derivation "
                    + "(embedded OPRF)", e.getKey(), o.warmUpVersions() < 0 ? "all files" : "first " + o.warmUpVersions()
                            + " version(s) of each package", s.warmUpChunks(), o.percentile(), s.epsilon(), s.warmUpClusters(),
                    o.threshold() >= 0 ? o.threshold() : s.epsilon(), s.clusters(), s.nanos() / 1e9);
        }
        line("");
        line("Stored bytes are counted from the ciphertexts each pipeline produced: unique sealed blobs (SIV with HMAC-SHA256 and "
                + "AES-256-CTR, a 16-byte synthetic IV each; the compressed variants' sizes are the compressed length plus "
                + "that fixed overhead), plus metadata: "
                + "pack-index entries (id 32 + offset 4 + uvarint length per unique blob), chunk recipes stored once per "
                + "distinct recipe (seal 37 + key 32 + per sub-chunk id 32 + uvarint length) and file manifests (seal 37, "
                + "per 512 KiB chunk a 32-byte recipe id, or for MLE id + key + length; the compressed side "
                + "information in the partially decoded space). data raw: blobs sealed as they are; per blob: each "
                + "compressed (%s) before sealing, raw when that does not shrink it; per pack: the new sub-chunks of "
                + "each 512 KiB chunk compressed together and sealed as one. ratio = original compressed bytes / "
                + "stored bytes (best of the three data columns, metadata included). Benefit score = (ratio - 1) / keys^(1/alpha).",
                Codec.name());
        line("");
        line("| method | space | chunks | keys | input bytes | references | unique blobs | data raw | data per blob "
                + "| data per pack | metadata | stored (best) | ratio | ratio raw, no metadata | benefit a=1 "
                + "| benefit a=0.5 | dedup MB/s |");
        line("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        Tally best = null;
        for (Tally t : tallies) {
            double ratio = (double) compressed / t.best();
            long keys = Math.max(1, t.keys);
            double seconds = t.nanos / 1e9;
            if (!t.method.equals("layer-level")) {
                seconds += (t.space.equals("decompressed") ? dec.sketchNanos : partial.sketchNanos) / 1e9;
            }
            // only the partially decoded space gives the original gzip bytes back bit-exactly (checked above); the
            // decompressed space would need reconstruction data for recompression, which is not built
            if (t.method.equals("SimEnc") && t.space.equals("partially decoded")
                    && (best == null || t.best() < best.best())) {
                best = t;
            }
            line("| %s | %s | %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %.3f | %.3f | %.3g | %.3g | %.0f |",
                    t.method, t.space, t.setting, t.keys, t.inputBytes, t.references, t.uniqueBlobs, t.raw,
                    t.perBlob, t.perPack, t.metadata(), t.best(), ratio, (double) compressed / t.raw,
                    (ratio - 1) / keys, (ratio - 1) / ((double) keys * keys), t.inputBytes / 1e6 / seconds);
        }
        line("");
        line("dedup by %s; %d pipeline threads", o.byCiphertext() ? "the SHA-256 of each ciphertext (every blob sealed)"
                : "the SHA-256 of key and plaintext (equivalent for the deterministic cipher; new blobs sealed and their "
                + "ciphertexts counted)", o.threads());
        line("dedup MB/s: the method's input bytes (in its space) over the time of its pipeline on one thread: "
                + "sketching (chunk-level methods), sub-chunking, sealing, hashing, the dedup lookup and compression "
                + "of new blobs; decoding and key derivation are reported above.");
        line("decompressed-space rows are for comparison (the paper's Table 2): a gzip file cannot be given back "
                + "bit-exactly from its decompressed bytes without reconstruction data (in the manner of preflate), which "
                + "is not built, so Coffer's ratio below comes from the partially decoded space only.");
        if (best != null) {
            line("best Coffer mode: SimEnc, %s, %s: %d bytes stored of %d compressed input", best.space, best.setting,
                    best.best(), compressed);
            line("R below is this pipeline's stored bytes, counted as above, not yet the engine's packs and manifests "
                    + "(the engine integration comes next)");
            line("coffer-layers ratio %.3f", (double) compressed / best.best());
        }
    }
}
