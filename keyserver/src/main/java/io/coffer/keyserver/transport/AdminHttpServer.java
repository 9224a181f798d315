package io.coffer.keyserver.transport;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The key server's admin port, plain HTTP apart from the mutual-TLS query port, for probes and Prometheus (which hold
 * no client certificate): {@code /health/live} (the process answers), {@code /health/ready} (200 while the server
 * takes queries, 503 once it stops) and {@code /metrics} (its meters, {@link PrometheusText}). Bind it to a loopback
 * or private address: it is unauthenticated.
 */
public final class AdminHttpServer implements AutoCloseable {
    private final EventLoopGroup group;
    private final Channel channel;

    private AdminHttpServer(EventLoopGroup group, Channel channel) {
        this.group = group;
        this.channel = channel;
    }

    /** Listens on {@code bind}:{@code port} (0: an ephemeral port). */
    public static AdminHttpServer start(String bind, int port, MeterRegistry registry, BooleanSupplier ready)
            throws IOException, InterruptedException {
        EventLoopGroup group = new NioEventLoopGroup(1, r -> {
            Thread t = new Thread(r, "ks-admin");
            t.setDaemon(true);
            return t;
        });
        try {
            Channel channel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(4096, 8192, 8192))
                                    .addLast(new HttpObjectAggregator(8192)).addLast(new Handler(registry, ready));
                        }
                    }).bind(bind, port).sync().channel();
            return new AdminHttpServer(group, channel);
        } catch (InterruptedException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        } catch (Exception e) { // Netty rethrows a failed bind's BindException unchecked
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new IOException("cannot listen on " + bind + ":" + port + " (admin port): " + e.getMessage(), e);
        }
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final MeterRegistry registry;
        private final BooleanSupplier ready;

        Handler(MeterRegistry registry, BooleanSupplier ready) {
            this.registry = registry;
            this.ready = ready;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            String path = req.uri().split("\\?", 2)[0];
            HttpResponseStatus status = HttpResponseStatus.OK;
            String type = "text/plain; charset=utf-8";
            String body;
            switch (path) {
                case "/health/live" -> body = "ok\n";
                case "/health/ready" -> {
                    boolean ok = ready.getAsBoolean();
                    status = ok ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE;
                    body = ok ? "ready\n" : "not ready\n";
                }
                case "/metrics" -> {
                    body = PrometheusText.format(registry);
                    type = PrometheusText.CONTENT_TYPE;
                }
                default -> {
                    status = HttpResponseStatus.NOT_FOUND;
                    body = "not found\n";
                }
            }
            FullHttpResponse resp = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                    Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
            resp.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
            HttpUtil.setContentLength(resp, resp.content().readableBytes());
            boolean keepAlive = HttpUtil.isKeepAlive(req);
            HttpUtil.setKeepAlive(resp, keepAlive);
            if (keepAlive) {
                ctx.writeAndFlush(resp);
            } else {
                ctx.writeAndFlush(resp).addListener(ChannelFutureListener.CLOSE);
            }
        }
    }
}
