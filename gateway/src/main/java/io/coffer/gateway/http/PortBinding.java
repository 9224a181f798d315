package io.coffer.gateway.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;

/** Binds a server port; a failure names the address, the port and what it was for (Netty's message names neither). */
final class PortBinding {
    private PortBinding() {
    }

    /** Thrown when a port cannot be bound (in use, address not local, no permission). */
    static final class BindFailure extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        BindFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Binds {@code host:port} and returns the listening channel; {@code what} is, for example, "S3 port". */
    static Channel bind(ServerBootstrap bootstrap, String host, int port, String what) throws InterruptedException {
        ChannelFuture f = bootstrap.bind(host, port).await();
        if (!f.isSuccess()) {
            Throwable cause = f.cause();
            throw new BindFailure("cannot listen on " + host + ":" + port + " (" + what + "): "
                    + (cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage()), cause);
        }
        return f.channel();
    }
}
