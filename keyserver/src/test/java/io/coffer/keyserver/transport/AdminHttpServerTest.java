package io.coffer.keyserver.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.keyserver.KeyServerFixture;
import io.coffer.keyserver.client.KeyServerClient;
import io.coffer.keyserver.pki.KeyServerDirectory;
import io.coffer.keyserver.server.KeyServer;
import io.coffer.keyserver.server.KeyServerInit;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The key server's plain-HTTP admin port: health for probes and its meters for Prometheus, no certificate needed. */
class AdminHttpServerTest {
    @TempDir
    Path tmp;

    private static HttpResponse<String> get(AdminHttpServer admin, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + admin.port()
                + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void healthFollowsTheServerAndMetricsCountItsQueries() throws Exception {
        KeyServerDirectory dir = KeyServerFixture.init(tmp.resolve("ks"), KeyServerInit.OprfAlgorithm.P256, "gw");
        KeyServer server = KeyServerFixture.start(dir, "none");
        boolean stopped = false;
        try (AdminHttpServer admin = AdminHttpServer.start("127.0.0.1", 0, server.metrics().registry(),
                server::isRunning)) {
            try (KeyServerClient c = KeyServerFixture.client(dir, server, "gw", KeyServerClient.Transport.V2)
                    .build()) {
                c.evaluate("chunk".getBytes(StandardCharsets.UTF_8));
            }
            assertThat(get(admin, "/health/live").statusCode()).isEqualTo(200);
            HttpResponse<String> ready = get(admin, "/health/ready");
            assertThat(ready.statusCode()).isEqualTo(200);
            assertThat(ready.body()).isEqualTo("ready\n");
            HttpResponse<String> metrics = get(admin, "/metrics");
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.headers().firstValue("content-type")).hasValue(PrometheusText.CONTENT_TYPE);
            assertThat(metrics.body()).contains("keyserver_queries_total{transport=\"v2\"} 1")
                    .contains("keyserver_batch_size_count 1");
            assertThat(get(admin, "/other").statusCode()).isEqualTo(404);

            server.stop();
            stopped = true;
            assertThat(get(admin, "/health/ready").statusCode()).isEqualTo(503);
            assertThat(get(admin, "/health/live").statusCode()).isEqualTo(200);
        } finally {
            if (!stopped) {
                server.stop();
            }
        }
    }
}
