package io.coffer.gateway.http;

import io.coffer.gateway.auth.Credential;
import io.coffer.gateway.auth.CredentialStore;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferBuilder;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * A gateway wired as {@code coffer serve} wires it: one Prometheus registry shared by the engine and the S3 metrics,
 * the S3 endpoint on a free port, and the admin endpoint with the same readiness check.
 */
final class RunningGateway implements AutoCloseable {
    static final Credential CREDENTIAL = new Credential("AKRUNNINGGATEWAY", "secret-for-running-gateway", "tenant");

    final PrometheusMeterRegistry prometheus;
    final Coffer engine;
    final S3Server s3;
    final AdminServer admin;

    private RunningGateway(PrometheusMeterRegistry prometheus, Coffer engine, S3Server s3, AdminServer admin) {
        this.prometheus = prometheus;
        this.engine = engine;
        this.s3 = s3;
        this.admin = admin;
    }

    /** A gateway on the real engine in {@code dataDir}; {@code options} adjusts the defaults (TLS, limits). */
    static RunningGateway start(Path dataDir, UnaryOperator<S3ServerOptions> options) throws InterruptedException {
        return start(dataDir, options, UnaryOperator.identity());
    }

    /** As {@link #start(Path, UnaryOperator)}, with {@code engine} adjusting the engine's defaults (budgets). */
    static RunningGateway start(Path dataDir, UnaryOperator<S3ServerOptions> options,
                                UnaryOperator<CofferBuilder> engineOptions) throws InterruptedException {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Coffer engine = engineOptions.apply(Coffer.builder().directory(dataDir).meterRegistry(prometheus)).build();
        S3ServerOptions o = options.apply(S3ServerOptions.defaults("127.0.0.1", 0,
                new CredentialStore(List.of(CREDENTIAL))));
        S3Server s3 = new S3Server(engine, o, new GatewayMetrics(prometheus), new AccessLog(AccessLog.Format.TEXT))
                .start();
        AdminServer admin = new AdminServer("127.0.0.1", 0, prometheus, AdminServer.readiness(s3, engine)).start();
        return new RunningGateway(prometheus, engine, s3, admin);
    }

    int port() {
        return s3.address().getPort();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + port());
    }

    S3ClientBuilder clientBuilder() {
        return S3Client.builder().endpointOverride(endpoint()).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        CREDENTIAL.accessKeyId(), CREDENTIAL.secretKey())));
    }

    /** GET on the admin endpoint. */
    HttpResponse<String> admin(String path) throws IOException, InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + admin.address().getPort() + path);
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() {
        s3.close();
        admin.close();
        engine.close();
    }
}
