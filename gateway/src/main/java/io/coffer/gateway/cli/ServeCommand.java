package io.coffer.gateway.cli;

import io.coffer.gateway.auth.Credential;
import io.coffer.gateway.auth.CredentialStore;
import io.coffer.gateway.config.ConfigKey;
import io.coffer.gateway.config.CredentialsFile;
import io.coffer.gateway.config.EngineOpener;
import io.coffer.gateway.config.GatewayConfig;
import io.coffer.gateway.config.OpenStore;
import io.coffer.gateway.config.PorSettings;
import io.coffer.gateway.http.AccessLog;
import io.coffer.gateway.http.AdminServer;
import io.coffer.gateway.http.GatewayMetrics;
import io.coffer.gateway.http.ProcessMetrics;
import io.coffer.gateway.http.StorageMetrics;
import io.coffer.gateway.http.S3Server;
import io.coffer.gateway.http.S3ServerOptions;
import io.coffer.gateway.maintenance.GcSchedule;
import io.coffer.gateway.maintenance.LifecycleSweep;
import io.coffer.gateway.maintenance.MultipartExpiry;
import io.coffer.gateway.por.PorAuditSchedule;
import io.coffer.gateway.por.PorService;
import io.coffer.gateway.s3.sse.KmsKeySource;
import io.coffer.gateway.s3.sse.KmsKeySources;
import io.coffer.keyserver.pki.SecretFile;
import io.coffer.sdk.Coffer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.Console;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code coffer serve}: opens the engine, starts the S3 endpoint and the admin endpoint, and runs until SIGTERM or
 * SIGINT, then shuts down gracefully (ready turns 503, in-flight requests finish, connections close, engine closes).
 */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Start the S3 gateway.")
final class ServeCommand implements Callable<Integer> {
    /** How often the per-bucket storage gauges are recomputed (each time a few aggregates over all metadata). */
    static final Duration STORAGE_METRICS_PERIOD = Duration.ofMinutes(5);

    @Mixin
    ConfigOptions config;

    @Option(names = "--init", description = "Make a new store even where the backend or metadata store holds other"
            + " data (without it, a new store is made only on an empty backend and metadata store).")
    boolean init;

    @Option(names = "--port", description = "S3 port (default 9000).")
    Integer port;

    @Option(names = "--bind", description = "Address to listen on (default 127.0.0.1).")
    String bind;

    @Option(names = "--admin-port", description = "Health and metrics port (default 9001).")
    Integer adminPort;

    @Option(names = "--admin-bind", paramLabel = "ADDRESS",
            description = "Address the admin port listens on (default: the --bind address), e.g. 127.0.0.1 to keep"
                    + " /metrics off a public interface.")
    String adminBind;

    @Option(names = "--base-domain", paramLabel = "DOMAIN",
            description = "Enables virtual-hosted-style addressing: bucket.DOMAIN.")
    String baseDomain;

