package io.coffer.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.testing.TestData;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Graceful shutdown as {@code coffer serve} does it on SIGTERM: readiness turns 503, the listening socket closes, a
 * PUT already in flight still completes (and is stored), then its connection closes and shutdown returns.
 */
class GracefulShutdownTest {
    private static final String AK = RunningGateway.CREDENTIAL.accessKeyId();
    private static final String SK = RunningGateway.CREDENTIAL.secretKey();

    @TempDir
    Path dir;

    @Test
    void inFlightPutCompletesWhileDrainingAndNewConnectionsAreRefused() throws Exception {
        try (RunningGateway g = RunningGateway.start(dir, o -> o)) {
            int port = g.port();
            try (RawClient setup = new RawClient(port, AK, SK)) {
                assertThat(setup.send("PUT", "/drain", "", Map.of(), new byte[0]).status()).isEqualTo(200);
            }
            int size = 8 << 20;
            byte[] body = TestData.bytes(3, size);
            try (RawClient put = new RawClient(port, AK, SK)) {
                String head = RawClient.signedHead("PUT", "/drain/in-flight", "", Map.of("content-length",
                        Integer.toString(size)), "UNSIGNED-PAYLOAD", "127.0.0.1:" + port, AK, SK, Instant.now());
                put.writeRaw((head + "\r\n").getBytes(StandardCharsets.UTF_8));
                put.writeRaw(Arrays.copyOfRange(body, 0, size / 2));
                await(() -> g.s3.metrics().inFlight().get() == 1, "the PUT is in flight");

                CompletableFuture<Void> shutdown = CompletableFuture.runAsync(g.s3::close);
                await(g.s3::isDraining, "draining");
                assertThat(g.admin("/health/ready").statusCode()).isEqualTo(503);
                assertThat(g.admin("/health/live").statusCode()).isEqualTo(200);
                await(() -> !accepts(port), "the S3 port refuses new connections");
                Thread.sleep(300);
                assertThat(shutdown).as("shutdown waits for the in-flight request").isNotDone();

                put.writeRaw(Arrays.copyOfRange(body, size / 2, size));
                RawClient.Response resp = put.read(false);
                assertThat(resp.status()).isEqualTo(200);
                assertThat(resp.header("etag")).isEqualTo("\"" + TestData.md5Hex(body) + "\"");
                assertThat(resp.header("connection")).isEqualTo("close");
                shutdown.get(30, TimeUnit.SECONDS);
                assertThat(put.closedByServer()).isTrue();
            }
            try (ObjectContent stored = g.engine.getObject("drain", "in-flight")) {
                assertThat(TestData.md5Hex(stored.stream())).isEqualTo(TestData.md5Hex(body));
            }
        }
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(10);
        }
    }
}
