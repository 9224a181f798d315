package io.coffer.benchmarks.layers;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.crypto.ChunkCipher;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.key.KeySource;
import io.coffer.sdk.key.OprfKeySource;
import io.coffer.sdk.layer.LayerModePolicy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DedupStepTest {
    private static final int AVG = LayerModePolicy.DEFAULT_SUB_CHUNK_AVERAGE;
    private static final MasterKey MASTER = MasterKey.random();
    private static final byte[] SEAL_KEY = MASTER.deriveSecret(ChunkCipher.SEAL_PURPOSE);
    private static KeySource source;

    @BeforeAll
    static void keySource() {
        source = OprfKeySource.embedded(MASTER);
    }

    @AfterAll
    static void close() throws Exception {
        source.close();
    }

    private static DedupStep step(DedupStep.Method method, ExecutorService pool) {
        return new DedupStep(method, SEAL_KEY, source, AVG, LayerModePolicy.DEFAULT_THRESHOLD, pool);
    }

    /** Text-like bytes: compressible, as token streams of source tarballs are. */
    private static byte[] text(long seed, int size) {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder(size + 16);
        while (sb.length() < size) {
            sb.append("word").append(r.nextInt(3000)).append(r.nextInt(9) == 0 ? '\n' : ' ');
        }
        return sb.substring(0, size).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] edited(byte[] data, long seed, int edits) {
        byte[] out = data.clone();
        Random r = new Random(seed);
        for (int i = 0; i < edits; i++) {
            out[r.nextInt(out.length)] = (byte) ('A' + r.nextInt(26));
        }
        return out;
    }

    @Test
    void aLayerMetAgainIsLookedUpAndNothingOfItIsSealedAgain() throws Exception {
        byte[] layer = text(1, 1_300_000);
        for (DedupStep.Method m : DedupStep.Method.values()) {
            DedupStep step = step(m, null);
            step.layer(layer);
            DedupStep.Result first = step.result();
            step.layer(layer);
            DedupStep.Result second = step.result();
            assertThat(first.newSubChunks()).as(m.label).isPositive();
            assertThat(second.subChunks()).as(m.label).isEqualTo(2 * first.subChunks());
            assertThat(second.newSubChunks()).as(m.label).isEqualTo(first.newSubChunks());
            assertThat(second.storedBytes()).as(m.label).isEqualTo(first.storedBytes());
            assertThat(second.inputBytes()).as(m.label).isEqualTo(2L * layer.length);
        }
    }

    @Test
    void aSimilarLayerSharesItsKeysAndStoresOnlyTheEditedSubChunks() throws Exception {
        byte[] v1 = text(2, 1_600_000);
        byte[] v2 = edited(v1, 3, 20);
        for (DedupStep.Method m : DedupStep.Method.values()) {
            DedupStep step = step(m, null);
            step.layer(v1);
            DedupStep.Result first = step.result();
            step.layer(v2);
            DedupStep.Result second = step.result();
            assertThat(second.keys()).as(m.label).isEqualTo(first.keys());
            // 20 edits touch at most 20 sub-chunks (and FastCDC may move a cut next to each)
            assertThat(second.newSubChunks() - first.newSubChunks()).as(m.label).isBetween(1L, 40L);
        }
    }

    @Test
    void incompressibleSubChunksAreStoredWithTheGcmTagOnly() throws Exception {
        byte[] random = new byte[700_000];
        new Random(4).nextBytes(random);
        DedupStep step = step(DedupStep.Method.SIMENC, null);
        step.layer(random);
        DedupStep.Result r = step.result();
        assertThat(r.newSubChunks()).isEqualTo(r.subChunks());
        assertThat(r.storedBytes()).isEqualTo(random.length + r.subChunks() * ChunkCipher.TAG_LENGTH);
    }

    @Test
    void twoThreadsFindAndStoreExactlyWhatOneThreadDoes() throws Exception {
        byte[] base = text(5, 2_000_000);
        byte[][] layers = {base, edited(base, 6, 50), text(7, 900_000), base};
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (DedupStep.Method m : DedupStep.Method.values()) {
                DedupStep one = step(m, null);
                DedupStep two = step(m, pool);
                for (byte[] layer : layers) {
                    one.layer(layer);
                    two.layer(layer);
                }
                assertThat(two.result()).as(m.label).isEqualTo(one.result());
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void layersOverlappedOnAPoolFindAndStoreExactlyWhatOneThreadDoesLayerByLayer() throws Exception {
        byte[] base = text(8, 2_000_000);
        List<byte[]> layers = List.of(base, edited(base, 9, 50), text(10, 900_000), edited(base, 11, 500), base);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (DedupStep.Method m : DedupStep.Method.values()) {
                DedupStep one = step(m, null);
                for (byte[] layer : layers) {
                    one.layer(layer);
                }
                DedupStep overlapped = step(m, pool);
                overlapped.layers(layers);
                assertThat(overlapped.result()).as(m.label).isEqualTo(one.result());
                assertThat(one.result().newSubChunks()).as(m.label).isLessThan(one.result().subChunks());
            }
        } finally {
            pool.shutdown();
        }
    }
}
