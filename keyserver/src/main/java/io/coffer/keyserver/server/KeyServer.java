package io.coffer.keyserver.server;

import io.coffer.keyserver.oprf.KeyId;
import io.coffer.keyserver.oprf.OprfPrivateKey;
import io.coffer.keyserver.pki.KeyServerDirectory;
import io.coffer.keyserver.ratelimit.RateLimitSpec;
import io.coffer.keyserver.ratelimit.RateLimiter;
import io.coffer.keyserver.transport.ClientConnections;
import io.coffer.keyserver.transport.HttpsServer;
import io.coffer.keyserver.transport.Sessions;
import io.coffer.keyserver.transport.TransportMetrics;
import io.coffer.keyserver.transport.UdpServer;
import io.coffer.keyserver.wire.EvaluationRequest;
import io.coffer.keyserver.wire.ProtocolLimits;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The key-server daemon: loads a directory made by {@link io.coffer.keyserver.server.KeyServerInit} (every
 * OPRF key in it, the TLS certificate and the CA clients must be issued by) and serves OPRFv1 on the HTTPS
 * port and OPRFv2 on the UDP port until {@link #stop()}.
 *
 * <pre>{@code
 * KeyServer ks = KeyServer.builder().directory(dir).httpsPort(0).udpPort(0)
 *         .rateLimit("bounded:q=1000,epoch=1s").start();
 * int https = ks.httpsPort(), udp = ks.udpPort();
 * ks.stop();
 * }</pre>
 */
public final class KeyServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KeyServer.class);
    /** How long {@link #stop()} waits for admitted queries to be answered. */
    public static final Duration STOP_GRACE = Duration.ofSeconds(2);
    /** Default of {@link Builder#maxSessionsPerClient}. */
    public static final int DEFAULT_MAX_SESSIONS_PER_CLIENT = 16;
    /** Default of {@link Builder#maxConnectionsPerClient}. */
    public static final int DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 256;

    /** Validated configuration; each setter checks its value. */
    public static final class Builder {
        private Path directory;
        private String bindAddress = "127.0.0.1";
        private int httpsPort = 8443;
        private int udpPort = 8444;
        private RateLimitSpec rateLimit = RateLimitSpec.parse("bounded:q=1000000,epoch=1h");
        private int maxBatch = 256;
        private int maxDatagram = 1400;
        private Duration sessionLifetime = Duration.ofMinutes(10);
        private int maxSessions = 100_000;
        private int maxSessionsPerClient = DEFAULT_MAX_SESSIONS_PER_CLIENT;
        private int maxConnectionsPerClient = DEFAULT_MAX_CONNECTIONS_PER_CLIENT;
        private int workerThreads = Math.max(1, Runtime.getRuntime().availableProcessors());
        private Duration maxQueueDelay = Duration.ofMillis(250);
        private MeterRegistry registry;

        private Builder() {}

        public Builder directory(Path directory) {
            this.directory = Objects.requireNonNull(directory);
            return this;
        }

        /** Address to bind both ports to; default 127.0.0.1 (use 0.0.0.0 to serve other machines). */
        public Builder bindAddress(String address) {
            this.bindAddress = Objects.requireNonNull(address);
            return this;
        }

        /** HTTPS (OPRFv1, KSInit, health, metrics) port; 0 = ephemeral. Default 8443. */
        public Builder httpsPort(int port) {
            this.httpsPort = checkPort(port);
            return this;
        }

        /** UDP (OPRFv2) port; 0 = ephemeral. Default 8444. */
        public Builder udpPort(int port) {
            this.udpPort = checkPort(port);
            return this;
        }

        /** A rate-limit spec, see {@link RateLimitSpec}. Default {@code bounded:q=1000000,epoch=1h}. */
        public Builder rateLimit(String spec) {
            this.rateLimit = RateLimitSpec.parse(spec);
            return this;
        }

        /** Most elements in one query (1..4096, default 256). */
        public Builder maxBatch(int n) {
            this.maxBatch = ProtocolLimits.checkMaxBatch(n);
            return this;
        }

        /** Largest OPRFv2 datagram accepted (128..65000 bytes, default 1400). */
        public Builder maxDatagram(int bytes) {
            this.maxDatagram = ProtocolLimits.checkMaxDatagram(bytes);
            return this;
        }

        /** OPRFv2 session lifetime (>= 1 s, default 10 min). */
        public Builder sessionLifetime(Duration lifetime) {
            if (lifetime.getSeconds() < 1) {
                throw new IllegalArgumentException("session lifetime must be at least 1s");
            }
            this.sessionLifetime = lifetime;
            return this;
        }

        public Builder maxSessions(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("maxSessions must be positive");
            }
            this.maxSessions = n;
            return this;
        }

        /**
         * Most live OPRFv2 sessions one client identity (certificate subject) may hold (default 16; a client renews
         * its session at 90 % of the lifetime, so a steady client holds one or two): a further KSInit is answered 429.
         */
        public Builder maxSessionsPerClient(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("maxSessionsPerClient must be positive");
            }
            this.maxSessionsPerClient = n;
            return this;
        }

        /**
         * Most open HTTPS connections one client identity may hold (default 256; a gateway's OPRFv1 client opens at
         * most one per concurrent query): requests on a further connection are answered 429 and it is closed.
         */
        public Builder maxConnectionsPerClient(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("maxConnectionsPerClient must be positive");
            }
            this.maxConnectionsPerClient = n;
            return this;
        }

        /** Threads evaluating OPRFs (default: available processors). */
        public Builder workerThreads(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("workerThreads must be positive");
            }
            this.workerThreads = n;
            return this;
        }

        /**
         * Longest a query may wait for a worker before it is dropped unevaluated (default 250 ms, half the
         * client's default per-try timeout): under overload the server then spends its time on queries whose
         * clients still wait, instead of answering every query too late. 1 ms .. 60 s.
         */
        public Builder maxQueueDelay(Duration delay) {
            if (delay.toMillis() < 1 || delay.getSeconds() > 60) {
                throw new IllegalArgumentException("maxQueueDelay must be in 1ms..60s");
            }
            this.maxQueueDelay = delay;
            return this;
        }

        /** Registry for the meters (default: a private SimpleMeterRegistry). */
        public Builder meterRegistry(MeterRegistry registry) {
            this.registry = Objects.requireNonNull(registry);
            return this;
        }

        /** Loads the directory, binds both ports and starts serving. */
        public KeyServer start() throws IOException, GeneralSecurityException, InterruptedException {
            if (directory == null) {
                throw new IllegalStateException("directory is required");
            }
            KeyServer ks = new KeyServer(this);
            try {
                ks.startServing();
            } catch (IOException | GeneralSecurityException | InterruptedException | RuntimeException e) {
                ks.stop();
                throw e;
            }
            return ks;
        }

        private static int checkPort(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be in 0..65535");
            }
            return port;
        }
    }

    private final Builder config;
    private final TransportMetrics metrics;
    private final RateLimiter limiter;
    private final AtomicBoolean running = new AtomicBoolean();
    private final EventLoopGroup boss = new NioEventLoopGroup(1, new DefaultThreadFactory("ks-accept", true));
    private final EventLoopGroup io = new NioEventLoopGroup(2, new DefaultThreadFactory("ks-io", true));
    private final ScheduledExecutorService scheduler;
    private final ThreadPoolExecutor workers;
    private Map<KeyId, OprfPrivateKey> keys;
    private KeyId currentKeyId;
    private HttpsServer https;
    private UdpServer udp;

    private KeyServer(Builder b) {
        this.config = b;
        this.metrics = new TransportMetrics(b.registry != null ? b.registry : new SimpleMeterRegistry());
        this.limiter = b.rateLimit.create();
        this.scheduler = Executors.newSingleThreadScheduledExecutor(new DefaultThreadFactory("ks-delay", true));
        this.workers = new ThreadPoolExecutor(b.workerThreads, b.workerThreads, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(4096), new DefaultThreadFactory("ks-eval", true));
    }

    public static Builder builder() {
        return new Builder();
    }

    private void startServing() throws IOException, GeneralSecurityException, InterruptedException {
        KeyServerDirectory dir = new KeyServerDirectory(config.directory);
        keys = dir.loadOprfKeys();
        currentKeyId = dir.currentKeyId();
        SslContext ssl = SslContextBuilder.forServer(dir.loadServerKey(), dir.loadServerCertificate())
                .trustManager(dir.loadCaCertificate())
                .clientAuth(ClientAuth.REQUIRE)
                .sslProvider(SslProvider.JDK)
                .protocols("TLSv1.3", "TLSv1.2")
                .build();
        Sessions sessions = new Sessions(config.sessionLifetime, config.maxSessions, config.maxSessionsPerClient,
                System::nanoTime);
        QueryEvaluator evaluator = new QueryEvaluator(keys, limiter, scheduler, workers, metrics, config.maxQueueDelay.toNanos(), System::nanoTime);
        running.set(true);
        udp = UdpServer.start(io, new InetSocketAddress(config.bindAddress, config.udpPort), sessions, evaluator, metrics,
                config.maxDatagram, config.maxBatch);
        int maxBody = EvaluationRequest.encodedLength(config.maxBatch, EvaluationRequest.MAX_ELEMENT_LENGTH);
        https = HttpsServer.start(boss, io, new InetSocketAddress(config.bindAddress, config.httpsPort),
                new HttpsServer.Settings(ssl, evaluator, sessions, udp::port, metrics, running::get, config.maxBatch, maxBody, 60,
                        new ClientConnections(config.maxConnectionsPerClient)));
        long sweep = Math.max(1, config.sessionLifetime.getSeconds() / 4);
        scheduler.scheduleAtFixedRate(sessions::sweep, sweep, sweep, TimeUnit.SECONDS);
        LOG.info("key server on {} https {} udp {}, {} OPRF key(s), current {}, rate limit {}", config.bindAddress, https.port(),
                udp.port(), keys.size(), currentKeyId, limiter);
    }

    /** The bound HTTPS port (the actual one when configured as 0). */
    public int httpsPort() {
        return https.port();
    }

    /** The bound UDP port (the actual one when configured as 0). */
    public int udpPort() {
        return udp.port();
    }

    /** The key id of the current OPRF key. */
    public KeyId currentKeyId() {
        return currentKeyId;
    }

    public TransportMetrics metrics() {
        return metrics;
    }

    public boolean isRunning() {
        return running.get();
    }

    /**
     * Stops serving and releases ports and threads; idempotent. Graceful: the HTTPS port stops accepting
     * connections and /health turns 503 first, queries already admitted get up to {@link #STOP_GRACE} to be
     * answered (over connections still open and the UDP port), then everything is closed.
     */
    public void stop() {
        running.set(false);
        if (https != null) {
            https.stop();
        }
        try {
            long deadline = System.nanoTime() + STOP_GRACE.toNanos();
            // evaluations in progress or queued finish first; the answers of rate-limited ones are then held on the
            // scheduler until their delay has passed, so it stops accepting work only after the workers are done
            workers.shutdown();
            workers.awaitTermination(STOP_GRACE.toNanos(), TimeUnit.NANOSECONDS);
            scheduler.shutdown();
            scheduler.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (udp != null) {
            udp.stop();
        }
        scheduler.shutdownNow();
        workers.shutdownNow();
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Override
    public void close() {
        stop();
    }

    @Override
    public String toString() {
        return "KeyServer[" + config.directory + "]";
    }
}
