package io.coffer.gateway.http;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.TimeUnit;

/** The S3 connection pipeline: [tls] -> idle -> http codec (limits from options) -> S3 exchange handler. */
final class S3ServerInitializer extends ChannelInitializer<SocketChannel> {
    private final S3Server server;

    S3ServerInitializer(S3Server server) {
        this.server = server;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        S3ServerOptions o = server.options();
        ChannelPipeline p = ch.pipeline();
        if (o.sslContext() != null) {
            p.addLast("tls", o.sslContext().newHandler(ch.alloc()));
        }
        p.addLast("idle", new IdleStateHandler(true, 0, 0, o.idleTimeout().toMillis(), TimeUnit.MILLISECONDS));
        p.addLast("http", new HttpServerCodec(new HttpDecoderConfig()
                .setMaxInitialLineLength(o.maxInitialLineLength())
                .setMaxHeaderSize(o.maxHeaderSize())
                .setMaxChunkSize(64 * 1024)));
        p.addLast("s3", new S3ChannelHandler(server));
        server.track(ch);
    }
}
