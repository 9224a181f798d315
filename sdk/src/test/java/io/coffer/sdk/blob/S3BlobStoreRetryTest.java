package io.coffer.sdk.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.coffer.sdk.testing.S3ServerFixture;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Checks that {@link S3BlobStore} retries throttling and server errors, against a loopback stub that counts calls. */
class S3BlobStoreRetryTest {

    private static final String BUCKET = "stub-bucket";
    private static final String SLOW_DOWN = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code>"
            + "<Message>Please reduce your request rate.</Message></Error>";
    private static final String INTERNAL_ERROR = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error>"
            + "<Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>";
    private static final byte[] BODY = "hello".getBytes(StandardCharsets.US_ASCII);

    private final AtomicInteger requests = new AtomicInteger();
    private volatile int failuresBeforeSuccess;
    private volatile int failureStatus;
    private volatile String failureBody;
    private HttpServer server;

    @BeforeEach
    void startStub() throws IOException {
        S3ServerFixture.quietClientLogging();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::answer);
        server.start();
    }

    @AfterEach
    void stopStub() {
        server.stop(0);
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            if (requests.incrementAndGet() <= failuresBeforeSuccess) {
                byte[] error = failureBody.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/xml");
                exchange.sendResponseHeaders(failureStatus, error.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(error);
                }
                return;
            }
            exchange.getResponseHeaders().add("Content-Type", "application/octet-stream");
            exchange.getResponseHeaders().add("Last-Modified", "Wed, 01 Jan 2025 00:00:00 GMT");
            exchange.sendResponseHeaders(200, BODY.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(BODY);
            }
        }
    }

    private S3BlobStore storeWithAttempts(int attempts) {
        return S3BlobStore.builder()
                .endpoint(URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
                .bucket(BUCKET)
                .pathStyleAccess(true)
                .credentials("stub-access", "stub-secret")
                .maxAttempts(attempts)
                .retryBackoff(Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(50))
                .build();
    }

    @Test
    void slowDownIsRetriedUntilItSucceeds() throws IOException {
        failuresBeforeSuccess = 2;
        failureStatus = 503;
        failureBody = SLOW_DOWN;
        try (S3BlobStore store = storeWithAttempts(5)) {
            assertThat(store.read("p/x", 0, BODY.length)).isEqualTo(BODY);
        }
        assertThat(requests.get()).isEqualTo(3);
    }

    @Test
    void serverErrorsAreRetriedUpToMaxAttempts() throws IOException {
        failuresBeforeSuccess = Integer.MAX_VALUE;
        failureStatus = 500;
        failureBody = INTERNAL_ERROR;
        try (S3BlobStore store = storeWithAttempts(3)) {
            assertThatThrownBy(() -> store.get("p/x", 0, -1))
                    .isInstanceOf(IOException.class).hasMessageContaining("Status Code: 500");
        }
        assertThat(requests.get()).isEqualTo(3);
    }
}
