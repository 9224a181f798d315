package io.coffer.por.net;

import io.coffer.por.server.PorServer;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link PorServer} on the network: Netty accepts connections and frames them, every call of the PoR server runs on
 * one worker thread, in the order requests arrive. At most {@link Limits#maxConnections} connections at once (more
 * are closed at once), a handshake must complete within {@link Limits#handshakeTimeoutMillis}, and a connection idle
 * for {@link Limits#idleTimeoutSeconds} is closed: with the one-frame-per-connection bound this caps the server's
 * memory for buffering at maxConnections frames.
 */
public final class PorNetServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PorNetServer.class);

    /** The server's resource limits. */
    public record Limits(int maxConnections, long handshakeTimeoutMillis, int idleTimeoutSeconds) {
        public static final Limits DEFAULT = new Limits(32, 10_000, 600);
    }

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final ExecutorService calls;
    private final Channel channel;

    private PorNetServer(EventLoopGroup boss, EventLoopGroup workers, ExecutorService calls, Channel channel) {
        this.boss = boss;
        this.workers = workers;
        this.calls = calls;
        this.channel = channel;
    }

    /** Serves {@code server} on {@code bind} (port 0: any free port), sessions authenticated with {@code sharedKey}. */
    public static PorNetServer start(PorServer server, byte[] sharedKey, InetSocketAddress bind, Limits limits)
            throws InterruptedException {
        if (sharedKey.length != PorKeyFile.KEY_BYTES) {
            throw new IllegalArgumentException("the session key is " + PorKeyFile.KEY_BYTES + " bytes");
        }
        RequestDispatcher dispatcher = new RequestDispatcher(server);
        byte[] key = sharedKey.clone();
        SecureRandom random = new SecureRandom();
        AtomicInteger open = new AtomicInteger();
        ExecutorService calls = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "por-server");
            t.setDaemon(true);
            return t;
        });
        EventLoopGroup boss = new NioEventLoopGroup(1);
        EventLoopGroup workers = new NioEventLoopGroup(2);
        ServerBootstrap bootstrap = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (open.incrementAndGet() > limits.maxConnections()) {
                            open.decrementAndGet();
                            LOG.warn("PoR connection from {} refused: {} connections open", ch.remoteAddress(),
                                    limits.maxConnections());
                            ch.close();
                            return;
                        }
                        ch.closeFuture().addListener(f -> open.decrementAndGet());
                        PorFrameDecoder decoder = new PorFrameDecoder();
                        ch.pipeline().addLast(new IdleStateHandler(0, 0, limits.idleTimeoutSeconds()), decoder,
                                new PorConnectionHandler(dispatcher, key, calls, decoder, random,
                                        limits.handshakeTimeoutMillis()));
                    }
                });
        try {
            Channel channel = bootstrap.bind(bind).sync().channel();
            return new PorNetServer(boss, workers, calls, channel);
        } catch (InterruptedException | RuntimeException e) {
            boss.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            workers.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            calls.shutdownNow();
            throw e;
        }
    }

    /** The port the server listens on. */
    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly();
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        calls.shutdown();
        try {
            calls.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