    @Option(names = "--tls-cert", paramLabel = "PEM", description = "TLS certificate chain (PEM).")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "PEM", description = "TLS private key (PKCS#8 PEM).")
    Path tlsKey;

    @Option(names = "--log-format", paramLabel = "text|json", description = "Access log format (default text).")
    String logFormat;

    @Option(names = "--dedup-min-size", paramLabel = "BYTES",
            description = "Chunks smaller than this never deduplicate (default 1024).")
    Integer dedupMinSize;

    @Option(names = "--dedup-exclude", paramLabel = "BUCKET[/PREFIX],...",
            description = "Objects that never deduplicate with others (random chunk keys).")
    String dedupExclude;

    @Option(names = "--compression", paramLabel = "true|false",
            description = "Compress chunks (zstd) before encrypting them, where it pays (default true).")
    String compression;

    @Option(names = "--compression-exclude", paramLabel = "BUCKET[/PREFIX],...",
            description = "Objects whose chunks are never compressed.")
    String compressionExclude;

    @Option(names = "--layer-mode", paramLabel = "BUCKET[=MODE],...",
            description = "Buckets that store gzip objects partially decoded (SimEnc layer mode); MODE high, basic:N "
                    + "or flexible.")
    String layerMode;

    @Option(names = "--por-audit-interval", paramLabel = "DURATION",
            description = "Time between PoR audits: 90s, 30m, 6h (default), 1d; 0: none.")
    String porAuditInterval;

    @Option(names = "--por-k", paramLabel = "K",
            description = "The embedded PoR server's initial capacity, 2^K blocks (default 10); its first start only:"
                    + " the store doubles when full, up to --por-max-k.")
    Integer porK;

    @Option(names = "--por-max-k", paramLabel = "K",
            description = "The largest capacity the embedded PoR server grows to, 2^K blocks (default and at most 20);"
                    + " a PUT beyond it fails with 507 XCofferStorageFull.")
    Integer porMaxK;

    @Option(names = "--por-block-size", paramLabel = "BYTES",
            description = "The embedded PoR server's block size (default 65536); its first start only.")
    Integer porBlockSize;

    @Option(names = "--por-batch", paramLabel = "B",
            description = "The embedded PoR server's write batching, 2^B blocks per H add (default 4); its first start"
                    + " only.")
    Integer porBatch;

    @Option(names = "--multipart-expiry", paramLabel = "DURATION",
            description = "Abort multipart uploads initiated longer ago than this: 36h, 7d (default); 0: never.")
    String multipartExpiry;

    @Option(names = "--gc-interval", paramLabel = "DURATION",
            description = "Collect garbage this often, one gateway of a store at a time: 30m, 1h (default), 6h; 0:"
                    + " never.")
    String gcInterval;

    @Option(names = "--lifecycle-interval", paramLabel = "DURATION",
            description = "Apply buckets' lifecycle rules this often, one gateway of a store at a time: 1h (default),"
                    + " 1d; 0: never.")
    String lifecycleInterval;

    @Option(names = "--lifecycle-rate", paramLabel = "PER_SECOND",
            description = "The most deletions and aborts a lifecycle sweep makes per second (default 100).")
    String lifecycleRate;

    @Option(names = "--gc-grace", paramLabel = "DURATION",
            description = "How long gc leaves unreferenced data alone: longer than the slowest upload (default 1h).")
    String gcGrace;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Map<ConfigKey, String> flags = new EnumMap<>(ConfigKey.class);
        ConfigOptions.put(flags, ConfigKey.PORT, port);
        ConfigOptions.put(flags, ConfigKey.BIND, bind);
        ConfigOptions.put(flags, ConfigKey.ADMIN_PORT, adminPort);
        ConfigOptions.put(flags, ConfigKey.ADMIN_BIND, adminBind);
        ConfigOptions.put(flags, ConfigKey.BASE_DOMAIN, baseDomain);
        ConfigOptions.put(flags, ConfigKey.TLS_CERT, tlsCert);
        ConfigOptions.put(flags, ConfigKey.TLS_KEY, tlsKey);
        ConfigOptions.put(flags, ConfigKey.LOG_FORMAT, logFormat);
        ConfigOptions.put(flags, ConfigKey.DEDUP_MIN_SIZE, dedupMinSize);
        ConfigOptions.put(flags, ConfigKey.DEDUP_EXCLUDE, dedupExclude);
        ConfigOptions.put(flags, ConfigKey.COMPRESSION, compression);
        ConfigOptions.put(flags, ConfigKey.COMPRESSION_EXCLUDE, compressionExclude);
        ConfigOptions.put(flags, ConfigKey.LAYER_MODE, layerMode);
        ConfigOptions.put(flags, ConfigKey.POR_AUDIT_INTERVAL, porAuditInterval);
        ConfigOptions.put(flags, ConfigKey.POR_K, porK);
        ConfigOptions.put(flags, ConfigKey.POR_MAX_K, porMaxK);
        ConfigOptions.put(flags, ConfigKey.POR_BLOCK_SIZE, porBlockSize);
        ConfigOptions.put(flags, ConfigKey.POR_BATCH, porBatch);
        ConfigOptions.put(flags, ConfigKey.MULTIPART_EXPIRY, multipartExpiry);
        ConfigOptions.put(flags, ConfigKey.GC_INTERVAL, gcInterval);
        ConfigOptions.put(flags, ConfigKey.GC_GRACE, gcGrace);
        ConfigOptions.put(flags, ConfigKey.LIFECYCLE_INTERVAL, lifecycleInterval);
        ConfigOptions.put(flags, ConfigKey.LIFECYCLE_RATE, lifecycleRate);
        GatewayConfig c = config.load(flags);
        // a keyring that does not read (or that group or others may read), or a keyring and a KMS at once, stops the
        // start, before anything is written
        KmsKeySource keyring = KmsKeySources.configured(c);

        CredentialsFile.Loaded creds = CredentialsFile.load(c);
        // before the engine opens: a refused key file leaves nothing to close
        SslContext ssl = null;
        if (c.get(ConfigKey.TLS_CERT) != null) {
            Path tlsKeyFile = Path.of(c.get(ConfigKey.TLS_KEY));
            SecretFile.checkPrivate(tlsKeyFile, "TLS private key file");
            ssl = SslContextBuilder.forServer(Path.of(c.get(ConfigKey.TLS_CERT)).toFile(), tlsKeyFile.toFile()).build();
        }

        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        ProcessMetrics process = new ProcessMetrics(prometheus);
        OpenStore store = EngineOpener.openStore(c, prometheus, init);
        Coffer coffer = store.coffer();
        PorService por = store.por().map(p -> new PorService(p, prometheus, Clock.systemUTC())).orElse(null);
        S3ServerOptions options = new S3ServerOptions(c.get(ConfigKey.BIND), c.intValue(ConfigKey.PORT),
                c.get(ConfigKey.BASE_DOMAIN), c.get(ConfigKey.REGION), ssl, new CredentialStore(creds.credentials()),
                c.intValue(ConfigKey.MAX_INITIAL_LINE_LENGTH), c.intValue(ConfigKey.MAX_HEADER_SIZE),
                Duration.ofSeconds(c.intValue(ConfigKey.IDLE_TIMEOUT_SECONDS)), c.intValue(ConfigKey.WORKER_THREADS),
                c.intValue(ConfigKey.BODY_BUFFER_BYTES), Duration.ofSeconds(c.intValue(ConfigKey.SHUTDOWN_GRACE_SECONDS)),
                Clock.systemUTC(), c.boolValue(ConfigKey.AUTH_SIGV2),
                publicAccessTenants(c.get(ConfigKey.PUBLIC_ACCESS_TENANTS)))
                .withSseCustomerOverHttp(c.boolValue(ConfigKey.SSE_C_OVER_HTTP)).withKmsKeys(keyring);
        AccessLog.Format format = c.get(ConfigKey.LOG_FORMAT).equals("json") ? AccessLog.Format.JSON
                : AccessLog.Format.TEXT;
        S3Server s3 = new S3Server(coffer, options, new GatewayMetrics(prometheus), new AccessLog(format)).start();
        AdminServer admin;
        try {
            admin = new AdminServer(c.adminBind(), c.intValue(ConfigKey.ADMIN_PORT), prometheus,
                    AdminServer.readiness(s3, coffer), por).withGc(coffer).start();
        } catch (RuntimeException e) {
            s3.close();
            coffer.close();
            throw e;
        }

        StorageMetrics storage = new StorageMetrics(prometheus, coffer::storageStats).start(STORAGE_METRICS_PERIOD);
        Duration auditInterval = c.porSettings().auditInterval();
        PorAuditSchedule audits = por == null || auditInterval.isZero() ? null
                : PorAuditSchedule.start(por, auditInterval);
        Duration expiry = c.multipartExpiry();
        MultipartExpiry expiries = expiry.isZero() ? null
                : new MultipartExpiry(coffer, expiry, prometheus, Clock.systemUTC()).start();
        Duration gcInterval = c.gcInterval();
        GcSchedule collections = gcInterval.isZero() ? null : new GcSchedule(coffer, gcInterval,
                por == null ? () -> { } : por::consolidateAfterGc).start();
        Duration lifecycleInterval = c.lifecycleInterval();
        LifecycleSweep lifecycle = lifecycleInterval.isZero() ? null : new LifecycleSweep(coffer, lifecycleInterval,
                c.lifecycleRate(), prometheus, Clock.systemUTC()).start();
        banner(spec.commandLine().getOut(), ssl != null, c, s3.address().getPort(), creds, interactiveTerminal());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            s3.close();
            admin.close();
            storage.close();
            process.close();
            if (audits != null) {
                audits.close();
            }
            if (expiries != null) {
                expiries.close();
            }
            if (collections != null) {
                collections.close();
            }
            if (lifecycle != null) {
                lifecycle.close();
            }
            coffer.close();
            keyring.close();
            stopped.countDown();
        }, "coffer-shutdown"));
        stopped.await();
        return 0;
    }

    /**
     * Prints where the gateway listens. A secret created now is shown only to an interactive terminal: where output goes
     * to a log (a service manager, a container), the banner names the credentials file instead.
     */
    static void banner(PrintWriter out, boolean tls, GatewayConfig c, int port, CredentialsFile.Loaded creds,
                       boolean terminal) {
        String host = c.get(ConfigKey.BIND).equals("0.0.0.0") ? "127.0.0.1" : c.get(ConfigKey.BIND);
        String endpoint = (tls ? "https" : "http") + "://" + host + ":" + port;
        Credential p = creds.primary();
        Path file = c.dataDir().toAbsolutePath().resolve(CredentialsFile.FILE_NAME);
        out.println("Coffer S3 gateway");
        out.println("  endpoint:   " + endpoint);
        String adminHost = c.adminBind().equals("0.0.0.0") ? "127.0.0.1" : c.adminBind();
        out.println("  admin:      http://" + adminHost + ":" + c.get(ConfigKey.ADMIN_PORT) + "/health/ready");
        out.println("  data:       " + c.dataDir().toAbsolutePath());
        out.println("  access key: " + p.accessKeyId());
        PorSettings por = c.porSettings();
        if (por.enabled()) {
            Duration every = por.auditInterval();
            out.println("  PoR:        " + por.describe(c.dataDir()) + ", "
                    + (every.isZero() ? "no scheduled audits" : "audits every " + every.toString().substring(2)
                    .toLowerCase(Locale.ROOT)));
        }
        if (creds.created() && terminal) {
            out.println("  secret key: " + p.secretKey() + "   (created now, stored in " + file + ")");
            out.println();
            out.println("Try it:");
            out.println("  AWS_ACCESS_KEY_ID=" + p.accessKeyId() + " AWS_SECRET_ACCESS_KEY=" + p.secretKey()
                    + " aws --endpoint-url " + endpoint + " s3 ls");
        } else if (creds.created()) {
            out.println("  secret key: created now, in " + file + " (not printed: output is not a terminal)");
        } else {
            out.println("  secret key: (in " + file + " or your configuration)");
        }
        out.flush();
    }

    /** True when stdin and stdout are a terminal (on JDK 22 and later System.console() alone no longer says so). */
    static boolean interactiveTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException beforeJdk22) {
            return true;
        }
    }

    /** {@code public-access-tenants}: comma-separated tenant names, blanks ignored. */
    static Set<String> publicAccessTenants(String v) {
        Set<String> tenants = new HashSet<>();
        for (String t : v == null ? new String[0] : v.split(",")) {
            if (!t.isBlank()) {
                tenants.add(t.trim());
            }
        }
        return tenants;
    }
}
