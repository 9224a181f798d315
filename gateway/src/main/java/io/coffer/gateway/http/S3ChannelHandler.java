package io.coffer.gateway.http;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.S3Dispatcher;
import io.coffer.gateway.s3.S3Operation;
import io.coffer.gateway.s3.S3Request;
import io.coffer.gateway.s3.S3Response;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadableByteChannel;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's request/response cycle, without HttpObjectAggregator.
 *
 * <p>Implementation notes.
 * <ul>
 * <li>Event loop: parses the request head, verifies the signature (cheap HMACs) and routes
 *   ({@link RequestPreparation}), then feeds body chunks into the exchange's {@link BodyPipe}.
 *   {@code Expect: 100-continue} is answered when the action first reads the body, so after the dispatcher's access
 *   check too; an action that answers without reading it closes the connection.
 *   When the pipe is full, auto-read goes off; the worker turns it back on once it drained half of it.</li>
 * <li>Worker thread: runs the S3 action (engine calls block), then writes the response: small bodies in one
 *   message, streams in 256 KiB chunks, waiting while the channel is not writable so a slow reader bounds memory.</li>
 * <li>One exchange at a time: pipelined requests wait in {@code pending} (auto-read off) until the previous response
 *   is written. When a response is ready before its request body was read (errors), the rest of a small body is
 *   discarded to keep the connection; a large or unknown rest closes it, as S3 does.</li>
 * </ul>
 */
