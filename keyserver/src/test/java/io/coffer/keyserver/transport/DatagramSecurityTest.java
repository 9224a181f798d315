package io.coffer.keyserver.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.keyserver.KeyServerFixture;
import io.coffer.keyserver.oprf.Blinded;
import io.coffer.keyserver.oprf.Oprf;
import io.coffer.keyserver.oprf.OprfClient;
import io.coffer.keyserver.pki.KeyServerDirectory;
import io.coffer.keyserver.server.KeyServer;
import io.coffer.keyserver.server.KeyServerInit;
import io.coffer.keyserver.wire.DatagramFrame;
import io.coffer.keyserver.wire.EvaluationRequest;
import io.coffer.keyserver.wire.EvaluationResponse;
import io.coffer.keyserver.wire.SessionGrant;
import io.coffer.keyserver.wire.Status;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Raw OPRFv2 datagrams against a real server: only authentic, fresh, well-formed datagrams get answers. */
class DatagramSecurityTest {
    @TempDir
    static Path tmp;
    static KeyServerDirectory dir;
    static KeyServer server;
    static HttpClient http;
    static OprfClient oprf;
    private SessionGrant grant;
    private DatagramSocket socket;

    @BeforeAll
    static void start() throws Exception {
        dir = KeyServerFixture.init(tmp.resolve("ks"), KeyServerInit.OprfAlgorithm.P256, "gw1");
        server = KeyServerFixture.start(dir, "none");
        http = KeyServerFixture.http(KeyServerFixture.tls(dir, "gw1", dir));
        oprf = Oprf.client(dir.loadOprfPublicKey(dir.currentKeyId()));
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    @BeforeEach
    void session() throws Exception {
        var resp = KeyServerFixture.post(http, server, "/session", new byte[0]);
        assertThat(resp.statusCode()).isEqualTo(200);
        grant = SessionGrant.decode(resp.body());
        assertThat(grant.udpPort()).isEqualTo(server.udpPort());
        socket = new DatagramSocket();
        socket.connect(new InetSocketAddress("127.0.0.1", server.udpPort()));
    }

    private byte[] request() throws Exception {
        Blinded b = oprf.blind(List.of(new byte[] {1, 2, 3}));
        return new EvaluationRequest(oprf.suite(), oprf.keyId(), b.elements()).encode();
    }

    private byte[] frame(long seq, byte[] body) {
        return DatagramFrame.seal(DatagramFrame.REQUEST, grant.sessionId(), seq, body, grant.sessionKey());
    }

    private void send(byte[] datagram) throws Exception {
        socket.send(new DatagramPacket(datagram, datagram.length));
    }

    /** The next answer within the timeout, or null. */
    private byte[] receive(int timeoutMs) throws Exception {
        socket.setSoTimeout(timeoutMs);
        byte[] buf = new byte[2048];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        try {
            socket.receive(p);
            return Arrays.copyOf(buf, p.getLength());
        } catch (SocketTimeoutException e) {
            return null;
        }
    }

    private void assertDroppedFor(DropReason reason, byte[] datagram) throws Exception {
        double before = server.metrics().dropCount(reason);
        send(datagram);
        assertThat(receive(300)).as("answer to a datagram that should be dropped for %s", reason).isNull();
        assertThat(KeyServerFixture.eventually(() -> server.metrics().dropCount(reason) == before + 1)).as(reason.label()).isTrue();
    }

    @Test
    void authenticFreshDatagramIsAnsweredWithMacAndEchoedSequence() throws Exception {
        send(frame(7, request()));
        byte[] answer = receive(2000);
        assertThat(answer).isNotNull();
        assertThat(DatagramFrame.verify(DatagramFrame.RESPONSE, answer, grant.sessionKey())).isTrue();
        assertThat(DatagramFrame.verify(DatagramFrame.REQUEST, answer, grant.sessionKey())).isFalse();
        assertThat(DatagramFrame.sequence(answer)).isEqualTo(7);
        EvaluationResponse resp = EvaluationResponse.decode(DatagramFrame.body(answer));
        assertThat(resp.status()).isEqualTo(Status.OK);
        assertThat(resp.keyId()).isEqualTo(oprf.keyId());
    }

    @Test
    void forgedMacIsDropped() throws Exception {
        byte[] f = frame(1, request());
        f[f.length - 1] ^= 0x01;
        assertDroppedFor(DropReason.BAD_MAC, f);
        byte[] body = frame(2, request());
        body[30] ^= 0x01;
        assertDroppedFor(DropReason.BAD_MAC, body);
    }

    @Test
    void replayedAndNonIncreasingSequenceNumbersAreDropped() throws Exception {
        byte[] f = frame(10, request());
        send(f);
        assertThat(receive(2000)).isNotNull();
        assertDroppedFor(DropReason.REPLAY, f);
        assertDroppedFor(DropReason.REPLAY, frame(9, request()));
        assertDroppedFor(DropReason.REPLAY, frame(0, request()));
        send(frame(11, request()));
        assertThat(receive(2000)).isNotNull();
    }

    @Test
    void foreignSessionIdIsDropped() throws Exception {
        byte[] id = new byte[16];
        new SecureRandom().nextBytes(id);
        assertDroppedFor(DropReason.UNKNOWN_SESSION, DatagramFrame.seal(DatagramFrame.REQUEST, id, 1, request(), grant.sessionKey()));
    }

    @Test
    void truncatedOversizedAndMalformedDatagramsAreDropped() throws Exception {
        byte[] f = frame(1, request());
        assertDroppedFor(DropReason.TRUNCATED, Arrays.copyOf(f, 40));
        assertDroppedFor(DropReason.OVERSIZED, new byte[1401]);
        assertDroppedFor(DropReason.OVERSIZED, frame(2, new byte[1400]));
        byte[] bad = request();
        bad[0] = 0x7f;
        assertDroppedFor(DropReason.MALFORMED, frame(3, bad));
        byte[] shortBody = Arrays.copyOf(request(), 20);
        assertDroppedFor(DropReason.MALFORMED, frame(4, shortBody));
    }

    @Test
    void metricsEndpointExportsDropsByReason() throws Exception {
        assertDroppedFor(DropReason.UNKNOWN_SESSION, new byte[200]);
        var resp = KeyServerFixture.get(http, server, "/metrics");
        assertThat(resp.statusCode()).isEqualTo(200);
        assertThat(resp.body()).contains("keyserver_drops_total{reason=\"unknown_session\"}")
                .contains("keyserver_request_latency_seconds_count").contains("# TYPE keyserver_drops_total counter");
        assertThat(KeyServerFixture.get(http, server, "/health").body()).isEqualTo("ok\n");
    }
}
