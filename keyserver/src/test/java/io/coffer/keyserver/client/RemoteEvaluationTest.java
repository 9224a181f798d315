package io.coffer.keyserver.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.keyserver.KeyServerFixture;
import io.coffer.keyserver.oprf.Blinded;
import io.coffer.keyserver.oprf.KeyId;
import io.coffer.keyserver.oprf.Oprf;
import io.coffer.keyserver.oprf.OprfClient;
import io.coffer.keyserver.pki.KeyServerDirectory;
import io.coffer.keyserver.server.KeyServer;
import io.coffer.keyserver.server.KeyServerInit;
import io.coffer.keyserver.wire.EvaluationRequest;
import io.coffer.keyserver.wire.EvaluationResponse;
import io.coffer.keyserver.wire.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RemoteEvaluationTest {
    @TempDir
    static Path tmp;
    static KeyServerDirectory rsaDir;
    static KeyServerDirectory p256Dir;
    static KeyServer rsaServer;
    static KeyServer p256Server;

    @BeforeAll
    static void start() throws Exception {
        rsaDir = KeyServerFixture.init(tmp.resolve("rsa"), KeyServerInit.OprfAlgorithm.RSA, "gw1");
        p256Dir = KeyServerFixture.init(tmp.resolve("p256"), KeyServerInit.OprfAlgorithm.P256, "gw1");
        rsaServer = KeyServerFixture.start(rsaDir, "none");
        p256Server = KeyServerFixture.start(p256Dir, "none");
    }

    @AfterAll
    static void stop() {
        rsaServer.stop();
        p256Server.stop();
    }

    private static List<byte[]> inputs(int n, String prefix) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add((prefix + i).getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    @Test
    void remoteOutputsOverBothTransportsEqualLocalEvaluatorForBothSuites() throws Exception {
        for (KeyServerDirectory dir : List.of(rsaDir, p256Dir)) {
            KeyServer server = dir == rsaDir ? rsaServer : p256Server;
            List<byte[]> in = inputs(12, "chunk-");
            List<byte[]> local;
            try (LocalEvaluator le = LocalEvaluator.fromDirectory(dir.root())) {
                local = le.evaluate(in);
                assertThat(le.keyId()).isEqualTo(server.currentKeyId());
            }
            for (KeyServerClient.Transport t : KeyServerClient.Transport.values()) {
                try (KeyServerClient c = KeyServerFixture.client(dir, server, "gw1", t).cacheSize(0).build()) {
                    List<byte[]> remote = c.evaluate(in);
                    assertThat(remote).hasSize(12);
                    for (int i = 0; i < in.size(); i++) {
                        assertThat(remote.get(i)).as("%s %s #%d", dir.root().getFileName(), t, i).hasSize(32).isEqualTo(local.get(i));
                    }
                    Set<String> distinct = new HashSet<>();
                    remote.forEach(k -> distinct.add(HexFormat.of().formatHex(k)));
                    assertThat(distinct).hasSize(12);
                    assertThat(c.evaluate(in.get(3))).isEqualTo(local.get(3));
                }
            }
        }
    }

    @Test
    void anOpenedExchangeCarriesRawQueriesOnBothTransports() throws Exception {
        List<byte[]> in = inputs(3, "raw-");
        List<byte[]> local;
        try (LocalEvaluator le = LocalEvaluator.fromDirectory(p256Dir.root())) {
            local = le.evaluate(in);
        }
        OprfClient oprf = Oprf.client(p256Dir.loadOprfPublicKey(p256Server.currentKeyId()));
        for (KeyServerClient.Transport t : KeyServerClient.Transport.values()) {
            try (Exchange exchange = KeyServerFixture.client(p256Dir, p256Server, "gw1", t).openExchange()) {
                exchange.connect();
                Blinded blinded = oprf.blind(in);
                byte[] request = new EvaluationRequest(oprf.suite(), oprf.keyId(), blinded.elements()).encode();
                EvaluationResponse answer = EvaluationResponse.decode(exchange.exchange(request));
                assertThat(answer.status()).as("%s", t).isEqualTo(Status.OK);
                List<byte[]> out = oprf.finalizeOutputs(blinded, answer.evaluation());
                for (int i = 0; i < in.size(); i++) {
                    assertThat(out.get(i)).as("%s #%d", t, i).isEqualTo(local.get(i));
                }
            }
        }
    }

    @Test
    void duplicateAndCachedInputsAreAnsweredInOrder() throws Exception {
        try (KeyServerClient c = KeyServerFixture.client(p256Dir, p256Server, "gw1", KeyServerClient.Transport.V2).build()) {
            byte[] a = "a".getBytes(StandardCharsets.UTF_8);
            byte[] b = "b".getBytes(StandardCharsets.UTF_8);
            List<byte[]> first = c.evaluate(List.of(a, b, a));
            assertThat(first.get(0)).isEqualTo(first.get(2)).isNotEqualTo(first.get(1));
            double before = p256Server.metrics().count("keyserver.queries", "transport", "v2");
            List<byte[]> again = c.evaluate(List.of(b, a));
            assertThat(again.get(0)).isEqualTo(first.get(1));
            assertThat(again.get(1)).isEqualTo(first.get(0));
            assertThat(p256Server.metrics().count("keyserver.queries", "transport", "v2")).isEqualTo(before);
        }
    }

    @Test
    void tamperedElementOrProofIsRejectedAsVerificationFailure() throws Exception {
        // RSA: flip the last byte of the first signature; P-256: flip a byte of the first element, or of the proof
        int[][] cases = {{0, 16 + 255}, {1, 16 + 32}, {1, -1}};
        for (int[] c : cases) {
            KeyServerDirectory dir = c[0] == 0 ? rsaDir : p256Dir;
            KeyServer server = c[0] == 0 ? rsaServer : p256Server;
            for (KeyServerClient.Transport t : KeyServerClient.Transport.values()) {
                try (KeyServerClient client = KeyServerFixture.client(dir, server, "gw1", t).cacheSize(0)
                        .answerFilter(raw -> {
                            byte[] copy = raw.clone();
                            copy[c[1] < 0 ? copy.length + c[1] : c[1]] ^= 0x01;
                            return copy;
                        }).build()) {
                    assertThatThrownBy(() -> client.evaluate(inputs(2, "x")))
                            .isInstanceOfSatisfying(KeyServerException.class,
                                    e -> assertThat(e.reason()).isEqualTo(KeyServerException.Reason.VERIFICATION_FAILED));
                }
            }
        }
    }

    @Test
    void answerNamingAnotherKeyIsAProtocolError() throws Exception {
        try (KeyServerClient client = KeyServerFixture.client(p256Dir, p256Server, "gw1", KeyServerClient.Transport.V1)
                .answerFilter(raw -> {
                    byte[] copy = raw.clone();
                    copy[4] ^= 0x01;
                    return copy;
                }).build()) {
            assertThatThrownBy(() -> client.evaluate(inputs(1, "y")))
                    .isInstanceOfSatisfying(KeyServerException.class,
                            e -> assertThat(e.reason()).isEqualTo(KeyServerException.Reason.PROTOCOL));
        }
    }

    @Test
    void clientCertificateFromAnotherCaIsRefusedOnV1AndKsInit() throws Exception {
        KeyServerDirectory other = KeyServerFixture.init(tmp.resolve("other"), KeyServerInit.OprfAlgorithm.P256, "intruder");
        double queries = p256Server.metrics().count("keyserver.queries", "transport", "v1")
                + p256Server.metrics().count("keyserver.queries", "transport", "v2");
        for (KeyServerClient.Transport t : KeyServerClient.Transport.values()) {
            try (KeyServerClient c = KeyServerClient.builder().httpsPort(p256Server.httpsPort()).transport(t)
                    .credentials(other.clientCertificate("intruder"), other.clientKey("intruder"), p256Dir.caCertificate())
                    .publicKey(p256Dir.oprfPublicKey(p256Dir.currentKeyId())).build()) {
                assertThatThrownBy(() -> c.evaluate(inputs(1, "z")))
                        .isInstanceOfSatisfying(KeyServerException.class,
                                e -> assertThat(e.reason()).isEqualTo(KeyServerException.Reason.UNAVAILABLE));
            }
        }
        assertThat(p256Server.metrics().count("keyserver.queries", "transport", "v1")
                + p256Server.metrics().count("keyserver.queries", "transport", "v2")).isEqualTo(queries);
        assertThat(KeyServerFixture.eventually(() -> p256Server.metrics().registry()
                .find("keyserver.tls.handshake.failures").counter() != null)).isTrue();
    }

    @Test
    void stoppedServerFailsFastWithUnavailable() throws Exception {
        KeyServer s = KeyServerFixture.start(p256Dir, "none");
        KeyServerClient.Builder b = KeyServerFixture.client(p256Dir, s, "gw1", KeyServerClient.Transport.V2);
        s.stop();
        for (KeyServerClient.Transport t : KeyServerClient.Transport.values()) {
            try (KeyServerClient c = b.transport(t).build()) {
                long start = System.nanoTime();
                assertThatThrownBy(() -> c.evaluate(inputs(1, "down")))
                        .isInstanceOfSatisfying(KeyServerException.class,
                                e -> assertThat(e.reason()).isEqualTo(KeyServerException.Reason.UNAVAILABLE));
                assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(5000);
            }
        }
    }

    @Test
    void rotatedKeyGetsNewIdAndOldKeyStillAnswersUnderItsOwnId() throws Exception {
        Path dirPath = tmp.resolve("rotate");
        KeyServerDirectory dir = KeyServerFixture.init(dirPath, KeyServerInit.OprfAlgorithm.P256, "gw1");
        KeyId old = dir.currentKeyId();
        KeyServerClient.Builder oldClient;
        List<byte[]> before;
        try (KeyServer s = KeyServerFixture.start(dir, "none")) {
            oldClient = KeyServerFixture.client(dir, s, "gw1", KeyServerClient.Transport.V1);
            try (KeyServerClient c = oldClient.build()) {
                before = c.evaluate(inputs(2, "r"));
            }
        }
        KeyId fresh = KeyServerInit.rotateKey(dir, KeyServerInit.OprfAlgorithm.P256, 2048);
        assertThat(fresh).isNotEqualTo(old);
        assertThat(dir.currentKeyId()).isEqualTo(fresh);
        try (KeyServer s = KeyServerFixture.start(dir, "none")) {
            try (KeyServerClient c = oldClient.httpsPort(s.httpsPort()).publicKey(dir.oprfPublicKey(old)).build()) {
                assertThat(c.keyId()).isEqualTo(old);
                List<byte[]> again = c.evaluate(inputs(2, "r"));
                assertThat(again.get(0)).isEqualTo(before.get(0));
            }
            try (KeyServerClient c = KeyServerFixture.client(dir, s, "gw1", KeyServerClient.Transport.V2).build()) {
                assertThat(c.keyId()).isEqualTo(fresh);
                assertThat(c.evaluate(inputs(2, "r")).get(0)).isNotEqualTo(before.get(0));
            }
        }
    }
}
