package io.coffer.sdk.blob;

import java.io.IOException;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import org.apache.http.conn.socket.PlainConnectionSocketFactory;
import org.apache.http.protocol.HttpContext;

/**
 * Plain-http sockets made from a {@link SocketChannel}, for the ranged reads of {@link DirectRequests}: reading the
 * socket adaptor's InputStream into the caller's array takes whatever has arrived, up to the length asked for, in one
 * system call through one temporary direct buffer of that length, where a {@code new Socket()}'s stream reads at most
 * 128 KiB per call. Over loopback from a sender always ahead this took 0.2-0.35 ms/MiB less CPU
 * (ChunkToSocketCpuTime); through the gateway against s3proxy the coffer-io threads took 10 % more (docs/BENCHMARKS.md,
 * "Levers tried (issue 23)", getdirect). The JDK keeps that temporary buffer per thread, so callers read in slices of
 * at most {@link DirectRequests#READ_SLICE}.
 */
final class ChannelSocketFactory extends PlainConnectionSocketFactory {
    static final ChannelSocketFactory INSTANCE = new ChannelSocketFactory();

    @Override
    public Socket createSocket(HttpContext context) throws IOException {
        return SocketChannel.open().socket();
    }
}
