package io.coffer.por.net;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.timeout.IdleStateEvent;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection: the handshake (HELLO, CHALLENGE, AUTH), then requests answered one at a time in order. The
 * PoR server is called on the server's single worker thread (it is not thread-safe, and its calls may be slow), never
 * on the event loop. While a request is pending the connection reads nothing more, so a client that sends without
 * reading holds at most one frame in the server's memory. A protocol violation gets an error frame and the
 * connection is closed; the server goes on serving the others.
 */
final class PorConnectionHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(PorConnectionHandler.class);

    private enum State { AWAIT_HELLO, AWAIT_AUTH, OPEN, CLOSED }

    private final RequestDispatcher dispatcher;
    private final byte[] sharedKey;
    private final Executor worker;
    private final PorFrameDecoder decoder;
    private final SecureRandom random;
    private final long handshakeTimeoutMillis;
    private final ArrayDeque<byte[]> queued = new ArrayDeque<>();
    private State state = State.AWAIT_HELLO;
    private SessionMac mac;
    private boolean busy;
    private ScheduledFuture<?> handshakeTimeout;

    PorConnectionHandler(RequestDispatcher dispatcher, byte[] sharedKey, Executor worker, PorFrameDecoder decoder,
            SecureRandom random, long handshakeTimeoutMillis) {
        this.dispatcher = dispatcher;
        this.sharedKey = sharedKey;
        this.worker = worker;
        this.decoder = decoder;
        this.random = random;
        this.handshakeTimeoutMillis = handshakeTimeoutMillis;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        handshakeTimeout = ctx.executor().schedule(() -> {
            if (state != State.OPEN) {
                fail(ctx, "no handshake within " + handshakeTimeoutMillis + " ms");
            }
        }, handshakeTimeoutMillis, TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        state = State.CLOSED;
        queued.clear();
        if (handshakeTimeout != null) {
            handshakeTimeout.cancel(false);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        byte[] body = (byte[]) msg;
        try {
            switch (state) {
                case AWAIT_HELLO -> hello(ctx, Frames.parse(body, false));
                case AWAIT_AUTH -> auth(Frames.parse(body, true));
                case OPEN -> {
                    queued.add(body);
                    ctx.channel().config().setAutoRead(false);
                    pump(ctx);
                }
                default -> { }
            }
        } catch (MalformedFrameException e) {
            fail(ctx, e.getMessage());
        }
    }

    private void hello(ChannelHandlerContext ctx, Frames.Frame frame) {
        if (frame.type() != MessageType.HELLO || frame.payload().length != SessionMac.NONCE_BYTES) {
            throw new MalformedFrameException("expected HELLO with a " + SessionMac.NONCE_BYTES + "-byte nonce, got "
                    + frame.type() + " of " + frame.payload().length + " bytes");
        }
        byte[] serverNonce = new byte[SessionMac.NONCE_BYTES];
        random.nextBytes(serverNonce);
        mac = SessionMac.server(sharedKey, frame.payload(), serverNonce);
        ServerParameters p = dispatcher.codec().parameters();
        byte[] challenge = new WireWriter(SessionMac.NONCE_BYTES + 7).bytes(serverNonce).u8(p.k())
                .u8(p.batchExponent()).i32(p.blockBytes()).u8(dispatcher.maxK()).toBytes();
        state = State.AWAIT_AUTH;
        send(ctx, new Message(MessageType.CHALLENGE, challenge), true);
    }

    private void auth(Frames.Frame frame) {
        if (frame.type() != MessageType.AUTH || frame.payload().length != 0) {
            throw new MalformedFrameException("expected AUTH, got " + frame.type());
        }
        mac.verify(frame.type(), frame.payload(), frame.mac());
        state = State.OPEN;
        handshakeTimeout.cancel(false);
        decoder.limits(() -> dispatcher.codec().parameters().maxFrameBytes(), dispatcher::frameLimit);
    }

    /** Starts the next queued request on the worker when none is running; reads again once the queue is empty. */
    private void pump(ChannelHandlerContext ctx) {
        if (busy || state != State.OPEN) {
            return;
        }
        byte[] body = queued.poll();
        if (body == null) {
            ctx.channel().config().setAutoRead(true);
            return;
        }
        Frames.Frame frame;
        try {
            frame = Frames.parse(body, true);
            mac.verify(frame.type(), frame.payload(), frame.mac());
            if (!frame.type().isRequest()) {
                throw new MalformedFrameException(frame.type() + " is not a request");
            }
        } catch (MalformedFrameException e) {
            fail(ctx, e.getMessage());
            return;
        }
        busy = true;
        try {
            worker.execute(() -> {
                Message response;
                try {
                    response = dispatcher.dispatch(frame.type(), frame.payload());
                } catch (MalformedFrameException e) {
                    ctx.executor().execute(() -> fail(ctx, e.getMessage()));
                    return;
                } catch (RuntimeException e) {
                    LOG.error("PoR request {} failed", frame.type(), e);
                    response = RequestDispatcher.error(ErrorKind.INTERNAL, e.toString());
                }
                Message answer = response;
                ctx.executor().execute(() -> respond(ctx, answer));
            });
        } catch (RejectedExecutionException e) {
            fail(ctx, "the server is shutting down");
        }
    }

    private void respond(ChannelHandlerContext ctx, Message response) {
        if (state != State.OPEN) {
            return;
        }
        send(ctx, response, true).addListener(f -> {
            busy = false;
            if (f.isSuccess()) {
                pump(ctx);
            }
        });
    }

    /** Sends {@code m}; errors before the session is open carry no MAC (the peer may not share the key). */
    private ChannelFuture send(ChannelHandlerContext ctx, Message m, boolean signed) {
        byte[] sig = signed ? mac.sign(m.type(), m.payload()) : null;
        byte[] body = Frames.body(m.type(), m.payload(), sig);
        int n = body.length;
        byte[] length = {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n};
        return ctx.writeAndFlush(Unpooled.wrappedBuffer(length, body));
    }

    /** Answers a protocol violation with an error frame (MAC'd once a session exists) and closes the connection. */
    private void fail(ChannelHandlerContext ctx, String reason) {
        if (state == State.CLOSED) {
            return;
        }
        LOG.info("PoR connection from {} closed: {}", ctx.channel().remoteAddress(), reason);
        boolean signed = state == State.OPEN;
        state = State.CLOSED;
        queued.clear();
        send(ctx, RequestDispatcher.error(ErrorKind.PROTOCOL, reason), signed)
                .addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            if (busy) {
                return; // a long call (a C rebuild) is running: the connection waits for its answer, not idle
            }
            LOG.info("PoR connection from {} idle: closed", ctx.channel().remoteAddress());
            ctx.close();
        } else {
            ctx.fireUserEventTriggered(evt);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable root = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (root instanceof MalformedFrameException) {
            fail(ctx, root.getMessage());
        } else {
            LOG.debug("PoR connection from {} failed", ctx.channel().remoteAddress(), root);
            ctx.close();
        }
    }
}
