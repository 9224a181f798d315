package io.coffer.gateway.testing;

import io.coffer.gateway.auth.Credential;
import io.coffer.gateway.auth.CredentialStore;
import io.coffer.gateway.http.AccessLog;
import io.coffer.gateway.http.GatewayMetrics;
import io.coffer.gateway.http.S3Server;
import io.coffer.gateway.http.S3ServerOptions;
import io.coffer.gateway.s3.sse.KmsKeySource;
import io.coffer.gateway.s3.sse.KmsKeyring;
import io.coffer.sdk.Coffer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Runs an in-process Coffer gateway for a test class: a temporary data directory, an engine over it, the S3 endpoint
 * on a free loopback port and random credentials. Register it as a static field:
 *
 * <pre>
 * &#64;RegisterExtension
 * static CofferGatewayExtension coffer = CofferGatewayExtension.withEngine(dataDir -&gt; myEngine(dataDir));
 *
 * &#64;Test void stores(S3Client s3) { s3.createBucket(b -&gt; b.bucket("b")); ... }
 * </pre>
 *
 * <p>Test methods may declare an {@link S3Client} parameter (path-style, us-east-1, the extension's credentials).
 * Everything is torn down after the class: the server drains, the engine closes, the directory is deleted.
 */
public final class CofferGatewayExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {
    private final Function<Path, Coffer> engineFactory;
    private final List<Credential> extraCredentials = new ArrayList<>();
    private final Credential credential;
    private String baseDomain;
    private boolean acceptSigV2 = true;
    private Set<String> publicAccessTenants = Set.of();
    private boolean sseCustomerOverHttp;
    private Path dataDir;
    private Coffer engine;
    private KmsKeySource kmsKeys = KmsKeyring.NONE;
    private S3Server server;
    private S3Client client;

    private CofferGatewayExtension(Function<Path, Coffer> engineFactory) {
        this.engineFactory = Objects.requireNonNull(engineFactory, "engineFactory");
        this.credential = new Credential("AK" + random(9).toUpperCase(Locale.ROOT), random(20), "tenant");
    }

    /** A gateway over the engine {@code engineFactory} opens on the temporary data directory. */
    public static CofferGatewayExtension withEngine(Function<Path, Coffer> engineFactory) {
        return new CofferGatewayExtension(engineFactory);
    }

    /** Accepts another access key (another tenant, for isolation tests). */
    public CofferGatewayExtension withCredential(Credential extra) {
        extraCredentials.add(extra);
        return this;
    }

    /** Enables virtual-hosted-style addressing under {@code domain} (for example {@code s3.localhost}). */
    public CofferGatewayExtension withBaseDomain(String domain) {
        this.baseDomain = domain;
        return this;
    }

    /** Turns the account-level Block Public Access off for these tenants ({@code *}: all); on for all by default. */
    public CofferGatewayExtension withPublicAccessTenants(String... tenants) {
        this.publicAccessTenants = Set.of(tenants);
        return this;
    }

    /** Accept SSE-C requests over this gateway's plain http (S3 refuses them without TLS). */
    public CofferGatewayExtension withSseCustomerOverHttp(boolean accept) {
        this.sseCustomerOverHttp = accept;
        return this;
    }

    /** Serves SSE-KMS from {@code keyring}, a keyring or a KMS (none by default: SSE-KMS requests are refused). */
    public CofferGatewayExtension withKmsKeys(KmsKeySource keyring) {
        this.kmsKeys = keyring;
        return this;
    }

    /** Refuses (false) or accepts (the default) AWS Signature Version 2. */

    public CofferGatewayExtension withSigV2(boolean accept) {
        this.acceptSigV2 = accept;
        return this;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        dataDir = Files.createTempDirectory("coffer-gateway-test");
        engine = engineFactory.apply(dataDir);
        List<Credential> all = new ArrayList<>(extraCredentials);
        all.add(credential);
        S3ServerOptions options = S3ServerOptions.defaults("127.0.0.1", 0, new CredentialStore(all))
                .withBaseDomain(baseDomain).withSigV2(acceptSigV2).withPublicAccessTenants(publicAccessTenants)
                .withSseCustomerOverHttp(sseCustomerOverHttp).withKmsKeys(kmsKeys);
        server = new S3Server(engine, options, new GatewayMetrics(new SimpleMeterRegistry()),
                new AccessLog(AccessLog.Format.TEXT)).start();
        client = newClient(credential.accessKeyId(), credential.secretKey());
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
        if (engine != null) {
            engine.close();
        }
        kmsKeys.close();
        if (dataDir != null) {
            try (Stream<Path> files = Files.walk(dataDir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> {
                    try {
                        Files.deleteIfExists(p);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
        }
    }

    /** The endpoint, for example {@code http://127.0.0.1:41234}. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.address().getPort());
    }

    public int port() {
        return server.address().getPort();
    }

    public String accessKeyId() {
        return credential.accessKeyId();
    }

    public String secretKey() {
        return credential.secretKey();
    }

    /** The engine behind the gateway. */
    public Coffer engine() {
        return engine;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** A client for the extension's credentials (closed with the extension). */
    public S3Client client() {
        return client;
    }

    /** A new client for other credentials; the caller closes it. */
    public S3Client newClient(String accessKeyId, String secretKey) {
        return S3Client.builder()
                .endpointOverride(endpoint())
                .region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKeyId,
                        secretKey)))
                .build();
    }

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
        return p.getParameter().getType() == S3Client.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext e) {
        return client;
    }

    private static String random(int bytes) {
        byte[] b = new byte[bytes];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
