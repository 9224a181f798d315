package io.coffer.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.auth.Credential;
import io.coffer.gateway.auth.CredentialStore;
import io.coffer.gateway.http.AccessLog;
import io.coffer.gateway.http.AdminServer;
import io.coffer.gateway.http.GatewayMetrics;
import io.coffer.gateway.http.S3Server;
import io.coffer.gateway.http.S3ServerOptions;
import io.coffer.keyserver.pki.KeyServerDirectory;
import io.coffer.keyserver.server.KeyServer;
import io.coffer.keyserver.server.KeyServerInit;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.testing.TestData;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramSocket;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The gateway configured for a remote key server ({@code keyserver = HOST:PORT}, {@code keyserver-dir}), wired as
 * {@code coffer serve} wires it: when the key server dies mid-upload, PUTs through the gateway still succeed, the
 * engine's {@code coffer.keysource.fallbacks} counter on /metrics counts the chunks that got random keys, and dedup
 * resumes once the key server is back.
 */
class RemoteKeyServerTest {
    private static final Credential USER = new Credential("AKKEYSERVERTEST", "keyserver-test-secret", "tenant");
    private static final int SIZE = 24 << 20;

    @TempDir
    Path dir;

    @Test
    void keyServerOutageCostsDedupNotWritesAndIsCountedOnMetrics() throws Exception {
        KeyServerDirectory ks = KeyServerInit.create(dir.resolve("ks"), new KeyServerInit.Options()
                .algorithm(KeyServerInit.OprfAlgorithm.P256).client("gateway"));
        int https;
        int udp;
        try (ServerSocket s = new ServerSocket(0); DatagramSocket d = new DatagramSocket(0)) {
            https = s.getLocalPort();
            udp = d.getLocalPort();
        }
        KeyServer[] keyServer = {startKeyServer(ks, https, udp)};
        GatewayConfig config = GatewayConfig.load(null, Map.of(), Map.of(ConfigKey.DATA, dir.resolve("data")
                .toString(), ConfigKey.KEYSERVER, "localhost:" + https, ConfigKey.KEYSERVER_DIR, ks.root().toString(),
                ConfigKey.KEYSERVER_TIMEOUT_MS, "2000", ConfigKey.KEYSERVER_PAUSE_MS, "200"));
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (Coffer engine = EngineOpener.open(config, prometheus);
             S3Server s3 = new S3Server(engine, S3ServerOptions.defaults("127.0.0.1", 0,
                     new CredentialStore(List.of(USER))), new GatewayMetrics(prometheus),
                     new AccessLog(AccessLog.Format.TEXT)).start();
             AdminServer admin = new AdminServer("127.0.0.1", 0, prometheus, AdminServer.readiness(s3, engine))
                     .start();
             S3Client client = S3Client.builder().endpointOverride(URI.create("http://127.0.0.1:"
                             + s3.address().getPort())).region(Region.US_EAST_1).forcePathStyle(true)
                     .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                             USER.accessKeyId(), USER.secretKey()))).build()) {
            Metrics metrics = new Metrics(admin);
            client.createBucket(b -> b.bucket("keyed"));

            put(client, "first", TestData.stream(1, SIZE));
            double stored = metrics.value("coffer_stored_bytes_total");
            put(client, "again", TestData.stream(1, SIZE));
            assertThat(metrics.value("coffer_stored_bytes_total") - stored).as("dedup through the key server")
                    .isLessThan(SIZE / 100.0);
            assertThat(metrics.value("coffer_keysource_fallbacks_total")).isZero();

            InputStream killsKeyServerHalfway = new FilterInputStream(TestData.stream(2, SIZE)) {
                private long read;

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    if (read >= SIZE / 2 && keyServer[0] != null) {
                        keyServer[0].close();
                        keyServer[0] = null;
                    }
                    int n = super.read(b, off, len);
                    read += Math.max(0, n);
                    return n;
                }
            };
            String etag = put(client, "during-outage", killsKeyServerHalfway);
            assertThat(etag).isEqualTo("\"" + TestData.md5Hex(TestData.stream(2, SIZE)) + "\"");
            double fallbacks = metrics.value("coffer_keysource_fallbacks_total");
            assertThat(fallbacks).as("chunks keyed at random while the key server was down").isPositive();
            assertThat(TestData.md5Hex(client.getObject(r -> r.bucket("keyed").key("during-outage"))))
                    .isEqualTo(TestData.md5Hex(TestData.stream(2, SIZE)));

            keyServer[0] = startKeyServer(ks, https, udp);
            Thread.sleep(300); // past the engine's pause after the failure
            put(client, "after-restart", TestData.stream(3, SIZE));
            stored = metrics.value("coffer_stored_bytes_total");
            put(client, "after-restart-again", TestData.stream(3, SIZE));
            assertThat(metrics.value("coffer_stored_bytes_total") - stored).as("dedup resumes")
                    .isLessThan(SIZE / 100.0);
            assertThat(metrics.value("coffer_keysource_fallbacks_total")).as("the key server answers again")
                    .isEqualTo(fallbacks);
        } finally {
            if (keyServer[0] != null) {
                keyServer[0].close();
            }
        }
    }

    private static String put(S3Client client, String key, InputStream body) {
        return client.putObject(r -> r.bucket("keyed").key(key),
                RequestBody.fromContentProvider(() -> body, SIZE, "application/octet-stream")).eTag();
    }

    private static KeyServer startKeyServer(KeyServerDirectory ks, int https, int udp) throws Exception {
        return KeyServer.builder().directory(ks.root()).httpsPort(https).udpPort(udp).rateLimit("none")
                .workerThreads(2).start();
    }

    /** Reads single-valued series from the admin endpoint's /metrics. */
    private record Metrics(AdminServer admin) {
        double value(String series) throws IOException, InterruptedException {
            String text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + admin.address().getPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
            Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(text);
            if (!m.find()) {
                throw new AssertionError(series + " not on /metrics");
            }
            return Double.parseDouble(m.group(1));
        }
    }
}
