package io.coffer.por.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Cuts the byte stream into frame bodies. The length is checked against the current limit (small until the session
 * is open, then the server's {@link ServerParameters#maxFrameBytes()}) before any byte of the body is waited for, so
 * a connection never buffers more than one frame of the limit. After a bad length everything else is dropped.
 */
final class PorFrameDecoder extends ByteToMessageDecoder {
    private volatile int limit = Frames.HANDSHAKE_LIMIT;
    private boolean failed;

    void limit(int limit) {
        this.limit = limit;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < 4) {
            return;
        }
        int length = in.getInt(in.readerIndex());
        if (length < 2 || length > limit) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw new MalformedFrameException("frame length " + length + " outside [2, " + limit + "]");
        }
        if (in.readableBytes() < 4 + length) {
            return;
        }
        in.skipBytes(4);
        byte[] body = new byte[length];
        in.readBytes(body);
        out.add(body);
    }
}
