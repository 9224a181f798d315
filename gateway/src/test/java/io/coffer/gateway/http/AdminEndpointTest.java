package io.coffer.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/** The admin endpoint: liveness, readiness, and Prometheus metrics from the S3 front end and the engine. */
class AdminEndpointTest {
    @TempDir
    Path dir;

    @Test
    void healthAnswersAndMetricsCountRequestsByOperationAndStatus() throws Exception {
        try (RunningGateway g = RunningGateway.start(dir, o -> o); S3Client s3 = g.clientBuilder().build()) {
            HttpResponse<String> live = g.admin("/health/live");
            assertThat(live.statusCode()).isEqualTo(200);
            assertThat(live.body()).isEqualTo("ok\n");
            HttpResponse<String> ready = g.admin("/health/ready");
            assertThat(ready.statusCode()).isEqualTo(200);
            assertThat(ready.body()).isEqualTo("ready\n");
            assertThat(g.admin("/nothing-here").statusCode()).isEqualTo(404);

            s3.createBucket(b -> b.bucket("metered"));
            s3.putObject(r -> r.bucket("metered").key("a"), RequestBody.fromString("first"));
            s3.putObject(r -> r.bucket("metered").key("b"), RequestBody.fromString("second"));
            s3.getObjectAsBytes(r -> r.bucket("metered").key("a"));
            assertThatThrownBy(() -> s3.getObject(r -> r.bucket("metered").key("missing")))
                    .isInstanceOf(NoSuchKeyException.class);

            HttpResponse<String> metrics = g.admin("/metrics");
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.headers().firstValue("content-type")).hasValueSatisfying(t ->
                    assertThat(t).startsWith("text/plain"));
            assertThat(metrics.body())
                    .contains("coffer_s3_requests_total{operation=\"CreateBucket\",status=\"200\"} 1.0")
                    .contains("coffer_s3_requests_total{operation=\"PutObject\",status=\"200\"} 2.0")
                    .contains("coffer_s3_requests_total{operation=\"GetObject\",status=\"200\"} 1.0")
                    .contains("coffer_s3_requests_total{operation=\"GetObject\",status=\"404\"} 1.0")
                    .contains("coffer_s3_request_duration_seconds_bucket{operation=\"PutObject\"")
                    .contains("coffer_s3_request_body_bytes_total{operation=\"PutObject\"}")
                    .contains("coffer_s3_requests_inflight")
                    .as("the engine's meters share the registry").contains("coffer_keysource_fallbacks_total 0.0");
        }
    }
}
