package io.coffer.gateway.release;

import static io.coffer.gateway.release.PorShrinkScenario.BLOCK_BYTES;
import static io.coffer.gateway.release.PorShrinkScenario.INITIAL_K;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.blob.S3BlobStore;
import io.coffer.sdk.testing.S3ServerFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shrink over a PoR server that keeps U, C and H in a bucket: {@code ./coffer por-server --k 6 --block-size 16384
 * --backend s3} on s3proxy (a loopback port of the test JVM), and {@code ./coffer serve --por HOST:PORT --por-k 6}
 * over it (por-k is the floor a consolidation keeps). The store grows for 6 MiB put with aws-cli, five of the six
 * objects are deleted and gc'd, and {@code POST /admin/por/consolidate} shrinks it while aws-cli downloads the kept
 * object ({@link PorShrinkScenario}); after a restart of the server (its next open) the bucket holds C's objects of
 * the smaller capacity only, none of the grown one's, nor U's blocks past the smaller capacity; the offline audit
 * passes and the kept object reads back from a restarted gateway. A server started with {@code --k 9}, above the
 * gateway's floor, is shrunk below it by the same scenario and restarts with the same command line.
 */
class PorServerS3ShrinkReleaseIT {
    @TempDir
    Path work;

    @Test
    void aPorServerOnS3ShrinksAndItsBucketKeepsOnlyTheSmallerCapacitysObjects() throws Exception {
        S3ServerFixture s3 = S3ServerFixture.start();
        String bucket = s3.createBucket();
        try (KillTargets.PorServer server = porServer(s3, bucket, INITIAL_K)) {
            List<String> store = server.attach();
            List<String> serve = serve(store);
            PorShrinkScenario scenario = scenario();

            int k = scenario.growDeleteAndConsolidateWhileDownloading(serve, store, Map.of());

            server.restart();
            try (S3BlobStore objects = s3.storeBuilder(bucket).build()) {
                // C's and H's objects are under a generation's key prefix (g<epoch>/, or none: docs/FORMAT.md)
                List<String> c = objects.list("").toList().stream().map(b -> b.name())
                        .filter(name -> name.replaceFirst("^g[0-9]+/", "").startsWith("c-")).toList();
                for (int former = k + 1; former <= scenario.grownK(); former++) {
                    String level = "c-" + (former + 1) + "-";
                    assertThat(c).as("C's objects at 2^%d", former).noneMatch(name -> name.contains(level));
                }
                // x and y, n each, under C's generation (a paced window's next C may be under way in another)
                String current = "c-" + (k + 1) + "-";
                assertThat(c.stream().filter(name -> name.contains(current)).collect(Collectors.groupingBy(
                        name -> name.substring(0, name.indexOf(current)), Collectors.counting())))
                        .containsValue(2L << k);
                assertThat(objects.list("u/").toList()).isNotEmpty()
                        .allMatch(u -> Integer.parseInt(u.name().substring(2)) < 1 << k);
            }
            scenario.auditOfflineAndReadBackAfterARestart(serve, store, Map.of());
        }
    }

    @Test
    void aPorServerShrunkBelowItsOwnKRestartsWithTheSameCommandLine() throws Exception {
        S3ServerFixture s3 = S3ServerFixture.start();
        String bucket = s3.createBucket();
        int serverK = INITIAL_K + 3; // above the gateway's floor, and large enough for the 6 MiB without a grow
        try (KillTargets.PorServer server = porServer(s3, bucket, serverK)) {
            List<String> store = server.attach();
            List<String> serve = serve(store);
            PorShrinkScenario scenario = scenario();

            int k = scenario.growDeleteAndConsolidateWhileDownloading(serve, store, Map.of());
            assertThat(k).as("the capacity after the consolidation").isLessThan(serverK);

            server.restart(); // --k as at the first start: the store has 2^k blocks now (parameters' createdK)
            scenario.auditOfflineAndReadBackAfterARestart(serve, store, Map.of());
        }
    }

    /** {@code ./coffer por-server --k K --block-size 16384 --backend s3} on the bucket of {@code s3}. */
    private KillTargets.PorServer porServer(S3ServerFixture s3, String bucket, int k) throws Exception {
        List<String> backend = List.of("--backend", "s3", "--s3-bucket", bucket, "--s3-endpoint",
                s3.endpoint().toString(), "--s3-path-style");
        Map<String, String> credentials = Map.of("COFFER_BACKEND_ACCESS_KEY", s3.accessKey(),
                "COFFER_BACKEND_SECRET_KEY", s3.secretKey());
        return new KillTargets.PorServer(work, k, BLOCK_BYTES, backend, credentials);
    }

    /** {@code serve}'s options over the server: {@code --por-k 6}, the floor a consolidation keeps, and quick gc. */
    private static List<String> serve(List<String> store) {
        List<String> serve = new ArrayList<>(store);
        serve.addAll(List.of("--por-k", Integer.toString(INITIAL_K)));
        serve.addAll(PorShrinkScenario.GC_OPTIONS);
        return serve;
    }

    private PorShrinkScenario scenario() throws Exception {
        return new PorShrinkScenario(work, Files.createDirectories(work.resolve("gateway")),
                work.resolve("por/parameters"), 1L << 20, 1L << 20);
    }
}
