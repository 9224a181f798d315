package io.coffer.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.coffer.gateway.config.CredentialsFile;
import io.coffer.sdk.Coffer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * docker/grafana-dashboard.json against a running {@code coffer serve}: the file is valid JSON, and every metric name
 * its queries use is in a scrape of the gateway's /metrics. The scrape's names follow Prometheus conventions (no unit
 * twice, as in {@code _bytes_..._bytes_total}), and the JSON access log names a failed request's S3 error code.
 */
class GrafanaDashboardTest {
    private static final Path DASHBOARD = Path.of(System.getProperty("user.dir"))
            .resolve("../docker/grafana-dashboard.json").normalize();
    private static final Pattern ENDPOINT = Pattern.compile("endpoint:\\s+http://127\\.0\\.0\\.1:(\\d+)");
    private static final Pattern METRIC = Pattern.compile("\\b(?:coffer|jvm|process|system)_[a-z0-9_]+\\b");
    private static final Pattern UNIT_TWICE = Pattern.compile("_(bytes|seconds)_\\w*_\\1(?:_|$)");

    @TempDir
    Path dir;

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void everyMetricTheDashboardQueriesIsInAScrapeOfARunningGateway() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(Files.readString(DASHBOARD));
        Set<String> queried = new TreeSet<>();
        for (JsonNode expr : dashboard.findValues("expr")) {
            Matcher m = METRIC.matcher(expr.asText());
            while (m.find()) {
                queried.add(m.group());
            }
        }
        for (JsonNode definition : dashboard.findValues("definition")) {
            Matcher m = METRIC.matcher(definition.asText());
            while (m.find()) {
                queried.add(m.group());
            }
        }
        assertThat(queried).as("metrics the dashboard queries").hasSizeGreaterThan(20);

        Path data = dir.resolve("data");
        try (Coffer coffer = Coffer.builder().directory(data).build()) {
            coffer.createBucket("seeded", "ops"); // in the storage gauges' first refresh, at start
        }
        int adminPort = freePort();
        try (CofferProcess serve = CofferProcess.start(dir, Map.of(), "serve", "--data", data.toString(), "--port",
                "0", "--admin-port", String.valueOf(adminPort), "--admin-bind", "127.0.0.1", "--log-format",
                "json")) {
            Matcher m = ENDPOINT.matcher(serve.awaitOut(l -> ENDPOINT.matcher(l).find(), Duration.ofSeconds(60)));
            assertThat(m.find()).isTrue();
            Properties creds = new Properties();
            try (var reader = Files.newBufferedReader(data.resolve(CredentialsFile.FILE_NAME))) {
                creds.load(reader);
            }
            try (S3Client s3 = S3Client.builder().endpointOverride(URI.create("http://127.0.0.1:" + m.group(1)))
                    .region(Region.US_EAST_1).forcePathStyle(true).credentialsProvider(StaticCredentialsProvider
                            .create(AwsBasicCredentials.create(creds.getProperty("access-key"),
                                    creds.getProperty("secret-key")))).build()) {
                s3.createBucket(b -> b.bucket("dash"));
                s3.putObject(r -> r.bucket("dash").key("a"), RequestBody.fromBytes(new byte[200_000]));
                s3.getObjectAsBytes(r -> r.bucket("dash").key("a"));
                try {
                    s3.getObject(r -> r.bucket("dash").key("missing"));
                } catch (NoSuchKeyException expected) {
                    // counted as a 404 and logged with its error code
                }
            }
            String access = serve.awaitOut(l -> l.contains("\"status\":404"), Duration.ofSeconds(10));
            assertThat(new ObjectMapper().readTree(access).get("error_code").asText()).isEqualTo("NoSuchKey");

            Set<String> scraped = scrapeOnceStorageGaugesAreIn(adminPort);
            assertThat(scraped).as("every metric the dashboard queries").containsAll(queried);
            assertThat(scraped).as("no unit twice in a name").noneMatch(n -> UNIT_TWICE.matcher(n).find());
        }
    }

    /** The sample names of /metrics, once the storage gauges (computed on a timer after start) have their rows. */
    private static Set<String> scrapeOnceStorageGaugesAreIn(int adminPort) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort
                    + "/metrics")).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            Set<String> names = new TreeSet<>();
            for (String line : r.body().split("\n")) {
                if (!line.isEmpty() && !line.startsWith("#")) {
                    names.add(line.split("[{ ]", 2)[0]);
                }
            }
            if (names.contains("coffer_bucket_stored_bytes") || System.nanoTime() > deadline) {
                return names;
            }
            Thread.sleep(200);
        }
    }
}
