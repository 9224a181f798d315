package io.coffer.keyserver.transport;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateHandler;

/** The OPRFv1 pipeline: TLS (client auth required), HTTP/1.1 codec with limits, idle close, handler. */
final class HttpsServerInitializer extends ChannelInitializer<SocketChannel> {
    private final HttpsServer.Settings settings;

    HttpsServerInitializer(HttpsServer.Settings settings) {
        this.settings = settings;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        ChannelPipeline p = ch.pipeline();
        p.addLast("tls", settings.sslContext.newHandler(ch.alloc()));
        p.addLast("idle", new IdleStateHandler(0, 0, settings.idleSeconds));
        p.addLast("http", new HttpServerCodec(4096, 8192, 8192));
        p.addLast("aggregate", new HttpObjectAggregator(settings.maxBodyBytes));
        p.addLast("keyserver", new HttpsServerHandler(settings));
    }
}
