package io.coffer.benchmarks.layers;

import io.coffer.benchmarks.EngineBenchmark;
import io.coffer.benchmarks.layers.EngineLayerRatio.Stored;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.chunk.FixedChunker;
import io.coffer.sdk.layer.LayerModePolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * The MLE-512K baseline (SimEnc's AWS Lambda setting) counted as the engine's R is: every .tgz/.tar.gz of a directory
 * is decompressed and its bytes PUT, in version order, into an ordinary bucket (no layer mode) of a fresh directory
 * store whose chunker cuts fixed 512 KiB chunks; each chunk has its own message-locked key (the embedded OPRF key
 * source's key for the chunk's SHA-256, so equal chunks deduplicate exactly as with SHA-256 as the key) and is
 * compressed as the engine compresses every chunk (zstd level 1 where it pays) or, in the paper's setting, not at all.
 * Stored bytes are the store's blobs; the original bytes are the compressed files', as for R. Each object is read back
 * and compared by MD5. The decompressed objects do not give the .tgz back: this baseline, like the paper's, stores the
 * layers' contents, not their gzip bytes.
 */
final class EngineMleRatio {
    private EngineMleRatio() {
    }

    static Stored run(Path dir, boolean compression, PrintStream out) throws Exception {
        List<Path> files = LayerExperiment.files(dir);
        Path store = Files.createTempDirectory("coffer-mle-ratio-");
        Path tar = Files.createTempFile("coffer-mle-", ".tar");
        try {
            long original = 0;
            long decompressed = 0;
            long start = System.nanoTime();
            try (Coffer coffer = Coffer.builder().directory(store).chunker(new FixedChunker(LayerModePolicy.CHUNK_SIZE))
                    .compression(compression).build()) {
                coffer.createBucket("mle", "bench");
                for (Path f : files) {
                    original += Files.size(f);
                    long size = gunzip(f, tar);
                    decompressed += size;
                    String etag;
                    try (InputStream in = Files.newInputStream(tar)) {
                        etag = coffer.putObject(PutObjectRequest.of("mle", f.getFileName().toString(), size), in)
                                .etag();
                    }
                    String back;
                    try (var content = coffer.getObject("mle", f.getFileName().toString())) {
                        back = EngineLayerRatio.md5Hex(content.stream());
                    }
                    if (!back.equals(etag)) {
                        throw new IllegalStateException(f + " read back with MD5 " + back + ", not " + etag);
                    }
                }
            }
            Stored s = Stored.count(store, files.size(), original);
            out.printf(Locale.ROOT, "engine, MLE-512K (decompressed, fixed 512 KiB chunks, %s): %d files, %d original"
                    + " bytes (%d decompressed); stored %d (packs %d, manifests %d, other %d); PUT+GET %.1f s%n",
                    compression ? "compressed per chunk" : "uncompressed", files.size(), original, decompressed,
                    s.stored(), s.packs(), s.manifests(), s.other(), (System.nanoTime() - start) / 1e9);
            return s;
        } finally {
            Files.deleteIfExists(tar);
            EngineBenchmark.deleteTree(store);
        }
    }

    /** Decompresses the gzip file {@code gz} (every member) into {@code out}; returns the decompressed size. */
    private static long gunzip(Path gz, Path out) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz), 1 << 16);
             OutputStream o = Files.newOutputStream(out)) {
            return in.transferTo(o);
        }
    }
}
