package io.coffer.gateway.http;

import io.coffer.sdk.Coffer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
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
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The admin endpoint, separate from S3: {@code /health/live} (the process runs), {@code /health/ready} (backend and
 * metadata reachable and not draining; 503 otherwise) and {@code /metrics} (Prometheus text format).
 */
public final class AdminServer implements AutoCloseable {
    private final String bind;
    private final int port;
    private final PrometheusMeterRegistry registry;
    private final BooleanSupplier ready;
    private EventLoopGroup group;
    private Channel channel;

    public AdminServer(String bind, int port, PrometheusMeterRegistry registry, BooleanSupplier ready) {
        this.bind = bind;
        this.port = port;
        this.registry = registry;
        this.ready = ready;
    }

    /**
     * The gateway's readiness: the S3 endpoint is not draining, and the engine answers (its statistics and a bucket
     * listing, which reach the metadata store).
     */
    public static BooleanSupplier readiness(S3Server s3, Coffer coffer) {
        return () -> {
            if (s3.isDraining()) {
                return false;
            }
            coffer.stats();
            coffer.listBuckets();
            return true;
        };
    }

    public AdminServer start() throws InterruptedException {
        group = new NioEventLoopGroup(1, r -> {
            Thread t = new Thread(r, "coffer-admin");
            t.setDaemon(true);
            return t;
        });
        ServerBootstrap b = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast("http", new HttpServerCodec(4096, 8192, 8192))
                                .addLast("aggregate", new HttpObjectAggregator(8192))
                                .addLast("admin", new Handler());
                    }
                });
        try {
            channel = PortBinding.bind(b, bind, port, "admin port");
        } catch (PortBinding.BindFailure e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
        return this;
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    @Override
    public void close() {
        if (channel != null) {
            channel.close().syncUninterruptibly();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            channel = null;
        }
    }

    private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            String path = req.uri().split("\\?", 2)[0];
            HttpResponseStatus status = HttpResponseStatus.OK;
            String body;
            String type = "text/plain; charset=utf-8";
            switch (path) {
                case "/health/live" -> body = "ok\n";
                case "/health/ready" -> {
                    boolean ok;
                    try {
                        ok = ready.getAsBoolean();
                    } catch (RuntimeException e) {
                        ok = false;
                    }
                    status = ok ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE;
                    body = ok ? "ready\n" : "not ready\n";
                }
                case "/metrics" -> {
                    body = registry.scrape();
                    type = "text/plain; version=0.0.4; charset=utf-8";
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
