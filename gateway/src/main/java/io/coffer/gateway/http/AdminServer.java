package io.coffer.gateway.http;

import io.coffer.gateway.maintenance.GcReports;
import io.coffer.gateway.por.PorReports;
import io.coffer.gateway.por.PorService;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.GcReport;
import io.coffer.sdk.LeaseHeldException;
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
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The admin endpoint, separate from S3: {@code /health/live} (the process runs), {@code /health/ready} (backend and
 * metadata reachable and not draining; 503 otherwise) and {@code /metrics} (Prometheus text format). With PoR on,
 * also {@code POST /admin/por/audit}, {@code /admin/por/repair} and {@code /admin/por/consolidate}: one audit, repair
 * or consolidation now, answered with its
 * report (JSON; text with {@code ?format=text}) and the verdict in the {@value #VERDICT_HEADER} header. They run on a
 * thread of their own, one at a time, so that health checks are answered meanwhile; with PoR off they are 404.
 * With {@link #withGc} also {@code POST /admin/gc}: one garbage-collection pass now, under the store's gc lease,
 * answered with its report (JSON), or 409 when another gateway holds the lease.
 */
public final class AdminServer implements AutoCloseable {
    private final String bind;
    private final int port;
    private final PrometheusMeterRegistry registry;
    private final BooleanSupplier ready;
    private final PorService por;
    private ExecutorService porRunner;
    private Coffer gcTarget;
    private ExecutorService gcRunner;
    private EventLoopGroup group;
    private Channel channel;

    /** The header of a PoR admin response that holds the verdict ({@code passed}, {@code failed} ...). */
    public static final String VERDICT_HEADER = "x-coffer-por-verdict";

    public AdminServer(String bind, int port, PrometheusMeterRegistry registry, BooleanSupplier ready) {
        this(bind, port, registry, ready, null);
    }

    /** With {@code por} null the PoR endpoints answer 404. */
    public AdminServer(String bind, int port, PrometheusMeterRegistry registry, BooleanSupplier ready,
                       PorService por) {
        this.bind = bind;
        this.port = port;
        this.registry = registry;
        this.ready = ready;
        this.por = por;
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

    /** Serves {@code POST /admin/gc} with {@code coffer}'s collector; call before {@link #start}. */
    public AdminServer withGc(Coffer coffer) {
        this.gcTarget = coffer;
        return this;
    }

    public AdminServer start() throws InterruptedException {
        if (gcTarget != null) {
            gcRunner = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "coffer-admin-gc");
                t.setDaemon(true);
                return t;
            });
        }
        if (por != null) {
            porRunner = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "coffer-admin-por");
                t.setDaemon(true);
                return t;
            });
        }
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
            if (porRunner != null) {
                porRunner.shutdown(); // no interrupt: it would close the embedded server's files
            }
            if (gcRunner != null) {
                gcRunner.shutdown();
            }
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
        if (porRunner != null) {
            porRunner.shutdown(); // no interrupt: it would close the embedded server's files
        }
        if (gcRunner != null) {
            gcRunner.shutdown(); // a pass in progress finishes its step; the engine's close waits for nothing else
        }
    }

    private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            String[] target = req.uri().split("\\?", 2);
            String path = target[0];
            if (path.startsWith(POR_PREFIX)) {
                boolean text = target.length > 1 && target[1].contains("format=text");
                por(ctx, req, path.substring(POR_PREFIX.length()), text);
                return;
            }
            if (path.equals(GC_PATH)) {
                gc(ctx, req);
                return;
            }
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
            respond(ctx, HttpUtil.isKeepAlive(req), status, type, body, null);
        }

        /** A garbage-collection pass on the gc thread; the answer is written from there when it is done. */
        private void gc(ChannelHandlerContext ctx, FullHttpRequest req) {
            boolean keepAlive = HttpUtil.isKeepAlive(req);
            String plain = "text/plain; charset=utf-8";
            if (gcTarget == null) {
                respond(ctx, keepAlive, HttpResponseStatus.NOT_FOUND, plain, "not found\n", null);
                return;
            }
            if (!req.method().equals(HttpMethod.POST)) {
                respond(ctx, keepAlive, HttpResponseStatus.METHOD_NOT_ALLOWED, plain, "use POST\n", null);
                return;
            }
            try {
                gcRunner.execute(() -> {
                    try {
                        GcReport r = gcTarget.collectGarbage();
                        respond(ctx, keepAlive, HttpResponseStatus.OK, "application/json", GcReports.json(r) + "\n",
                                null);
                    } catch (LeaseHeldException e) {
                        respond(ctx, keepAlive, HttpResponseStatus.CONFLICT, plain, e.getMessage() + "\n", null);
                    } catch (RuntimeException e) {
                        respond(ctx, keepAlive, HttpResponseStatus.INTERNAL_SERVER_ERROR, plain, "gc failed: "
                                + e.getMessage() + "\n", null);
                    }
                });
            } catch (RejectedExecutionException closing) {
                respond(ctx, keepAlive, HttpResponseStatus.SERVICE_UNAVAILABLE, plain, "shutting down\n", null);
            }
        }

        /** An audit or repair on the PoR thread; the answer is written from there when it is done. */
        private void por(ChannelHandlerContext ctx, FullHttpRequest req, String operation, boolean text) {
            boolean keepAlive = HttpUtil.isKeepAlive(req);
            String plain = "text/plain; charset=utf-8";
            if (!operation.equals("audit") && !operation.equals("repair") && !operation.equals("consolidate")) {
                respond(ctx, keepAlive, HttpResponseStatus.NOT_FOUND, plain, "not found\n", null);
                return;
            }
            if (por == null) {
                respond(ctx, keepAlive, HttpResponseStatus.NOT_FOUND, plain, "PoR is not enabled on this gateway"
                        + " (start it with --por embedded or --por HOST:PORT)\n", null);
                return;
            }
            if (!req.method().equals(HttpMethod.POST)) {
                respond(ctx, keepAlive, HttpResponseStatus.METHOD_NOT_ALLOWED, plain, "use POST\n", null);
                return;
            }
            try {
                porRunner.execute(() -> {
                    String type = text ? plain : "application/json";
                    try {
                        if (operation.equals("audit")) {
                            var a = por.audit();
                            int used = por.control().blocksUsed();
                            int capacity = por.control().capacity();
                            respond(ctx, keepAlive, HttpResponseStatus.OK, type, text
                                    ? PorReports.text(a, used, capacity) : PorReports.json(a, used, capacity) + "\n",
                                    PorReports.verdict(a));
                        } else if (operation.equals("consolidate")) {
                            var r = por.consolidate();
                            respond(ctx, keepAlive, HttpResponseStatus.OK, type, text ? PorReports.text(r)
                                    : PorReports.json(r) + "\n", PorReports.verdict(r));
                        } else {
                            var r = por.repair();
                            int used = por.control().blocksUsed();
                            int capacity = por.control().capacity();
                            respond(ctx, keepAlive, HttpResponseStatus.OK, type, text
                                    ? PorReports.text(r, used, capacity) : PorReports.json(r, used, capacity) + "\n",
                                    PorReports.verdict(r));
                        }
                    } catch (RuntimeException e) {
                        respond(ctx, keepAlive, HttpResponseStatus.INTERNAL_SERVER_ERROR, plain, "PoR " + operation
                                + " failed: " + e.getMessage() + "\n", null);
                    }
                });
            } catch (RejectedExecutionException closing) {
                respond(ctx, keepAlive, HttpResponseStatus.SERVICE_UNAVAILABLE, plain, "shutting down\n", null);
            }
        }
    }

    private static final String POR_PREFIX = "/admin/por/";
    private static final String GC_PATH = "/admin/gc";

    private static void respond(ChannelHandlerContext ctx, boolean keepAlive, HttpResponseStatus status, String type,
                                String body, String verdict) {
        FullHttpResponse resp = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        resp.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
        if (verdict != null) {
            resp.headers().set(VERDICT_HEADER, verdict);
        }
        HttpUtil.setContentLength(resp, resp.content().readableBytes());
        HttpUtil.setKeepAlive(resp, keepAlive);
        if (keepAlive) {
            ctx.writeAndFlush(resp);
        } else {
            ctx.writeAndFlush(resp).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
