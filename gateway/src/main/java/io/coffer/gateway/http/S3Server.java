package io.coffer.gateway.http;

import io.coffer.gateway.auth.PostPolicySignature;
import io.coffer.gateway.auth.RequestAuthenticator;
import io.coffer.gateway.s3.S3Dispatcher;
import io.coffer.sdk.Coffer;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The S3 endpoint: a Netty HTTP/1.1 server over a {@link Coffer} engine. {@link #start()} binds; {@link #close()}
 * shuts down gracefully: stop accepting, let in-flight requests finish (up to the grace period), close idle
 * keep-alive connections at once and busy ones after their response, then release the threads.
 */
public final class S3Server implements AutoCloseable {
    static final Object DRAIN = new Object();
    private static final Logger LOG = LoggerFactory.getLogger(S3Server.class);

    private final S3ServerOptions options;
    private final S3Dispatcher dispatcher;
    private final RequestAuthenticator verifier;
    private final GatewayMetrics metrics;
    private final AccessLog accessLog;
    private final ChannelGroup channels = new DefaultChannelGroup("s3", GlobalEventExecutor.INSTANCE);
    private final String hostId;
    private final String idPrefix;
    private final AtomicLong requestCounter = new AtomicLong();
    private final LongAccumulator requestBodyBufferHighWater = new LongAccumulator(Math::max, 0);
    private final LongAccumulator responseBufferHighWater = new LongAccumulator(Math::max, 0);
    private EventLoopGroup boss;
    private EventLoopGroup workers;
    private ExecutorService executor;
    private Channel serverChannel;
    private volatile boolean draining;

    public S3Server(Coffer coffer, S3ServerOptions options, GatewayMetrics metrics, AccessLog accessLog) {
        this.options = options;
        this.dispatcher = new S3Dispatcher(coffer, options.region(), options::tenantMayPublish,
                new PostPolicySignature(options.credentials(), options.acceptSigV2()), options.clock(),
                options.acceptsCustomerKeys(), options.kmsKeys());
        this.verifier = new RequestAuthenticator(options.credentials(), options.clock(), options.acceptSigV2());
        this.metrics = metrics;
        this.accessLog = accessLog;
        byte[] random = new byte[8];
        new SecureRandom().nextBytes(random);
        this.idPrefix = HexFormat.of().withUpperCase().formatHex(random);
        byte[] host = new byte[24];
        new SecureRandom().nextBytes(host);
        this.hostId = Base64.getEncoder().encodeToString(host);
    }

    /** Binds the port and starts serving; returns once listening. A port that cannot be bound is an error naming it. */
    public S3Server start() throws InterruptedException {
        boss = new NioEventLoopGroup(1, threads("coffer-s3-accept"));
        workers = new NioEventLoopGroup(0, threads("coffer-s3-io"));
        executor = new ThreadPoolExecutor(options.workerThreads(), options.workerThreads(), 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(options.workerThreads() * 16), threads("coffer-s3-worker"));
        ((ThreadPoolExecutor) executor).allowCoreThreadTimeOut(true);
        ServerBootstrap b = new ServerBootstrap()
                .group(boss, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                .childHandler(new S3ServerInitializer(this));
        try {
            serverChannel = PortBinding.bind(b, options.bindAddress(), options.port(), "S3 port");
        } catch (PortBinding.BindFailure e) {
            boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            executor.shutdownNow();
            throw e;
        }
        LOG.info("S3 endpoint listening on {}://{}:{}", options.sslContext() == null ? "http" : "https",
                address().getHostString(), address().getPort());
        return this;
    }

    /** The bound address (the real port when 0 was asked for). */
    public InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    public boolean isDraining() {
        return draining;
    }

    /** Stops accepting and waits for in-flight requests, up to the grace period; idempotent. */
    @Override
    public void close() {
        if (serverChannel == null || boss == null) {
            return;
        }
        draining = true;
        serverChannel.close().syncUninterruptibly();
        for (Channel ch : channels) {
            ch.pipeline().fireUserEventTriggered(DRAIN);
        }
        long deadline = System.nanoTime() + options.shutdownGrace().toNanos();
        while (metrics.inFlight().get() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        executor.shutdownNow();
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        boss = null;
        LOG.info("S3 endpoint stopped");
    }

    void track(Channel ch) {
        channels.add(ch);
        if (draining) {
            ch.close();
        }
    }

    S3ServerOptions options() {
        return options;
    }

    S3Dispatcher dispatcher() {
        return dispatcher;
    }

    RequestAuthenticator verifier() {
        return verifier;
    }

    GatewayMetrics metrics() {
        return metrics;
    }

    AccessLog accessLog() {
        return accessLog;
    }

    ExecutorService executor() {
        return executor;
    }

    /** The most request-body bytes one connection has held in its BodyPipe since start (backpressure tests). */
    LongAccumulator requestBodyBufferHighWater() {
        return requestBodyBufferHighWater;
    }

    /** The most response bytes one connection has had queued in Netty, unsent, since start (backpressure tests). */
    LongAccumulator responseBufferHighWater() {
        return responseBufferHighWater;
    }

    String hostId() {
        return hostId;
    }

    String newRequestId() {
        return idPrefix + Long.toHexString(requestCounter.incrementAndGet()).toUpperCase(Locale.ROOT);
    }

    private static ThreadFactory threads(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
