package io.coffer.keyserver.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.socket.nio.NioDatagramChannel;
import java.net.InetSocketAddress;

/**
 * OPRFv2 datagram endpoint. Datagrams are read into buffers one byte larger than the configured maximum,
 * so that an oversized datagram is recognisable (the kernel truncates it to the buffer) and dropped.
 */
public final class UdpServer {
    private final Channel channel;

    private UdpServer(Channel channel) {
        this.channel = channel;
    }

    public static UdpServer start(EventLoopGroup group, InetSocketAddress bind, Sessions sessions, QueryHandler handler,
            TransportMetrics metrics, int maxDatagram, int maxBatch) throws InterruptedException {
        Bootstrap b = new Bootstrap()
                .group(group)
                .channel(NioDatagramChannel.class)
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(maxDatagram + 1))
                .option(ChannelOption.SO_RCVBUF, 1 << 20)
                .handler(new UdpServerHandler(sessions, handler, metrics, maxDatagram, maxBatch));
        return new UdpServer(b.bind(bind).sync().channel());
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    public void stop() {
        channel.close().syncUninterruptibly();
    }
}
