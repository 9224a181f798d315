package io.coffer.keyserver.client;

import io.coffer.keyserver.wire.DatagramFrame;
import io.coffer.keyserver.wire.ProtocolLimits;
import io.coffer.keyserver.wire.SessionGrant;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Arrays;

/**
 * OPRFv2 round trips. KSInit ({@code POST /session} over mutual TLS) gives a session id and key; each
 * query is then one datagram with the next sequence number, answered by one datagram that must carry the
 * same session id and sequence number and a valid tag. Anything else received is ignored. A new session is
 * made when the current one nears its lifetime, and after a timeout (the server may have restarted).
 * Not thread-safe: {@link KeyServerClient} serialises queries.
 */
final class DatagramExchange implements Exchange {
    private final HttpsExchange init;
    private final String host;
    private final Duration timeout;
    private final int maxDatagram;
    /** One receive buffer for every answer: queries are serialised. */
    private final byte[] buf = new byte[65536];
    private DatagramSocket socket;
    private SessionGrant grant;
    private long sessionDeadline;
    private long sequence;

    DatagramExchange(HttpsExchange init, String host, Duration timeout, int maxDatagram) {
        this.init = init;
        this.host = host;
        this.timeout = timeout;
        this.maxDatagram = maxDatagram;
    }

    private void ensureSession() throws IOException, InterruptedException {
        if (grant != null && System.nanoTime() - sessionDeadline < 0) {
            return;
        }
        SessionGrant g = init.openSession();
        if (socket != null) {
            socket.close();
        }
        DatagramSocket s = new DatagramSocket();
        s.connect(new InetSocketAddress(host, g.udpPort()));
        socket = s;
        grant = g;
        sequence = 0;
        // renew at 90% of the lifetime so a session never expires between send and answer
        sessionDeadline = System.nanoTime() + Duration.ofSeconds(g.lifetimeSeconds()).toNanos() / 10 * 9;
    }

    @Override
    public void connect() throws IOException, InterruptedException {
        ensureSession();
    }

    @Override
    public byte[] exchange(byte[] request) throws IOException, InterruptedException {
        ensureSession();
        long seq = ++sequence;
        byte[] id = grant.sessionId();
        byte[] key = grant.sessionKey();
        byte[] frame = DatagramFrame.seal(DatagramFrame.REQUEST, id, seq, request, key);
        socket.send(new DatagramPacket(frame, frame.length));
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                grant = null;
                throw new SocketTimeoutException("no OPRFv2 answer within " + timeout.toMillis() + " ms");
            }
            socket.setSoTimeout((int) Math.max(1, left / 1_000_000));
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            try {
                socket.receive(p);
            } catch (SocketTimeoutException e) {
                continue;
            }
            byte[] in = Arrays.copyOf(p.getData(), p.getLength());
            if (DatagramFrame.answerSequence(in, id, key) == seq) {
                return DatagramFrame.body(in);
            }
        }
    }

    @Override
    public int capacity(int elementLength, int proofLength) {
        return ProtocolLimits.elementsPerDatagram(maxDatagram, elementLength, proofLength);
    }

    @Override
    public void close() {
        if (socket != null) {
            socket.close();
        }
        init.close();
    }
}