final class S3ChannelHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(S3ChannelHandler.class);
    /** A chunk is one cross-thread write and flush; 64 KiB ones cost more CPU per MB (BENCHMARKS.md, issue 23). */
    private static final int COPY_CHUNK = 256 * 1024;
    private static final long MAX_DISCARD = 1024 * 1024;

    private final S3Server server;
    private final ArrayDeque<Object> pending = new ArrayDeque<>();
    private final Object writability = new Object();
    private ChannelHandlerContext ctx;
    private Exchange current;
    private boolean draining;

    S3ChannelHandler(S3Server server) {
        this.server = server;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (current != null && (msg instanceof HttpRequest || current.bodyComplete)) {
            pending.add(msg);
            ctx.channel().config().setAutoRead(false);
            return;
        }
        if (msg instanceof HttpRequest req) {
            begin(req);
        }
        if (msg instanceof HttpContent content) {
            body(content);
        } else if (!(msg instanceof HttpRequest)) {
            ReferenceCountUtil.release(msg);
        }
    }

    private void body(HttpContent content) {
        Exchange ex = current;
        try {
            if (ex == null) {
                return;
            }
            int n = content.content().readableBytes();
            ex.bytesIn += n;
            if (ex.pipe != null && n > 0 && ex.pipe.offer(content.content().retain())) {
                ctx.channel().config().setAutoRead(false);
            }
            if (content instanceof LastHttpContent) {
                ex.bodyComplete = true;
                if (ex.pipe != null) {
                    ex.pipe.finish();
                }
                if (ex.responseDone) {
                    finish(ex);
                } else {
                    ctx.channel().config().setAutoRead(false);
                }
            }
        } finally {
            content.release();
        }
    }

    private void begin(HttpRequest req) {
        Exchange ex = new Exchange(req, server.newRequestId());
        current = ex;
        server.metrics().inFlight().incrementAndGet();
        ex.keepAlive = HttpUtil.isKeepAlive(req) && !draining;
        if (req.decoderResult().isFailure()) {
            Throwable cause = req.decoderResult().cause();
            ex.bodyComplete = true;
            ex.closeAfter = true;
            S3Exception e = cause instanceof TooLongHttpHeaderException
                    ? new S3Exception(S3ErrorCode.REQUEST_HEADER_SECTION_TOO_LARGE)
                    : cause instanceof TooLongFrameException
                    ? new S3Exception(S3ErrorCode.INVALID_URI, "The request line is too long.")
                    : new S3Exception(S3ErrorCode.INVALID_REQUEST, "Malformed HTTP request.");
            write(ex, S3Dispatcher.errorResponse(e, "/", ex.requestId, false));
            return;
        }
        if (!HttpUtil.isContentLengthSet(req) && !HttpUtil.isTransferEncodingChunked(req)) {
            ex.bodyComplete = req instanceof LastHttpContent;
        }
        if (req.method().equals(HttpMethod.OPTIONS)) {
            preflight(ex, req);
            return;
        }
        try {
            S3Request s3 = RequestPreparation.prepare(server, ex, req, () -> resumeReading(ex));
            if (HttpUtil.is100ContinueExpected(req) && ex.pipe != null && !ex.bodyComplete) {
                // 100 Continue once the action reads the body, after the bucket's access check: a request refused
                // there (an anonymous PUT, a missing bucket) gets its error instead, as from S3
                ex.awaitsContinue = true;
                ex.pipe.beforeFirstRead(() -> {
                    ex.continued = true;
                    ctx.executor().execute(() -> ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                            HttpResponseStatus.CONTINUE, Unpooled.EMPTY_BUFFER)));
                });
            } else if (HttpUtil.is100ContinueExpected(req)) {
                ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE,
                        Unpooled.EMPTY_BUFFER));
            }
            server.executor().execute(() -> run(ex, s3));
        } catch (RejectedExecutionException e) {
            fail(ex, req, new S3Exception(S3ErrorCode.SLOW_DOWN));
        } catch (S3Exception e) {
            fail(ex, req, e);
        }
    }

    private void fail(Exchange ex, HttpRequest req, S3Exception e) {
        if (ex.pipe != null) {
            ex.pipe.close();
            ex.pipe = null;
        }
        if (HttpUtil.is100ContinueExpected(req) && hasBody(req)) {
            ex.closeAfter = true;
        }
        write(ex, S3Dispatcher.errorResponse(e, ex.resource, ex.requestId,
                req.method().equals(HttpMethod.HEAD)));
    }

    /**
     * A CORS preflight: browsers send it without credentials, so it is answered from the bucket's CORS rules without
     * authentication, as S3 does (S3Dispatcher.preflight).
     */
    private void preflight(Exchange ex, HttpRequest req) {
        ex.operation = S3Operation.PREFLIGHT;
        Map<String, String> headers = new HashMap<>();
        for (Map.Entry<String, String> h : req.headers()) {
            headers.merge(h.getKey().toLowerCase(Locale.ROOT), h.getValue(), (a, b) -> a + "," + b);
        }
        try {
            RequestTarget target = RequestTarget.parse(req.uri(), req.headers().get(HttpHeaderNames.HOST),
                    server.options().baseDomain());
            ex.addressed(target);
            server.executor().execute(() -> {
                S3Response resp;
                try {
                    resp = server.dispatcher().preflight(target.bucket(), headers);
                } catch (Throwable t) {
                    resp = S3Dispatcher.errorResponse(S3Exception.from(t), ex.resource, ex.requestId, false);
                }
                write(ex, resp);
            });
        } catch (RejectedExecutionException e) {
            fail(ex, req, new S3Exception(S3ErrorCode.SLOW_DOWN));
        } catch (S3Exception e) {
            fail(ex, req, e);
        }
    }

    private static boolean hasBody(HttpRequest req) {
        return HttpUtil.isTransferEncodingChunked(req) || HttpUtil.getContentLength(req, 0L) > 0;
    }

    private void resumeReading(Exchange ex) {
        ctx.channel().eventLoop().execute(() -> {
            if (current == ex && !ex.bodyComplete) {
                ctx.channel().config().setAutoRead(true);
                ctx.read();
            }
        });
    }

    /** Worker thread: runs the action and writes its response. */
    private void run(Exchange ex, S3Request s3) {
        S3Response resp;
        try {
            resp = server.dispatcher().dispatch(s3);
        } catch (Throwable t) {
            S3Exception e = S3Exception.from(t);
            if (e.error() == S3ErrorCode.SLOW_DOWN) {
                // deliberate backpressure (a buffer budget is spent), which clients retry: one line, no stack trace
                LOG.warn("request {} ({}) answered SlowDown", ex.requestId, ex.operation.actionName());
            } else if (e.error().status() >= 500) {
                LOG.warn("request {} ({}) failed", ex.requestId, ex.operation.actionName(), t);
            }
            resp = S3Dispatcher.errorResponse(e, ex.resource, ex.requestId, s3.method().equals("HEAD"));
        } finally {
            try {
                s3.body().close();
            } catch (IOException e) {
                LOG.debug("closing request body", e);
            }
        }
        write(ex, resp);
    }

    /** Writes a response from any thread; streams wait for writability. */
    private void write(Exchange ex, S3Response resp) {
        ex.status = resp.status();
        ex.errorCode = resp.errorCode();
        if (!ex.bodyComplete && hasBody(ex.request)) {
            long declared = HttpUtil.getContentLength(ex.request, -1L);
            long remaining = declared < 0 ? Long.MAX_VALUE : declared - ex.bytesIn;
            // a client still waiting for 100 Continue may or may not send its body now: only a new connection is clear
            if (remaining > MAX_DISCARD || ex.awaitsContinue && !ex.continued) {
                ex.closeAfter = true;
            }
        }
        boolean keepAlive = ex.keepAlive && !ex.closeAfter && !server.isDraining();
        HttpResponseStatus status = HttpResponseStatus.valueOf(resp.status());
        boolean head = ex.request.method().equals(HttpMethod.HEAD);
        boolean noBody = head || resp.status() == 204 || resp.status() == 304;
        try {
            if (noBody || resp.body() != null) {
                ByteBuf content = noBody || resp.body().length == 0 ? Unpooled.EMPTY_BUFFER
                        : Unpooled.wrappedBuffer(resp.body());
                FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
                headers(r, resp, ex, keepAlive);
                if (head) {
                    HttpUtil.setContentLength(r, resp.contentLength());
                } else if (resp.status() != 204 && resp.status() != 304) {
                    HttpUtil.setContentLength(r, content.readableBytes());
                }
                ex.bytesOut = noBody ? 0 : content.readableBytes();
                closeQuietly(resp.stream());
                ctx.writeAndFlush(r).addListener(f -> done(ex, keepAlive, f.isSuccess()));
                return;
            }
            HttpResponse r = new DefaultHttpResponse(HttpVersion.HTTP_1_1, status);
            headers(r, resp, ex, keepAlive);
            if (resp.streamLength() >= 0) {
                HttpUtil.setContentLength(r, resp.streamLength());
            } else {
                HttpUtil.setTransferEncodingChunked(r, true);
            }
            ctx.writeAndFlush(r);
            long sent = copy(resp.stream(), resp.streamLength(), ex);
            if (resp.streamLength() >= 0 && sent != resp.streamLength()) {
                throw new IOException("object stream ended after " + sent + " of " + resp.streamLength() + " bytes");
            }
            ChannelFuture last = ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
            last.addListener(f -> done(ex, keepAlive, f.isSuccess()));
        } catch (IOException | RuntimeException e) {
            if (!(e instanceof ClosedChannelException)) {
                LOG.warn("request {}: response stream failed, closing the connection", ex.requestId, e);
            }
            ex.status = ex.status == 200 || ex.status == 206 ? 500 : ex.status;
            ex.errorCode = ex.errorCode == null ? "InternalError" : ex.errorCode; // the body broke off mid-way
            ctx.channel().eventLoop().execute(() -> {
                ctx.close();
                done(ex, false, false);
            });
        } finally {
            closeQuietly(resp.stream());
        }
    }

    private long copy(InputStream in, long length, Exchange ex) throws IOException {
        // no larger than the body: zeroing a 64 KiB array for each 4 KiB GET showed in the gateway's CPU profile
        int chunk = length < 0 ? COPY_CHUNK : (int) Math.max(1, Math.min(COPY_CHUNK, length));
        // the engine's object stream fills the pooled (direct) buffer itself: one copy per byte fewer
        ReadableByteChannel channel = in instanceof ReadableByteChannel c ? c : null;
        byte[] buf = channel == null ? new byte[chunk] : null;
        long sent = 0;
        while (length < 0 || sent < length) {
            awaitWritable();
            int want = length < 0 ? chunk : (int) Math.min(chunk, length - sent);
            ByteBuf b = ctx.alloc().buffer(want);
            int n;
            try {
                n = channel != null ? channel.read(b.nioBuffer(0, want)) : in.read(buf, 0, want);
            } catch (IOException | RuntimeException e) {
                b.release();
                throw e;
            }
            if (n <= 0) {
                b.release();
                if (n < 0) {
                    break;
                }
                continue;
            }
            if (channel != null) {
                b.writerIndex(n);
            } else {
                b.writeBytes(buf, 0, n);
            }
            ctx.writeAndFlush(new DefaultHttpContent(b));
            ChannelOutboundBuffer queued = ctx.channel().unsafe().outboundBuffer();
            if (queued != null) {
                server.responseBufferHighWater().accumulate(queued.totalPendingWriteBytes());
            }
            sent += n;
            ex.bytesOut = sent;
        }
        return sent;
    }

    private void awaitWritable() throws ClosedChannelException {
        synchronized (writability) {
            while (!ctx.channel().isWritable()) {
                if (!ctx.channel().isActive()) {
                    throw new ClosedChannelException();
                }
                try {
                    writability.wait(1000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ClosedChannelException();
                }
            }
        }
        if (!ctx.channel().isActive()) {
            throw new ClosedChannelException();
        }
    }

    private void headers(HttpResponse r, S3Response resp, Exchange ex, boolean keepAlive) {
        for (Map.Entry<String, String> h : resp.headers().entrySet()) {
            r.headers().set(h.getKey(), h.getValue());
        }
        r.headers().set("x-amz-request-id", ex.requestId);
        r.headers().set("x-amz-id-2", server.hostId());
        r.headers().set(HttpHeaderNames.DATE, ObjectHeaders.httpDate(Instant.now()));
        r.headers().set(HttpHeaderNames.SERVER, "Coffer");
        if (keepAlive) {
            HttpUtil.setKeepAlive(r, true);
        } else {
            r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
    }

    /** Event loop (listener): the response is written. */
    private void done(Exchange ex, boolean keepAlive, boolean success) {
        if (ex.responseDone) {
            return;
        }
        ex.responseDone = true;
        server.metrics().inFlight().decrementAndGet();
        long nanos = System.nanoTime() - ex.startNanos;
        String op = ex.operation.actionName();
        server.metrics().record(op, ex.status, ex.bytesIn, ex.bytesOut, nanos);
        server.accessLog().log(new AccessLog.Entry(ex.startTime, ex.requestId, remote(), ex.accessKeyId, op,
                ex.request.method().name(), ex.bucket, ex.key, ex.status, ex.errorCode, ex.bytesIn, ex.bytesOut,
                TimeUnit.NANOSECONDS.toMicros(nanos)));
        if (!keepAlive || !success) {
            ctx.close();
            return;
        }
        if (ex.bodyComplete) {
            finish(ex);
        } else {
            // the action answered before the whole body arrived: discard the (small) rest, then continue
            if (ex.pipe != null) {
                ex.pipe.close();
            }
            ctx.channel().config().setAutoRead(true);
            ctx.read();
        }
    }

    private String remote() {
        return ctx.channel().remoteAddress() == null ? "-" : ctx.channel().remoteAddress().toString();
    }

    /** Event loop: request and response both complete; continue with the next request. */
    private void finish(Exchange ex) {
        if (current != ex) {
            return;
        }
        current = null;
        if (draining) {
            ctx.close();
            return;
        }
        while (current == null && !pending.isEmpty()) {
            channelRead(ctx, pending.poll());
        }
        if (current == null || !current.bodyComplete) {
            ctx.channel().config().setAutoRead(true);
            ctx.read();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        synchronized (writability) {
            writability.notifyAll();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        Exchange ex = current;
        if (ex != null && ex.pipe != null && !ex.bodyComplete) {
            ex.pipe.fail(new ClosedChannelException());
        }
        synchronized (writability) {
            writability.notifyAll();
        }
        Object m;
        while ((m = pending.poll()) != null) {
            ReferenceCountUtil.release(m);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            Exchange ex = current;
            if (ex == null) {
                ctx.close();
            } else if (!ex.bodyComplete && ex.pipe != null) {
                ex.pipe.fail(new S3Exception(S3ErrorCode.REQUEST_TIMEOUT));
                ctx.close();
            } else if (!ctx.channel().isWritable()) {
                ctx.close();
            }
            return;
        }
        if (evt == S3Server.DRAIN) {
            draining = true;
            if (current == null) {
                ctx.close();
            }
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("connection error, closing", cause);
        ctx.close();
    }

    private static void closeQuietly(InputStream in) {
        if (in != null) {
            try {
                in.close();
            } catch (IOException e) {
                LOG.debug("closing response stream", e);
            }
        }
    }
}
