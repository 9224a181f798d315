package io.coffer.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.coffer.gateway.config.EngineOpener;
import io.coffer.gateway.config.OpenStore;
import io.coffer.gateway.por.EmbeddedPorStore;
import io.coffer.gateway.por.PorService;
import io.coffer.gateway.por.ServerFiles;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin port's PoR endpoints: {@code POST /admin/por/audit}, {@code /repair} and {@code /consolidate} answer
 * their report as JSON (or text) with the verdict in a header and leave their metrics; with PoR off they are 404 with a clear message.
 */
class PorAdminEndpointTest {
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
    void withPorOffTheEndpointsAreNotFoundAndSaySo() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (AdminServer admin = new AdminServer("127.0.0.1", 0, registry, () -> true).start()) {
            for (String op : new String[] {"audit", "repair"}) {
                HttpResponse<String> r = call(admin, "POST", "/admin/por/" + op);
                assertThat(r.statusCode()).isEqualTo(404);
                assertThat(r.body()).contains("PoR is not enabled").contains("--por embedded");
            }
            assertThat(registry.scrape()).doesNotContain("coffer_por_");
        }
    }

    @Test
    void auditAndRepairAnswerTheirReportsAndLeaveTheirMetrics() throws Exception {
        Path data = dir.resolve("data");
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (OpenStore s = EngineOpener.openStore(EmbeddedPorStore.config(data, Map.of()), registry)) {
            EmbeddedPorStore.fill(s.coffer(), 3);
            PorService service = new PorService(s.por().orElseThrow(), registry, Clock.systemUTC());
            try (AdminServer admin = new AdminServer("127.0.0.1", 0, registry, () -> true, service).start()) {
                assertThat(registry.scrape()).contains("coffer_por_last_audit_passed NaN")
                        .contains("coffer_por_blocks_capacity 1024.0");
                HttpResponse<String> get = call(admin, "GET", "/admin/por/audit");
                assertThat(get.statusCode()).isEqualTo(405);
                assertThat(call(admin, "POST", "/admin/por/other").statusCode()).isEqualTo(404);

                HttpResponse<String> audit = call(admin, "POST", "/admin/por/audit");
                assertThat(audit.statusCode()).isEqualTo(200);
                assertThat(audit.headers().firstValue("content-type")).hasValue("application/json");
                assertThat(audit.headers().firstValue(AdminServer.VERDICT_HEADER)).hasValue("passed");
                JsonNode a = new ObjectMapper().readTree(audit.body());
                assertThat(a.path("passed").asBoolean()).isTrue();
                assertThat(a.path("levelsChecked").asInt()).isPositive();

                HttpResponse<String> text = call(admin, "POST", "/admin/por/audit?format=text");
                assertThat(text.body()).contains("levels checked").endsWith("passed" + System.lineSeparator());

                HttpResponse<String> repair = call(admin, "POST", "/admin/por/repair");
                assertThat(repair.headers().firstValue(AdminServer.VERDICT_HEADER)).hasValue("repaired");

                HttpResponse<String> consolidate = call(admin, "POST", "/admin/por/consolidate"); // at its floor
                assertThat(consolidate.statusCode()).isEqualTo(200);
                assertThat(consolidate.headers().firstValue(AdminServer.VERDICT_HEADER)).hasValue("unchanged");
                assertThat(new ObjectMapper().readTree(consolidate.body()).path("capacity").asInt()).isEqualTo(1024);
                assertThat(registry.scrape()).contains("coffer_por_shrinks_total 0.0")
                        .contains("coffer_por_moved_blocks_total 0.0");
                assertThat(new ObjectMapper().readTree(repair.body()).path("blocksDamaged").asLong()).isZero();

                String metrics = registry.scrape();
                assertThat(metrics).contains("coffer_por_audits_total{result=\"passed\"} 2.0")
                        .contains("coffer_por_audits_total{result=\"failed\"} 0.0")
                        .contains("coffer_por_last_audit_passed 1.0")
                        .contains("coffer_por_repaired_blocks_total 0.0")
                        .contains("coffer_por_blocks_used " + a.path("blocksUsed").asInt() + ".0")
                        .containsPattern("coffer_por_last_audit_timestamp_seconds \\d\\.\\d+E9");

                ServerFiles.destroyCode(data, 9);
                HttpResponse<String> failed = call(admin, "POST", "/admin/por/audit");
                assertThat(failed.statusCode()).isEqualTo(200);
                assertThat(failed.headers().firstValue(AdminServer.VERDICT_HEADER)).hasValue("failed");
                assertThat(registry.scrape()).contains("coffer_por_audits_total{result=\"failed\"} 1.0")
                        .contains("coffer_por_last_audit_passed 0.0");
                assertThat(call(admin, "GET", "/health/live").statusCode()).isEqualTo(200);
            }
        }
    }
}
