package io.coffer.keyserver.transport;

import io.coffer.keyserver.wire.DatagramFrame;
import io.coffer.keyserver.wire.EvaluationRequest;
import io.coffer.keyserver.wire.MalformedMessageException;
import io.coffer.keyserver.wire.Status;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetSocketAddress;

/**
 * Authenticates and dispatches OPRFv2 datagrams. Checks, in order: size (truncated, oversized), session
 * (unknown, expired), tag (bad MAC), sequence number (replay), body (malformed). Any failure drops the
 * datagram silently and counts the reason. Active-client ({@link Status#BUSY}) answers are dropped too.
 */
final class UdpServerHandler extends SimpleChannelInboundHandler<DatagramPacket> {
    static final int MIN_DATAGRAM = DatagramFrame.OVERHEAD + EvaluationRequest.HEADER_LENGTH;

    private final Sessions sessions;
    private final QueryHandler handler;
    private final TransportMetrics metrics;
    private final int maxDatagram;
    private final int maxBatch;

    UdpServerHandler(Sessions sessions, QueryHandler handler, TransportMetrics metrics, int maxDatagram, int maxBatch) {
        this.sessions = sessions;
        this.handler = handler;
        this.metrics = metrics;
        this.maxDatagram = maxDatagram;
        this.maxBatch = maxBatch;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
        int size = packet.content().readableBytes();
        if (size > maxDatagram) {
            metrics.drop(DropReason.OVERSIZED);
            return;
        }
        if (size < MIN_DATAGRAM) {
            metrics.drop(DropReason.TRUNCATED);
            return;
        }
        byte[] frame = ByteBufUtil.getBytes(packet.content());
        byte[] sessionId = DatagramFrame.sessionId(frame);
        Sessions.Session session = sessions.lookup(sessionId);
        if (session == null) {
            metrics.drop(DropReason.UNKNOWN_SESSION);
            return;
        }
        if (session.expired(sessions.now())) {
            sessions.remove(sessionId);
            metrics.drop(DropReason.EXPIRED_SESSION);
            return;
        }
        if (!DatagramFrame.verify(DatagramFrame.REQUEST, frame, session.key())) {
            metrics.drop(DropReason.BAD_MAC);
            return;
        }
        long sequence = DatagramFrame.sequence(frame);
        if (!session.advance(sequence)) {
            metrics.drop(DropReason.REPLAY);
            return;
        }
        EvaluationRequest request;
        try {
            request = EvaluationRequest.decode(DatagramFrame.body(frame), maxBatch);
        } catch (MalformedMessageException e) {
            metrics.drop(DropReason.MALFORMED);
            return;
        }
        InetSocketAddress sender = packet.sender();
        handler.handle(session.client(), "v2", request).whenComplete((resp, err) -> {
            if (err != null) {
                metrics.drop(DropReason.OVERLOAD);
                return;
            }
            if (resp.status() == Status.BUSY) {
                metrics.drop(DropReason.ACTIVE);
                return;
            }
            byte[] out = DatagramFrame.seal(DatagramFrame.RESPONSE, sessionId, sequence, resp.encode(), session.key());
            ctx.writeAndFlush(new DatagramPacket(Unpooled.wrappedBuffer(out), sender));
        });
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        metrics.drop(DropReason.MALFORMED);
    }
}
