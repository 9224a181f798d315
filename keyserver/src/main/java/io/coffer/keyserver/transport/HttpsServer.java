package io.coffer.keyserver.transport;

import io.coffer.keyserver.wire.SessionGrant;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * OPRFv1 and KSInit endpoint: HTTPS with mutual TLS (client certificates required, trusted only if
 * issued by the key server's CA), at most {@link ClientConnections#maxPerClient} open connections per client
 * identity. Routes: {@code POST /oprf} (binary query, binary answer),
 * {@code POST /session} (KSInit: a {@link SessionGrant}), {@code GET /health}, {@code GET /metrics}.
 */
public final class HttpsServer {
    /** Everything the HTTPS pipeline needs. */
    public static final class Settings {
        final SslContext sslContext;
        final QueryHandler handler;
        final Sessions sessions;
        final Supplier<Integer> udpPort;
        final TransportMetrics metrics;
        final BooleanSupplier healthy;
        final int maxBatch;
        final int maxBodyBytes;
        final int idleSeconds;
        final ClientConnections connections;

        public Settings(SslContext sslContext, QueryHandler handler, Sessions sessions, Supplier<Integer> udpPort,
                TransportMetrics metrics, BooleanSupplier healthy, int maxBatch, int maxBodyBytes, int idleSeconds,
                ClientConnections connections) {
            this.sslContext = sslContext;
            this.handler = handler;
            this.sessions = sessions;
            this.udpPort = udpPort;
            this.metrics = metrics;
            this.healthy = healthy;
            this.maxBatch = maxBatch;
            this.maxBodyBytes = maxBodyBytes;
            this.idleSeconds = idleSeconds;
            this.connections = connections;
        }
    }

    private final Channel channel;

    private HttpsServer(Channel channel) {
        this.channel = channel;
    }

    /** Binds and starts serving; port 0 picks an ephemeral port (see {@link #port()}). */
    public static HttpsServer start(EventLoopGroup boss, EventLoopGroup workers, InetSocketAddress bind, Settings settings)
            throws InterruptedException {
        ServerBootstrap b = new ServerBootstrap()
                .group(boss, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 256)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new HttpsServerInitializer(settings));
        return new HttpsServer(b.bind(bind).sync().channel());
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    public void stop() {
        channel.close().syncUninterruptibly();
    }
}
