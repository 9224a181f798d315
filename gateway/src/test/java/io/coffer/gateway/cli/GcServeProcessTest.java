package io.coffer.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code coffer serve} collects garbage on its schedule and on {@code POST /admin/gc}, counting passes in /metrics. */
class GcServeProcessTest {
    private static final Duration START = Duration.ofSeconds(60);
    private static final Pattern RUNS = Pattern.compile("coffer_gc_runs_total (\\d+)\\.0");
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void serveCollectsOnItsScheduleAndOnTheAdminEndpoint() throws Exception {
        int adminPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            adminPort = s.getLocalPort();
        }
        String admin = "http://127.0.0.1:" + adminPort;
        try (CofferProcess serve = CofferProcess.start(dir, Map.of(), "serve", "--data", dir.resolve("data").toString(),
                "--port", "0", "--admin-port", String.valueOf(adminPort), "--gc-interval", "1s", "--gc-grace", "10m")) {
            serve.awaitOut(l -> l.contains("endpoint:"), START);
            long deadline = System.nanoTime() + START.toNanos();
            int scheduled = 0;
            while (scheduled < 1 && System.nanoTime() < deadline) {
                Thread.sleep(200);
                scheduled = runs(admin);
            }
            assertThat(scheduled).as("passes run by the schedule").isPositive();

            HttpResponse<String> now = HTTP.send(HttpRequest.newBuilder(URI.create(admin + "/admin/gc"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(now.statusCode()).as(now.body()).isEqualTo(200);
            assertThat(new ObjectMapper().readTree(now.body()).has("bytesFreed")).isTrue();
        }
    }

    private static int runs(String admin) throws Exception {
        String metrics = HTTP.send(HttpRequest.newBuilder(URI.create(admin + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = RUNS.matcher(metrics);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }
}
