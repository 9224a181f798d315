package io.coffer.por.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * Cuts the byte stream into frame bodies. The length is checked against the current limit (small until the session
 * is open, then the server's {@link ServerParameters#maxFrameBytes()} at its k of now) before any byte of the body
 * but its version and type is waited for, so a connection never buffers more than one frame of the limit; a GROW
 * alone may be as long as the largest k's frames (it carries C's checksums for the new capacity). After a bad length
 * everything else is dropped.
 */
final class PorFrameDecoder extends ByteToMessageDecoder {
    private volatile IntSupplier limit = () -> Frames.HANDSHAKE_LIMIT;
    private volatile IntSupplier growLimit = () -> Frames.HANDSHAKE_LIMIT;
    private boolean failed;

    /** The limits of an open session: of every frame, and of a GROW's. */
    void limits(IntSupplier limit, IntSupplier growLimit) {
        this.limit = limit;
        this.growLimit = growLimit;
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
        int max = limit.getAsInt();
        if (length > max && length >= 2) {
            if (in.readableBytes() < 6) {
                return; // its version and type say whether it may be a GROW
            }
            if (MessageType.of(in.getByte(in.readerIndex() + 5)) == MessageType.GROW) {
                max = Math.max(max, growLimit.getAsInt());
            }
        }
        if (length < 2 || length > max) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw new MalformedFrameException("frame length " + length + " outside [2, " + max + "]");
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
