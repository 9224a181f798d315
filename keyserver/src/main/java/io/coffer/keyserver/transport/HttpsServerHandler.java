package io.coffer.keyserver.transport;

import io.coffer.keyserver.wire.EvaluationRequest;
import io.coffer.keyserver.wire.EvaluationResponse;
import io.coffer.keyserver.wire.MalformedMessageException;
import io.coffer.keyserver.wire.Status;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleStateEvent;
import java.nio.charset.StandardCharsets;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLPeerUnverifiedException;

/** Routes OPRFv1 requests; answers are written from whichever thread completes the query. */
final class HttpsServerHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final String BINARY = "application/octet-stream";
    private final HttpsServer.Settings settings;
    /** The identity this connection is counted under in {@link ClientConnections}, once counted. */
    private String counted;
    /** Set when the client already held its most connections: every request is refused, then the connection closed. */
    private String refusedClient;

    HttpsServerHandler(HttpsServer.Settings settings) {
        this.settings = settings;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        if (refusedClient != null) {
            settings.metrics.connectionRefused();
            send(ctx, false, HttpResponseStatus.TOO_MANY_REQUESTS, "text/plain", ("client " + refusedClient
                    + " already has " + settings.connections.maxPerClient()
                    + " open connections (the most per client)\n").getBytes(StandardCharsets.UTF_8));
            return;
        }
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        String path = req.uri();
        int q = path.indexOf('?');
        if (q >= 0) {
            path = path.substring(0, q);
        }
        String client = clientIdentity(ctx);
        if (client == null) {
            ctx.close();
            return;
        }
        if (req.method().equals(HttpMethod.GET) && path.equals("/health")) {
            boolean ok = settings.healthy.getAsBoolean();
            send(ctx, keepAlive, ok ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE, "text/plain",
                    (ok ? "ok\n" : "stopping\n").getBytes(StandardCharsets.US_ASCII));
        } else if (req.method().equals(HttpMethod.GET) && path.equals("/metrics")) {
            send(ctx, keepAlive, HttpResponseStatus.OK, PrometheusText.CONTENT_TYPE,
                    PrometheusText.format(settings.metrics.registry()).getBytes(StandardCharsets.UTF_8));
        } else if (req.method().equals(HttpMethod.POST) && path.equals("/session")) {
            try {
                send(ctx, keepAlive, HttpResponseStatus.OK, BINARY,
                        settings.sessions.create(client, settings.udpPort.get()).encode());
            } catch (Sessions.Refused e) {
                settings.metrics.sessionRefused(e.httpStatus() == 429 ? "client_limit" : "table_full");
                send(ctx, keepAlive, HttpResponseStatus.valueOf(e.httpStatus()), "text/plain",
                        (e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
            }
        } else if (req.method().equals(HttpMethod.POST) && path.equals("/oprf")) {
            oprf(ctx, keepAlive, client, ByteBufUtil.getBytes(req.content()));
        } else if (path.equals("/oprf") || path.equals("/session") || path.equals("/health") || path.equals("/metrics")) {
            send(ctx, keepAlive, HttpResponseStatus.METHOD_NOT_ALLOWED, "text/plain", new byte[0]);
        } else {
            send(ctx, keepAlive, HttpResponseStatus.NOT_FOUND, "text/plain", new byte[0]);
        }
    }

    private void oprf(ChannelHandlerContext ctx, boolean keepAlive, String client, byte[] body) {
        EvaluationRequest request;
        try {
            request = EvaluationRequest.decode(body, settings.maxBatch);
        } catch (MalformedMessageException e) {
            settings.metrics.drop(DropReason.MALFORMED);
            reply(ctx, keepAlive, EvaluationResponse.error(Status.BAD_REQUEST, null, null));
            return;
        }
        settings.handler.handle(client, "v1", request).whenComplete((resp, err) -> {
            EvaluationResponse answer = err != null ? EvaluationResponse.error(Status.SERVER_ERROR, request.suite(), request.keyId()) : resp;
            reply(ctx, keepAlive, answer);
        });
    }

    private void reply(ChannelHandlerContext ctx, boolean keepAlive, EvaluationResponse resp) {
        send(ctx, keepAlive, HttpResponseStatus.valueOf(resp.status().httpStatus()), BINARY, resp.encode());
    }

    private static void send(ChannelHandlerContext ctx, boolean keepAlive, HttpResponseStatus status, String type, byte[] body) {
        FullHttpResponse resp = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        resp.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
        resp.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        if (keepAlive) {
            resp.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(resp);
        } else {
            ctx.writeAndFlush(resp).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** The client's identity: the subject DN of its (CA-verified) certificate. */
    private static String clientIdentity(ChannelHandlerContext ctx) {
        SslHandler ssl = ctx.pipeline().get(SslHandler.class);
        try {
            Certificate[] chain = ssl.engine().getSession().getPeerCertificates();
            return ((X509Certificate) chain[0]).getSubjectX500Principal().getName();
        } catch (SSLPeerUnverifiedException e) {
            return null;
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof SslHandshakeCompletionEvent && !((SslHandshakeCompletionEvent) evt).isSuccess()) {
            settings.metrics.handshakeFailure();
        } else if (evt instanceof SslHandshakeCompletionEvent) {
            String client = clientIdentity(ctx);
            if (client != null && settings.connections.tryOpen(client)) {
                counted = client;
            } else if (client != null) {
                refusedClient = client;
            }
        } else if (evt instanceof IdleStateEvent) {
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (counted != null) {
            settings.connections.closed(counted);
            counted = null;
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
