package io.coffer.sdk.testing;

import io.coffer.sdk.blob.S3BlobStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-process S3 server for tests: s3proxy on 127.0.0.1 and a free port, with its "filesystem" provider on a
 * temporary directory and AWS signature v4 authentication with a fixed test identity.
 *
 * <p>One server is shared by every test class in the JVM: it starts on first use and stops (and its directory is
 * deleted) when the JVM shuts down. Use it either as an extension, which starts it before the class's tests:
 * <pre>{@code
 * @RegisterExtension static final S3ServerFixture S3 = new S3ServerFixture();
 * ...
 * try (S3BlobStore store = S3.newStore()) { ... }   // a fresh, empty bucket
 * }</pre>
 * or directly through {@link #start()}, which returns the started shared server's fixture. Each test should use its
 * own bucket ({@link #createBucket()}) so tests never see each other's objects.
 *
 * <p>Other modules use it through the sdk's test-jar ({@code <type>test-jar</type>}, test scope); test-scoped
 * dependencies are not transitive, so they must also declare {@code org.gaul:s3proxy} in test scope.
 */
public final class S3ServerFixture implements BeforeAllCallback {

    /** The access key the server accepts. */
    public static final String ACCESS_KEY = "coffer-test-access-key";
    /** The secret key the server accepts. */
    public static final String SECRET_KEY = "coffer-test-secret-key";
    /** The region clients sign for. */
    public static final String REGION = "us-east-1";

    private static final String HOST = "127.0.0.1";
    private static final String JACKSON_3_REQUIRED_ANNOTATION = "com.fasterxml.jackson.annotation.JsonSerializeAs";
    private static final String MISSING_JACKSON_ANNOTATIONS = "S3 tests skipped: s3proxy 4.1.0 needs "
            + "com.fasterxml.jackson.core:jackson-annotations 2.22+ on the test classpath (Jackson 3 uses "
            + JACKSON_3_REQUIRED_ANNOTATION + "), but an older one is managed in; override its version in test scope";
    private static final String PROVIDER = "filesystem";
    private static final String BASEDIR_PROPERTY = "jclouds.filesystem.basedir";
    private static final String BUCKET_PREFIX = "coffer-test-";
    private static final String STARTED = "STARTED";
    private static final long START_TIMEOUT_MILLIS = 30_000;
    private static final String[] NOISY_LOGGERS = {
        "org.apache.http", "software.amazon.awssdk", "org.gaul", "org.eclipse.jetty", "org.gaul.shaded",
    };
    private static final Logger LOG = LoggerFactory.getLogger(S3ServerFixture.class);
    private static final AtomicInteger BUCKETS = new AtomicInteger();

    private static Server server;

    /** A handle on the shared server; it starts on first use. */
    public S3ServerFixture() {
    }

    /** Starts the shared server unless it runs already, and returns a handle on it. */
    public static S3ServerFixture start() {
        server();
        return new S3ServerFixture();
    }

    /**
     * Starts the shared server; skips the test class (with the reason) when the classpath cannot run s3proxy: it is
     * built on Jackson 3, which needs {@code com.fasterxml.jackson.core:jackson-annotations} 2.22 or later, and a
     * Jackson 2 BOM that pins an older version breaks it.
     */
    @Override
    public void beforeAll(ExtensionContext context) {
        Assumptions.assumeTrue(jacksonAnnotationsFitS3Proxy(), MISSING_JACKSON_ANNOTATIONS);
        server();
    }

    /** Whether the jackson-annotations on the classpath is recent enough (2.22+) for s3proxy's Jackson 3. */
    public static boolean jacksonAnnotationsFitS3Proxy() {
        try {
            Class.forName(JACKSON_3_REQUIRED_ANNOTATION, false, S3ServerFixture.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            LOG.warn(MISSING_JACKSON_ANNOTATIONS);
            return false;
        }
    }

    /** The server's endpoint, such as {@code http://127.0.0.1:41234}; clients must use path-style access. */
    public URI endpoint() {
        return server().endpoint;
    }

    /** The access key clients sign with. */
    public String accessKey() {
        return ACCESS_KEY;
    }

    /** The secret key clients sign with. */
    public String secretKey() {
        return SECRET_KEY;
    }

    /** Creates a fresh, empty bucket with a unique name and returns the name. */
    public String createBucket() throws IOException {
        String bucket = BUCKET_PREFIX + BUCKETS.incrementAndGet() + "-" + ProcessHandle.current().pid();
        try (S3BlobStore store = storeBuilder(bucket).build()) {
            store.createBucketIfMissing();
        }
        return bucket;
    }

    /**
     * A builder for a store on {@code bucket} of this server (endpoint, region, credentials and path-style access
     * set), for tests to adjust before building.
     */
    public S3BlobStore.Builder storeBuilder(String bucket) {
        return S3BlobStore.builder()
                .endpoint(endpoint())
                .region(REGION)
                .bucket(bucket)
                .pathStyleAccess(true)
                .credentials(ACCESS_KEY, SECRET_KEY);
    }

    /** A store on a fresh, empty bucket; the caller closes it. */
    public S3BlobStore newStore() throws IOException {
        return storeBuilder(createBucket()).build();
    }

    /**
     * Lowers the level of the HTTP client, SDK, s3proxy and Jetty loggers to INFO unless a logging configuration set
     * them: logback's default (no configuration file) is DEBUG, which logs every byte sent over the wire.
     */
    public static void quietClientLogging() {
        try {
            Logback.quiet();
        } catch (LinkageError e) {
            LOG.debug("Logback is not the logging backend; leaving log levels alone");
        }
    }

    private static synchronized Server server() {
        if (server == null) {
            quietClientLogging();
            try {
                server = Server.start();
            } catch (Exception e) {
                throw new IllegalStateException("could not start the in-process S3 server", e);
            }
            Server started = server;
            Runtime.getRuntime().addShutdownHook(new Thread(started::stop, "s3-server-fixture-stop"));
        }
        return server;
    }

    /** The Logback-specific part of {@link #quietClientLogging()}, loaded only when it runs. */
    private static final class Logback {
        static void quiet() {
            if (LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext context) {
                for (String name : NOISY_LOGGERS) {
                    ch.qos.logback.classic.Logger logger = context.getLogger(name);
                    if (logger.getLevel() == null) {
                        logger.setLevel(ch.qos.logback.classic.Level.INFO);
                    }
                }
            }
        }
    }

    /** The running s3proxy, its backing blob store and directory. */
    private static final class Server {
        private final S3Proxy proxy;
        private final BlobStore blobStore;
        private final Path directory;
        private final URI endpoint;

        private Server(S3Proxy proxy, BlobStore blobStore, Path directory, URI endpoint) {
            this.proxy = proxy;
            this.blobStore = blobStore;
            this.directory = directory;
            this.endpoint = endpoint;
        }

        static Server start() throws Exception {
            Path directory = Files.createTempDirectory("coffer-s3-fixture");
            Properties properties = new Properties();
            properties.setProperty(BASEDIR_PROPERTY, directory.toString());
            BlobStore blobStore = BlobStores.create(PROVIDER, properties);
            S3Proxy proxy = S3Proxy.builder()
                    .blobStore(blobStore)
                    .awsAuthentication(AuthenticationType.AWS_V4, ACCESS_KEY, SECRET_KEY)
                    .endpoint(URI.create("http://" + HOST + ":0"))
                    .ignoreUnknownHeaders(true)
                    .stopTimeout(0)
                    .build();
            proxy.start();
            long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
            while (!STARTED.equals(proxy.getState())) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("s3proxy did not start: " + proxy.getState());
                }
                Thread.sleep(10);
            }
            URI endpoint = URI.create("http://" + HOST + ":" + proxy.getPort());
            LOG.info("In-process S3 server listening at {}, data in {}", endpoint, directory);
            return new Server(proxy, blobStore, directory, endpoint);
        }

        void stop() {
            try {
                proxy.stop();
                blobStore.close();
            } catch (Exception e) {
                LOG.warn("Stopping the in-process S3 server failed", e);
            }
            try (Stream<Path> paths = Files.walk(directory)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                    try {
                        Files.deleteIfExists(p);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } catch (IOException | UncheckedIOException e) {
                LOG.warn("Could not delete the S3 server's directory {}", directory, e);
            }
        }
    }
}
