package io.coffer.keyserver.oprf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The server-side fast paths (reused RSA blinding, single-pass VOPRF evaluation with proof) give the RFC's values. */
class ServerEvaluationTest {
    private static final SecureRandom RANDOM = new SecureRandom();

    private static List<byte[]> inputs(String prefix, int n) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add((prefix + i).getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    @Test
    void rsaAnswersStayCorrectAcrossBlindingRefreshesAndThreads() throws Exception {
        RsaOprfPrivateKey key = RsaOprfPrivateKey.generate(1024, RANDOM);
        OprfServer server = Oprf.server(key);
        OprfClient client = Oprf.client(key.publicKey());
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                String prefix = "thread-" + t + "-";
                done.add(pool.submit(() -> {
                    int checked = 0;
                    // enough single-element queries for every thread to refresh its blinding pair twice
                    for (int i = 0; i < 2 * RsaOprfPrivateKey.BLINDING_REFRESH + 5; i++) {
                        List<byte[]> in = inputs(prefix + i + "-", 1);
                        Blinded b = client.blind(in);
                        List<byte[]> out = client.finalizeOutputs(b, server.blindEvaluate(b.elements()));
                        assertThat(out.get(0)).isEqualTo(server.evaluate(in.get(0)));
                        checked++;
                    }
                    return checked;
                }));
            }
            for (Future<Integer> f : done) {
                assertThat(f.get()).isEqualTo(2 * RsaOprfPrivateKey.BLINDING_REFRESH + 5);
            }
        } finally {
            pool.shutdownNow();
        }
        BigInteger x = new BigInteger(1000, RANDOM);
        BigInteger n = key.publicKey().modulus();
        for (int i = 0; i < RsaOprfPrivateKey.BLINDING_REFRESH + 2; i++) {
            assertThat(key.rawSign(x, RANDOM).modPow(key.publicKey().publicExponent(), n)).isEqualTo(x);
        }
    }

    @Test
    void voprfSinglePassEvaluationEqualsBlindEvaluateThenGenerateProof() throws Exception {
        P256OprfPrivateKey key = P256OprfPrivateKey.generate(RANDOM);
        P256Oprf voprf = P256Oprf.mode(P256Oprf.MODE_VOPRF);
        OprfClient client = Oprf.client(key.publicKey(), Suite.P256_SHA256_VOPRF);
        P256Group g = P256Group.INSTANCE;
        BigInteger k = new BigInteger(1, key.scalar());
        for (int n : new int[] {1, 2, 32}) {
            Blinded b = client.blind(inputs("batch-" + n + "-", n));
            BigInteger r = g.randomNonZeroScalar(RANDOM);
            List<byte[]> fast = voprf.blindEvaluateWithProof(k, g.multiplyGenerator(k), b.elements(), r);
            List<byte[]> evaluated = voprf.blindEvaluate(key.scalar(), b.elements());
            byte[] proof = voprf.generateProof(key.scalar(), b.elements(), evaluated, g.serializeScalar(r));
            assertThat(fast).hasSize(n + 1);
            for (int i = 0; i < n; i++) {
                assertThat(fast.get(i)).isEqualTo(evaluated.get(i));
            }
            assertThat(fast.get(n)).isEqualTo(proof);
            voprf.verifyProof(key.publicKey().element(), b.elements(), evaluated, proof);
        }
    }

    @Test
    void voprfServerAnswersVerifyAndMatchDirectEvaluation() throws Exception {
        P256OprfPrivateKey key = P256OprfPrivateKey.generate(RANDOM);
        OprfServer server = Oprf.server(key, Suite.P256_SHA256_VOPRF);
        OprfClient client = Oprf.client(key.publicKey(), Suite.P256_SHA256_VOPRF);
        List<byte[]> in = inputs("voprf-", 7);
        Blinded b = client.blind(in);
        Evaluation ev = server.blindEvaluate(b.elements());
        List<byte[]> out = client.finalizeOutputs(b, ev);
        for (int i = 0; i < in.size(); i++) {
            assertThat(out.get(i)).isEqualTo(server.evaluate(in.get(i)));
        }
        List<byte[]> swapped = new ArrayList<>(ev.elements());
        swapped.set(0, ev.elements().get(1));
        swapped.set(1, ev.elements().get(0));
        assertThatThrownBy(() -> client.finalizeOutputs(b, new Evaluation(swapped, ev.proof()))).isInstanceOf(OprfException.class);
        List<byte[]> offCurve = new ArrayList<>(b.elements());
        byte[] bad = offCurve.get(3).clone();
        bad[0] = 0x05;
        offCurve.set(3, bad);
        assertThatThrownBy(() -> server.blindEvaluate(offCurve)).isInstanceOf(OprfException.class);
    }
}
