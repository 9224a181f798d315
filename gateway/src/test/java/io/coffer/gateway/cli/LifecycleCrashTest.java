package io.coffer.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ExpirationStatus;
import software.amazon.awssdk.services.s3.model.LifecycleRule;

/**
 * kill -9 of {@code coffer serve} in the middle of a lifecycle sweep: every object the rules do not name is still
 * there byte for byte, {@code fsck} is clean, and the next gateway on the store (its lease taken over at once: the
 * holder is a dead process of this host) finishes the sweep. The rule expires on a date in the past, so objects are
 * due at once; the rate setting makes the sweep slow enough to be caught half done.
 */
class LifecycleCrashTest {
    private static final Duration START = Duration.ofSeconds(60);
    private static final int DOOMED = 60;
    private static final int KEPT = 10;
    private static final String BUCKET = "crash-lifecycle";
    private static final Map<String, String> ENV = Map.of("COFFER_ACCESS_KEY", "CRASHTESTKEY",
            "COFFER_SECRET_KEY", "crash-test-secret-key");

    @TempDir
    Path dir;

    @Test
    void aSweepKilledHalfwayLosesNothingThatShouldLiveAndTheNextGatewayFinishesIt() throws Exception {
        Path data = dir.resolve("data");
        try (CofferProcess first = serve(data, "0")) {
            try (S3Client s3 = client(first)) {
                s3.createBucket(r -> r.bucket(BUCKET));
                for (int i = 0; i < DOOMED; i++) {
                    int n = i;
                    s3.putObject(r -> r.bucket(BUCKET).key("doomed/" + n), RequestBody.fromString("doomed " + n));
                }
                for (int i = 0; i < KEPT; i++) {
                    int n = i;
                    s3.putObject(r -> r.bucket(BUCKET).key("keep/" + n), RequestBody.fromString("kept " + n));
                }
                s3.putBucketLifecycleConfiguration(r -> r.bucket(BUCKET).lifecycleConfiguration(c -> c.rules(
                        LifecycleRule.builder().id("past").status(ExpirationStatus.ENABLED)
                                .filter(f -> f.prefix("doomed/"))
                                .expiration(x -> x.date(Instant.parse("2020-01-01T00:00:00Z"))).build())));
            }
            first.stop();
        }

        int atKill;
        try (CofferProcess sweeping = serve(data, "1s", "--lifecycle-rate", "10")) {
            try (S3Client s3 = client(sweeping)) {
                atKill = await(s3, n -> n <= DOOMED - 5);
                sweeping.kill();
            }
        }
        assertThat(atKill).as("killed while the sweep was under way").isPositive();
        assertFsckClean();

        try (CofferProcess next = serve(data, "1s", "--lifecycle-rate", "1000")) {
            try (S3Client s3 = client(next)) {
                assertThat(await(s3, n -> n == 0)).isZero();
                for (int i = 0; i < KEPT; i++) {
                    int n = i;
                    assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("keep/" + n)).asUtf8String())
                            .isEqualTo("kept " + n);
                }
                assertThat(s3.listObjectsV2(r -> r.bucket(BUCKET).prefix("keep/")).keyCount()).isEqualTo(KEPT);
            }
            next.stop();
        }
        assertFsckClean();
    }

    private void assertFsckClean() throws Exception {
        CofferProcess.Result fsck = CofferProcess.run(dir, ENV, "fsck", "--data", dir.resolve("data").toString(),
                "--read-data", "--json");
        assertThat(fsck.exitCode()).as(fsck.out() + fsck.err()).isZero();
        assertThat(fsck.out()).contains("\"clean\":true");
    }

    /** Polls the number of doomed objects until {@code done} holds (at most a minute); returns it. */
    private static int await(S3Client s3, IntPredicate done) throws InterruptedException {
        long deadline = System.nanoTime() + START.toNanos();
        int n;
        do {
            n = s3.listObjectsV2(r -> r.bucket(BUCKET).prefix("doomed/")).keyCount();
            if (done.test(n)) {
                return n;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("the sweep did not get there in " + START + ": " + n + " doomed objects left");
    }

    private CofferProcess serve(Path data, String interval, String... more) throws Exception {
        int adminPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            adminPort = s.getLocalPort();
        }
        String[] args = {"serve", "--data", data.toString(), "--port", "0", "--admin-port",
            String.valueOf(adminPort), "--lifecycle-interval", interval};
        String[] all = new String[args.length + more.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        CofferProcess p = CofferProcess.start(dir, ENV, all);
        p.awaitOut(l -> l.contains("endpoint:"), START);
        return p;
    }

    private static S3Client client(CofferProcess serve) throws Exception {
        String endpoint = serve.awaitOut(l -> l.contains("endpoint:"), START).replaceAll(".*endpoint:\\s*", "").trim();
        return S3Client.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .forcePathStyle(true).credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials
                        .create(ENV.get("COFFER_ACCESS_KEY"), ENV.get("COFFER_SECRET_KEY")))).build();
    }
}
