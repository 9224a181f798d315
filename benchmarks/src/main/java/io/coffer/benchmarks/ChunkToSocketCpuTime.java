package io.coffer.benchmarks;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import io.coffer.sdk.crypto.JceWarmup;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.Security;
import java.util.ArrayList;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The CPU a large GET spends on a chunk between the backend's socket and the memory Netty sends from, for the ways
 * of getting it there (issue 23, docs/BENCHMARKS.md "Levers tried (issue 23)", getdirect), in this thread's CPU time,
 * interleaved (every round runs each way over the same 64 MiB of format-2 chunks, the order rotating by round):
 * <ul>
 * <li>{@code heap+copy}: today's path. AES-256-GCM opens the chunk in place in the run's heap array, then the request
 *   worker copies it into 256 KiB direct buffers (Netty's, cycling through 64 of them, so cold as in the gateway).</li>
 * <li>{@code landing+heap+copy}: the same, plus the copy the backend read makes from the JDK's temporary direct buffer
 *   (128 KiB, reused, so warm) into the run array: the whole path the second lever (a backend client reading into
 *   direct memory) would replace.</li>
 * <li>{@code accp-direct-out}, {@code jdk-direct-out}: the first lever, the chunk opened from the heap array straight
 *   into a direct buffer with {@code Cipher.doFinal(ByteBuffer, ByteBuffer)}, by ACCP and by the JDK.</li>
 * <li>{@code accp-direct-inplace}, {@code jdk-direct-inplace}: the second lever's decryption, the chunk stored in and
 *   opened in place in a direct buffer (where the socket read would have put it).</li>
 * <li>{@code socket+heap+copy}, {@code socket-direct+jdk-inplace}: the whole path with a real socket read in front, the
 *   chunks arriving over loopback TCP from a thread that sends them over and over: today's read into the run array
 *   through {@code Socket}'s InputStream (as the SDK's Apache client reads, the JDK's temporary direct buffer
 *   included), ACCP's opening and the copy to Netty's buffers; against both levers, {@code SocketChannel.read} into
 *   direct memory and the JDK's opening in place there. The receive system calls count (a thread's CPU time is user
 *   and system time), the sending thread's CPU does not.</li>
 * <li>{@code channel+heap+copy}, {@code adaptor+heap+copy}: today's path but the run array filled through a
 *   {@code SocketChannel} (its read of a heap buffer goes through one temporary direct buffer as large as the read, so
 *   one system call takes whatever has arrived, where {@code Socket}'s takes at most 128 KiB), directly and through
 *   the channel's {@code Socket} adaptor's InputStream (what an HTTP client given such sockets would call).</li>
 * </ul>
 * The socket ways' sender is always ahead of the reader, and their figures did not carry over to the gateway: its
 * backend reads through channel sockets took 10 % more CPU against s3proxy, not less (getdirect's A/B in
 * "Levers tried (issue 23)"). The in-memory ways are the decryption and copies alone.
 *
 * <p>Each chunk's ciphertext is put back (untimed) after an in-place opening of a stored copy. Prints per way and
 * chunk size the median over the measured rounds of CPU ms per MiB, with min and max, and against each of the three
 * ways of today's path ({@code heap+copy}, {@code landing+heap+copy}, {@code socket+heap+copy}) the median of the
 * per-round (paired) differences and in how many rounds the way took less.
 *
 * <p>Run: {@code java -cp CLASSPATH io.coffer.benchmarks.ChunkToSocketCpuTime [MEASURED_ROUNDS] [WARMUP_ROUNDS]}
 * (defaults 9 and 3).
 */
public final class ChunkToSocketCpuTime {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final int TOTAL_MIB = 64;
    private static final int TAG = 16;
    private static final int[] SIZES = {1 << 20, 4 << 20};
    private static final int NETTY_BUFFER = 256 << 10;
    private static final int NETTY_BUFFERS = 64;
    private static final int LANDING = 128 << 10;
    private static final String[] WAYS = {"heap+copy", "landing+heap+copy", "accp-direct-out", "jdk-direct-out",
        "accp-direct-inplace", "jdk-direct-inplace", "socket+heap+copy", "socket-direct+jdk-inplace",
        "channel+heap+copy", "adaptor+heap+copy"};

    private final SecretKeySpec key = new SecretKeySpec(Data.random(32, 5), "AES");
    private final GCMParameterSpec nonce = new GCMParameterSpec(128, new byte[12]);
    private final Cipher accp;
    private final Cipher jdk;
    private final ByteBuffer[] netty = new ByteBuffer[NETTY_BUFFERS];
    private final ByteBuffer landing = ByteBuffer.allocateDirect(LANDING);
    private final ServerSocketChannel server;
    private int nextNetty;
    private long sink;

    private ChunkToSocketCpuTime(Provider accpProvider, Provider jdkProvider) throws GeneralSecurityException,
            IOException {
        server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        accp = Cipher.getInstance("AES/GCM/NoPadding", accpProvider);
        jdk = Cipher.getInstance("AES/GCM/NoPadding", jdkProvider);
        for (int i = 0; i < NETTY_BUFFERS; i++) {
            netty[i] = ByteBuffer.allocateDirect(NETTY_BUFFER);
        }
    }

    /** One chunk size's inputs: the sealed chunks (the pristine copy), and the heap and direct run memory. */
    private final class Chunks {
        final int size;
        final int count;
        final byte[] sealed;
        final byte[] run;
        final ByteBuffer direct;
        /** Loopback connections whose far ends send {@link #sealed} over and over. */
        final InputStream stream;
        final SocketChannel channel;
        final SocketChannel heapChannel;
        final InputStream adaptor;

        Chunks(int size) throws GeneralSecurityException, IOException {
            this.size = size;
            this.count = (TOTAL_MIB << 20) / size;
            byte[] plain = Data.random(size, size);
            // one chunk sealed under one key and the fixed nonce (as ChunkCipher does), repeated: the opening's cost
            // does not depend on the bytes
            Cipher sealer = Cipher.getInstance("AES/GCM/NoPadding", accp.getProvider());
            sealer.init(Cipher.ENCRYPT_MODE, key, nonce);
            byte[] one = sealer.doFinal(plain);
            sealed = new byte[count * (size + TAG)];
            for (int i = 0; i < count; i++) {
                System.arraycopy(one, 0, sealed, i * (size + TAG), one.length);
            }
            run = sealed.clone();
            direct = ByteBuffer.allocateDirect(sealed.length);
            direct.put(sealed).clear();
            Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.socket().getLocalPort());
            send(server.accept());
            stream = socket.getInputStream();
            channel = connect();
            heapChannel = connect();
            adaptor = connect().socket().getInputStream();
        }

        private SocketChannel connect() throws IOException {
            SocketChannel c = SocketChannel.open(server.getLocalAddress());
            send(server.accept());
            return c;
        }

        /** A daemon thread that writes the sealed chunks to {@code to} until the benchmark ends. */
        private void send(SocketChannel to) {
            Thread t = new Thread(() -> {
                try {
                    while (true) {
                        ByteBuffer all = ByteBuffer.wrap(sealed);
                        while (all.hasRemaining()) {
                            to.write(all);
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, "sender-" + size);
            t.setDaemon(true);
            t.start();
        }
    }

    /** Runs {@code way} over all of {@code c}'s chunks; returns this thread's CPU nanoseconds. */
    private long run(String way, Chunks c) throws GeneralSecurityException, IOException {
        int stored = c.size + TAG;
        long cpu = 0;
        for (int i = 0; i < c.count; i++) {
            int at = i * stored;
            long start = THREADS.getCurrentThreadCpuTime();
            switch (way) {
                case "heap+copy" -> {
                    openInPlace(accp, c.run, at, stored);
                    toNetty(c.run, at, c.size);
                }
                case "landing+heap+copy" -> {
                    for (int off = 0; off < stored; off += LANDING) {
                        int n = Math.min(LANDING, stored - off);
                        landing.clear();
                        landing.get(c.run, at + off, n);
                    }
                    // the landing buffer's bytes are not the chunk's: put the ciphertext back (untimed) first
                    cpu += THREADS.getCurrentThreadCpuTime() - start;
                    System.arraycopy(c.sealed, at, c.run, at, stored);
                    start = THREADS.getCurrentThreadCpuTime();
                    openInPlace(accp, c.run, at, stored);
                    toNetty(c.run, at, c.size);
                }
                case "accp-direct-out" -> openInto(accp, ByteBuffer.wrap(c.sealed, at, stored), c.direct, at, stored);
                case "jdk-direct-out" -> openInto(jdk, ByteBuffer.wrap(c.sealed, at, stored), c.direct, at, stored);
                case "accp-direct-inplace" -> openInto(accp, c.direct.duplicate().position(at).limit(at + stored),
                        c.direct, at, stored);
                case "jdk-direct-inplace" -> openInto(jdk, c.direct.duplicate().position(at).limit(at + stored),
                        c.direct, at, stored);
                case "socket+heap+copy" -> {
                    readFully(c.stream, c.run, at, stored);
                    openInPlace(accp, c.run, at, stored);
                    toNetty(c.run, at, c.size);
                }
                case "channel+heap+copy" -> {
                    ByteBuffer region = ByteBuffer.wrap(c.run, at, stored);
                    while (region.hasRemaining()) {
                        if (c.heapChannel.read(region) < 0) {
                            throw new EOFException();
                        }
                    }
                    openInPlace(accp, c.run, at, stored);
                    toNetty(c.run, at, c.size);
                }
                case "adaptor+heap+copy" -> {
                    readFully(c.adaptor, c.run, at, stored);
                    openInPlace(accp, c.run, at, stored);
                    toNetty(c.run, at, c.size);
                }
                case "socket-direct+jdk-inplace" -> {
                    ByteBuffer region = c.direct.duplicate().position(at).limit(at + stored);
                    while (region.hasRemaining()) {
                        if (c.channel.read(region) < 0) {
                            throw new EOFException();
                        }
                    }
                    openInto(jdk, c.direct.duplicate().position(at).limit(at + stored), c.direct, at, stored);
                }
                default -> throw new IllegalArgumentException(way);
            }
            cpu += THREADS.getCurrentThreadCpuTime() - start;
            // untimed: the ciphertext back where the next way opens it in place (a socket way leaves plaintext there)
            if (way.endsWith("inplace") || way.endsWith("direct-out")) {
                c.direct.put(at, c.sealed, at, stored);
            } else {
                System.arraycopy(c.sealed, at, c.run, at, stored);
            }
        }
        return cpu;
    }

    private static void readFully(InputStream in, byte[] b, int off, int len) throws IOException {
        for (int n; len > 0; off += n, len -= n) {
            n = in.read(b, off, len);
            if (n < 0) {
                throw new EOFException();
            }
        }
    }

    private void openInPlace(Cipher cipher, byte[] buf, int at, int stored) throws GeneralSecurityException {
        cipher.init(Cipher.DECRYPT_MODE, key, nonce);
        sink += cipher.doFinal(buf, at, stored, buf, at);
    }

    private void openInto(Cipher cipher, ByteBuffer in, ByteBuffer direct, int at, int stored)
            throws GeneralSecurityException {
        cipher.init(Cipher.DECRYPT_MODE, key, nonce);
        sink += cipher.doFinal(in, direct.duplicate().position(at).limit(at + stored));
    }

    /** The request worker's copy into Netty's pooled direct buffers. */
    private void toNetty(byte[] plain, int at, int length) {
        for (int off = 0; off < length; off += NETTY_BUFFER) {
            ByteBuffer b = netty[nextNetty++ % NETTY_BUFFERS];
            int n = Math.min(NETTY_BUFFER, length - off);
            b.clear();
            b.put(plain, at + off, n);
            sink += b.get(n - 1);
        }
    }

    /** The median of the per-round differences from {@code base} (same round), and in how many rounds it was lower. */
    private static String against(double[] v, double[] base) {
        double[] diff = new double[v.length];
        int lower = 0;
        for (int r = 0; r < v.length; r++) {
            diff[r] = v[r] - base[r];
            lower += v[r] < base[r] ? 1 : 0;
        }
        return String.format("%+.3f | %d of %d", ProviderCryptoCpuTime.median(diff), lower, v.length);
    }

    public static void main(String[] args) throws GeneralSecurityException, IOException {
        int measured = args.length > 0 ? Integer.parseInt(args[0]) : 9;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        JceWarmup.run();
        AmazonCorrettoCryptoProvider.INSTANCE.assertHealthy();
        ChunkToSocketCpuTime bench = new ChunkToSocketCpuTime(AmazonCorrettoCryptoProvider.INSTANCE,
                Security.getProvider("SunJCE"));
        List<Chunks> sizes = new ArrayList<>();
        for (int size : SIZES) {
            sizes.add(bench.new Chunks(size));
        }
        double[][][] msPerMib = new double[SIZES.length][WAYS.length][measured];
        for (int round = 0; round < warmup + measured; round++) {
            for (int s = 0; s < SIZES.length; s++) {
                for (int k = 0; k < WAYS.length; k++) {
                    int w = (k + round) % WAYS.length;
                    long cpu = bench.run(WAYS[w], sizes.get(s));
                    if (round >= warmup) {
                        msPerMib[s][w][round - warmup] = cpu / 1e6 / TOTAL_MIB;
                    }
                }
            }
        }
        System.out.printf("A large GET's chunk from the backend's socket to Netty's memory, ACCP %s and the JDK's "
                + "SunJCE, %d measured rounds after %d warm-up rounds, %d MiB per way and round, CPU ms per MiB "
                + "(medians [min-max])%n", AmazonCorrettoCryptoProvider.INSTANCE.getVersionStr(), measured, warmup,
                TOTAL_MIB);
        System.out.println("| way | chunk | ms/MiB | vs heap+copy | lower in rounds | vs landing+heap+copy | lower in"
                + " rounds | vs socket+heap+copy | lower in rounds |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (int s = 0; s < SIZES.length; s++) {
            for (int w = 0; w < WAYS.length; w++) {
                double[] v = msPerMib[s][w];
                System.out.printf("| %s | %d MiB | %.3f [%.3f-%.3f] | %s | %s | %s |%n", WAYS[w], SIZES[s] >> 20,
                        ProviderCryptoCpuTime.median(v), ProviderCryptoCpuTime.min(v), ProviderCryptoCpuTime.max(v),
                        against(v, msPerMib[s][0]), against(v, msPerMib[s][1]), against(v, msPerMib[s][6]));
            }
        }
        if (bench.sink == Long.MIN_VALUE) {
            System.out.print("");
        }
    }
}
