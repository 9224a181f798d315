package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.layer.LayerModePolicy;
import io.coffer.sdk.layer.LayerModePolicy.KeyAssignment;
import io.coffer.sdk.testing.TestData;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LSH-MLE baseline's key assignment (FirstFit groups, a benchmark option) through the engine's layer path: layers
 * read back exactly, a next version deduplicates against the first under its group's key, the journal gives a
 * restarted engine the same groups, and a journal of one assignment reopened under the other is not replayed (it costs
 * deduplication, never data).
 */
class LayerKeyAssignmentTest {
    private static final String LAYERS = "lay";

    @TempDir
    Path dir;

    @Test
    void firstFitGroupsDeduplicateANextVersionAndTheJournalKeepsThemAcrossARestart() throws Exception {
        byte[] v1 = TestData.text(30, 800_000);
        byte[] gz1 = LayerModeTest.gzip(v1, 6);
        byte[] gz2 = LayerModeTest.gzip(LayerModeTest.edited(v1, 31, 3), 6);
        long afterRestart;
        try (TestEngine e = open(dir.resolve("one"), KeyAssignment.FIRST_FIT)) {
            put(e, "v1.tgz", gz1);
        }
        try (TestEngine e = open(dir.resolve("one"), KeyAssignment.FIRST_FIT)) {
            long before = e.backendBytes();
            put(e, "v2.tgz", gz2);
            afterRestart = e.backendBytes() - before;
            assertThat(get(e, "v1.tgz")).isEqualTo(gz1);
            assertThat(get(e, "v2.tgz")).isEqualTo(gz2);
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
        long withoutRestart;
        try (TestEngine e = open(dir.resolve("two"), KeyAssignment.FIRST_FIT)) {
            put(e, "v1.tgz", gz1);
            long before = e.backendBytes();
            put(e, "v2.tgz", gz2);
            withoutRestart = e.backendBytes() - before;
        }
        System.out.printf("[first-fit] v2 added %d bytes (%d after a restart) of its %d gzip bytes%n", withoutRestart,
                afterRestart, gz2.length);
        assertThat(withoutRestart).isLessThan(gz2.length / 2);
        assertThat(afterRestart).isEqualTo(withoutRestart);
    }

    @Test
    void aJournalOfTheOtherAssignmentIsNotReplayedAndCostsOnlyDeduplication() throws Exception {
        byte[] v1 = TestData.text(32, 800_000);
        byte[] gz1 = LayerModeTest.gzip(v1, 6);
        byte[] gz2 = LayerModeTest.gzip(LayerModeTest.edited(v1, 33, 3), 6);
        try (TestEngine e = open(dir, KeyAssignment.FIRST_FIT)) {
            put(e, "v1.tgz", gz1);
        }
        try (TestEngine e = open(dir, KeyAssignment.CLUSTERS)) {
            long before = e.backendBytes();
            put(e, "v2.tgz", gz2);
            long added = e.backendBytes() - before;
            // no cluster knows v1's chunks, so v2's chunks found clusters of their own and store their sub-chunks again
            assertThat(added).isGreaterThan(gz2.length / 2);
            assertThat(get(e, "v1.tgz")).isEqualTo(gz1);
            assertThat(get(e, "v2.tgz")).isEqualTo(gz2);
            assertThat(e.coffer.fsck(true).clean()).isTrue();
        }
    }

    private static TestEngine open(Path dir, KeyAssignment assignment) throws IOException {
        TestEngine e = TestEngine.open(dir, b -> b.layers(LayerModePolicy.parse(LAYERS + "=high",
                LayerModePolicy.DEFAULT_SUB_CHUNK_AVERAGE, LayerModePolicy.DEFAULT_THRESHOLD)
                .withKeyAssignment(assignment)));
        if (e.coffer.listBuckets("t").isEmpty()) {
            e.coffer.createBucket(LAYERS, "t");
        }
        return e;
    }

    private static void put(TestEngine e, String key, byte[] data) {
        e.coffer.putObject(PutObjectRequest.of(LAYERS, key, data.length), new ByteArrayInputStream(data));
    }

    private static byte[] get(TestEngine e, String key) throws IOException {
        try (ObjectContent c = e.coffer.getObject(LAYERS, key, null)) {
            return c.stream().readAllBytes();
        }
    }
}
