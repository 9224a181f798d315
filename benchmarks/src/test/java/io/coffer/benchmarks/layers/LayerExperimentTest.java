package io.coffer.benchmarks.layers;

import static io.coffer.benchmarks.layers.LayerTestData.gzip;
import static io.coffer.benchmarks.layers.LayerTestData.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.crypto.SubChunkCipher;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LayerExperimentTest {
    private static final int CHUNK = 512 << 10;
    private static final int SEAL = MasterKey.OVERHEAD;

    @TempDir
    static Path dir;
    /** The run by key and plaintext, shared by the tests that only read it (each run takes seconds). */
    private static List<Tally> fastRun;



    private static Tally find(List<Tally> tallies, String method, String space) {
        return tallies.stream().filter(t -> t.method.equals(method) && t.space.equals(space)).findFirst()
                .orElseThrow();
    }

    private static int uvarint(long v) {
        return Tally.uvarint(v);
    }

    /**
     * pkg-1.0: content A (two full 512 KiB chunks) at level 6; pkg-1.1: the same bytes again (a layer-level
     * duplicate); pkg-1.2: the same content A compressed at level 1 (different compressed bytes, equal decompressed).
     */
    private static synchronized List<Tally> fastRun() throws Exception {
        if (fastRun == null) {
            fastRun = runOnKnownDuplicates(false, new PrintStream(OutputStream.nullOutputStream()));
        }
        return fastRun;
    }

    private static List<Tally> runOnKnownDuplicates(boolean byCiphertext, PrintStream out) throws Exception {
        byte[] a = text(1, 2 * CHUNK);
        byte[] v10 = gzip(a, 6);
        byte[] v12 = gzip(a, 1);
        assertThat(v12).isNotEqualTo(v10);
        Files.write(dir.resolve("pkg-1.0.tgz"), v10);
        Files.write(dir.resolve("pkg-1.1.tgz"), v10);
        Files.write(dir.resolve("pkg-1.2.tgz"), v12);
        Files.writeString(dir.resolve("README"), "not a versioned tarball: ignored");
        LayerExperiment.Options o = new LayerExperiment.Options(dir, List.of(new int[] {2048, 4096, 8192}), -1, -1,
                byCiphertext, 2, 0.9, true);
        return LayerExperiment.run(o, out);
    }

    @Test
    void layerLevelStoresEachDistinctFileOnceWithItsManifestAndIndexEntry() throws Exception {
        List<Tally> tallies = fastRun();
        long v10 = Files.size(dir.resolve("pkg-1.0.tgz"));
        long v12 = Files.size(dir.resolve("pkg-1.2.tgz"));
        Tally layer = find(tallies, "layer-level", "compressed");
        assertThat(layer.files).isEqualTo(3);
        assertThat(layer.inputBytes).isEqualTo(2 * v10 + v12);
        assertThat(layer.uniqueBlobs).isEqualTo(2);
        assertThat(layer.raw).isEqualTo(v10 + SubChunkCipher.OVERHEAD + v12 + SubChunkCipher.OVERHEAD);
        assertThat(layer.indexBytes).isEqualTo(32 + 4 + uvarint(v10) + 32 + 4 + uvarint(v12));
        assertThat(layer.manifestBytes).isEqualTo(2 * (SEAL + 32 + 32 + uvarint(v10)) + SEAL + 32 + 32
                + uvarint(v12));
        assertThat(layer.best()).isEqualTo(layer.raw + layer.indexBytes + layer.manifestBytes);
    }

    @Test
    void mleOnDecompressedDataStoresTheTwoChunksOnceForAllThreeFiles() throws Exception {
        List<Tally> tallies = fastRun();
        Tally mle = find(tallies, "MLE-512K", "decompressed");
        assertThat(mle.references).isEqualTo(6);
        assertThat(mle.uniqueBlobs).isEqualTo(2);
        assertThat(mle.raw).isEqualTo(2L * (CHUNK + SubChunkCipher.OVERHEAD));
        assertThat(mle.keys).isEqualTo(2);
        assertThat(mle.manifestBytes).isEqualTo(3L * (SEAL + 1 + 2 * (32 + ChunkKey.LENGTH + uvarint(CHUNK))));
        assertThat(mle.perBlob).isLessThan(mle.raw);
    }

    @Test
    void subChunkMethodsStoreTheFirstFilesSubChunksAndNothingForItsRepeats() throws Exception {
        List<Tally> tallies = fastRun();
        for (String method : List.of("LSH-MLE", "SimEnc")) {
            Tally t = find(tallies, method, "decompressed");
            // every file has the same sub-chunks under the same keys: a third of the references are unique at most
            assertThat(t.references % 3).isZero();
            assertThat(t.uniqueBlobs).isLessThanOrEqualTo(t.references / 3).isPositive();
            // both 512 KiB chunks have one recipe each, stored once: seal, key, count, per sub-chunk id and length
            // (sub-chunks of 2 to 8 KiB: a 2-byte uvarint each)
            long recipeEntries = t.references / 3;
            assertThat(t.recipeBytes).isEqualTo(2L * (SEAL + ChunkKey.LENGTH + 1) + recipeEntries * (32 + 2));
            assertThat(t.manifestBytes).isEqualTo(3L * (SEAL + 1 + 2 * 32));
            // no sub-chunk repeats inside the random text, so the unique plaintext is the whole 1 MiB
            assertThat(t.uniqueBlobs).isEqualTo(recipeEntries);
            assertThat(t.raw).isEqualTo(t.uniqueBlobs * SubChunkCipher.OVERHEAD + 2L * CHUNK);
        }
        Tally partial = find(tallies, "SimEnc", "partially decoded");
        assertThat(partial.files).isEqualTo(3);
        assertThat(partial.filesAtLayerLevel).isZero();
    }

    @Test
    void dedupByCiphertextAndByKeyAndPlaintextCountTheSame() throws Exception {
        List<Tally> fast = fastRun();
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        List<Tally> slow = runOnKnownDuplicates(true, new PrintStream(report, true, StandardCharsets.UTF_8));
        assertThat(slow).hasSameSizeAs(fast);
        for (int i = 0; i < fast.size(); i++) {
            Tally f = fast.get(i);
            Tally s = slow.get(i);
            assertThat(new long[] {s.references, s.uniqueBlobs, s.raw, s.perBlob, s.perPack, s.metadata(), s.keys})
                    .as(f.method + " " + f.space + " " + f.setting)
                    .containsExactly(f.references, f.uniqueBlobs, f.raw, f.perBlob, f.perPack, f.metadata(), f.keys);
        }
        String[] lines = report.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(lines[lines.length - 1]).matches("coffer-layers ratio \\d+\\.\\d{3}");
    }
}
