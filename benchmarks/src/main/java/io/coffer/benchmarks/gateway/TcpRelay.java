package io.coffer.benchmarks.gateway;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bare TCP relay: every connection accepted on a loopback port is joined to a new connection to a target port, and
 * bytes are copied both ways unchanged, through one direct buffer per direction (a read and a write system call per
 * buffer, no HTTP parsing, no copy into the Java heap).
 *
 * <p>Why the benchmark has it: any gateway in front of a backend at least receives every byte from one socket and
 * sends it on another. This relay does only that, so its CPU per MB above direct's is what the extra hop itself costs
 * on this machine, before a gateway does any work of its own, and its throughput shows what a path with one more hop
 * can reach (noisy like direct's; with two sockets' buffers in the path it has even beaten direct).
 *
 * <p>Usage: {@code TcpRelay LISTEN_PORT TARGET_PORT} (both on 127.0.0.1); runs until killed.
 */
public final class TcpRelay {
    /** Netty's and Jetty's usual socket write size; large enough that system-call overhead is not what is measured. */
    private static final int BUFFER = 64 * 1024;

    private TcpRelay() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: TcpRelay LISTEN_PORT TARGET_PORT");
            System.exit(2);
        }
        InetSocketAddress target = new InetSocketAddress("127.0.0.1", Integer.parseInt(args[1]));
        AtomicInteger ids = new AtomicInteger();
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])), 256);
            while (true) {
                SocketChannel client = server.accept();
                SocketChannel backend;
                try {
                    backend = SocketChannel.open(target);
                } catch (IOException e) {
                    System.err.println("relay: cannot reach the target: " + e);
                    client.close();
                    continue;
                }
                client.setOption(StandardSocketOptions.TCP_NODELAY, true);
                backend.setOption(StandardSocketOptions.TCP_NODELAY, true);
                int id = ids.incrementAndGet();
                AtomicInteger open = new AtomicInteger(2);
                start("relay-" + id + "-up", client, backend, open);
                start("relay-" + id + "-down", backend, client, open);
            }
        }
    }

    private static void start(String name, SocketChannel from, SocketChannel to, AtomicInteger open) {
        Thread t = new Thread(() -> pump(from, to, open), name);
        t.setDaemon(true);
        t.start();
    }

    /** Copies until {@code from} ends, then half-closes {@code to}; the last direction to end closes both. */
    private static void pump(SocketChannel from, SocketChannel to, AtomicInteger open) {
        ByteBuffer buf = ByteBuffer.allocateDirect(BUFFER);
        try {
            while (from.read(buf) >= 0) {
                buf.flip();
                while (buf.hasRemaining()) {
                    to.write(buf);
                }
                buf.clear();
            }
            to.shutdownOutput();
        } catch (IOException e) {
            // the peer reset or closed: end both directions
            open.set(1);
        } finally {
            if (open.decrementAndGet() == 0) {
                closeQuietly(from);
                closeQuietly(to);
            }
        }
    }

    private static void closeQuietly(SocketChannel c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing is best effort; the connection is over either way
        }
    }
}
