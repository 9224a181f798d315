package io.coffer.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /admin/gc}: one collection now, answered with its report as JSON and counted in the metrics; 409 while
 * another gateway holds the gc lease; 404 on an admin server that was not given an engine.
 */
class GcAdminEndpointTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    private static HttpResponse<String> call(AdminServer admin, String method, String path) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + admin.address().getPort()
                + path));
        b = method.equals("POST") ? b.POST(HttpRequest.BodyPublishers.noBody()) : b.GET();
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aPostCollectsAndAnswersTheReportAndAnotherHoldersLeaseIsAConflict() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        JdbcMetadataStore meta = JdbcMetadataStore.sqlite(dir.resolve("meta.db"));
        try (Coffer coffer = Coffer.builder().blobStore(new DirectoryBlobStore(dir.resolve("blobs")))
                .metadataStore(meta).masterKey(MasterKey.random()).gcGrace(Duration.ZERO).meterRegistry(registry)
                .build();
             AdminServer admin = new AdminServer("127.0.0.1", 0, registry, () -> true).withGc(coffer).start()) {
            coffer.createBucket("bkt", "t");
            byte[] data = new byte[100_000];
            new Random(1).nextBytes(data);
            coffer.putObject(PutObjectRequest.of("bkt", "k", data.length), new ByteArrayInputStream(data));
            coffer.deleteObject("bkt", "k");
            assertThat(call(admin, "GET", "/admin/gc").statusCode()).isEqualTo(405);

            Thread.sleep(5);
            HttpResponse<String> first = call(admin, "POST", "/admin/gc");
            Thread.sleep(5);
            HttpResponse<String> second = call(admin, "POST", "/admin/gc");

            assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
            assertThat(first.headers().firstValue("content-type")).hasValue("application/json");
            assertThat(new ObjectMapper().readTree(first.body()).path("packsRetired").asInt()).isEqualTo(1);
            JsonNode report = new ObjectMapper().readTree(second.body());
            assertThat(report.path("bytesFreed").asLong()).isPositive();
            assertThat(registry.scrape()).contains("coffer_gc_runs_total 2.0")
                    .contains("coffer_gc_freed_bytes_total " + (double) report.path("bytesFreed").asLong());

            Instant now = Instant.now();
            meta.acquireLease("gc", "gateway-b", now, now.plusSeconds(60));
            HttpResponse<String> busy = call(admin, "POST", "/admin/gc");
            assertThat(busy.statusCode()).isEqualTo(409);
            assertThat(busy.body()).contains("gateway-b").contains("nothing was done");
            assertThat(registry.scrape()).contains("coffer_gc_lease_busy_total 1.0");
        }
    }

    @Test
    void withoutAnEngineTheEndpointIsNotFound() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (AdminServer admin = new AdminServer("127.0.0.1", 0, registry, () -> true).start()) {
            assertThat(call(admin, "POST", "/admin/gc").statusCode()).isEqualTo(404);
        }
    }
}
