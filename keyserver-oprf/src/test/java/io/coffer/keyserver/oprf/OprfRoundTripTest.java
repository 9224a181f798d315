package io.coffer.keyserver.oprf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class OprfRoundTripTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final RsaOprfPrivateKey RSA = RsaOprfPrivateKey.generate(2048, RANDOM);
    private static final P256OprfPrivateKey P256 = P256OprfPrivateKey.generate(RANDOM);

    private static List<byte[]> inputs(int n) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(("chunk-" + i).getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    private static List<byte[]> roundTrip(OprfPrivateKey key, Suite suite, List<byte[]> in) throws OprfException {
        OprfClient client = Oprf.client(key.publicKey(), suite);
        OprfServer server = Oprf.server(key, suite);
        Blinded b = client.blind(in);
        return client.finalizeOutputs(b, server.blindEvaluate(b.elements()));
    }

    @Test
    void blindedEvaluationEqualsDirectEvaluationForEverySuite() throws Exception {
        for (Suite suite : Suite.values()) {
            OprfPrivateKey key = suite == Suite.RSA_FDH_SHA256 ? RSA : P256;
            List<byte[]> in = inputs(5);
            List<byte[]> out = roundTrip(key, suite, in);
            assertThat(out).hasSize(5);
            for (int i = 0; i < in.size(); i++) {
                assertThat(out.get(i)).hasSize(32).isEqualTo(Oprf.server(key, suite).evaluate(in.get(i)));
            }
            assertThat(out.get(0)).isNotEqualTo(out.get(1));
            assertThat(roundTrip(key, suite, in.subList(0, 1)).get(0)).isEqualTo(out.get(0));
        }
    }

    @Test
    void differentKeysGiveDifferentOutputs() throws Exception {
        List<byte[]> in = inputs(1);
        P256OprfPrivateKey other = P256OprfPrivateKey.generate(RANDOM);
        assertThat(roundTrip(P256, Suite.P256_SHA256_VOPRF, in).get(0))
                .isNotEqualTo(roundTrip(other, Suite.P256_SHA256_VOPRF, in).get(0));
        assertThat(other.keyId()).isNotEqualTo(P256.keyId());
    }

    @Test
    void flippedBitInRsaSignatureIsRejected() throws Exception {
        OprfClient client = Oprf.client(RSA.publicKey());
        Blinded b = client.blind(inputs(2));
        Evaluation ev = Oprf.server(RSA).blindEvaluate(b.elements());
        List<byte[]> elements = new ArrayList<>(ev.elements());
        byte[] bad = elements.get(1).clone();
        bad[bad.length - 1] ^= 1;
        elements.set(1, bad);
        assertThatThrownBy(() -> client.finalizeOutputs(b, new Evaluation(elements, new byte[0])))
                .isInstanceOf(OprfException.class);
    }

    @Test
    void flippedBitInVoprfElementOrProofIsRejected() throws Exception {
        OprfClient client = Oprf.client(P256.publicKey());
        Blinded b = client.blind(inputs(3));
        Evaluation ev = Oprf.server(P256).blindEvaluate(b.elements());
        for (int bit = 0; bit < 8; bit++) {
            List<byte[]> elements = new ArrayList<>(ev.elements());
            byte[] bad = elements.get(2).clone();
            bad[32] ^= (byte) (1 << bit);
            elements.set(2, bad);
            assertThatThrownBy(() -> client.finalizeOutputs(b, new Evaluation(elements, ev.proof())))
                    .isInstanceOf(OprfException.class);
        }
        byte[] proof = ev.proof();
        proof[40] ^= 0x10;
        assertThatThrownBy(() -> client.finalizeOutputs(b, new Evaluation(ev.elements(), proof)))
                .isInstanceOf(OprfException.class);
        assertThat(client.finalizeOutputs(b, ev)).hasSize(3);
    }

    @Test
    void answerFromAnotherKeyFailsVerification() throws Exception {
        OprfClient client = Oprf.client(P256.publicKey());
        Blinded b = client.blind(inputs(1));
        Evaluation forged = Oprf.server(P256OprfPrivateKey.generate(RANDOM)).blindEvaluate(b.elements());
        assertThatThrownBy(() -> client.finalizeOutputs(b, forged)).isInstanceOf(OprfException.class);
    }

    @Test
    void serverRejectsOutOfRangeAndOffCurveElements() {
        OprfServer rsa = Oprf.server(RSA);
        byte[] big = RSA.publicKey().modulus().toByteArray();
        byte[] atN = new byte[256];
        System.arraycopy(big, big.length - 256, atN, 0, 256);
        assertThatThrownBy(() -> rsa.blindEvaluate(List.of(atN))).isInstanceOf(OprfException.class);
        assertThatThrownBy(() -> rsa.blindEvaluate(List.of(new byte[256]))).isInstanceOf(OprfException.class);
        assertThatThrownBy(() -> rsa.blindEvaluate(List.of(new byte[255]))).isInstanceOf(OprfException.class);
        OprfServer ec = Oprf.server(P256);
        byte[] offCurve = offCurveEncoding();
        assertThatThrownBy(() -> ec.blindEvaluate(List.of(offCurve))).isInstanceOf(OprfException.class);
        byte[] xAboveP = new byte[33];
        Arrays.fill(xAboveP, (byte) 0xff);
        xAboveP[0] = 0x03;
        assertThatThrownBy(() -> ec.blindEvaluate(List.of(xAboveP))).isInstanceOf(OprfException.class);
        byte[] uncompressedPrefix = P256.publicKey().element();
        uncompressedPrefix[0] = 0x04;
        assertThatThrownBy(() -> ec.blindEvaluate(List.of(uncompressedPrefix))).isInstanceOf(OprfException.class);
    }

    @Test
    void keysSurvivePkcs8AndSpkiAndNeverPrintSecrets() throws Exception {
        for (OprfPrivateKey key : List.of(RSA, P256)) {
            OprfPrivateKey back = OprfPrivateKey.fromPkcs8(key.exportSecretPkcs8());
            assertThat(back.keyId()).isEqualTo(key.keyId());
            assertThat(OprfPublicKey.fromSpki(key.publicKey().spki()).keyId()).isEqualTo(key.keyId());
            assertThat(key.toString()).contains(key.keyId().toHex()).doesNotContain(RSA.publicKey().modulus().toString(16).substring(0, 16));
            assertThat(back.toString()).isEqualTo(key.toString());
        }
        assertThat(P256.toString()).hasSizeLessThan(60);
    }

    /** A compressed encoding whose x has no y on P-256 (x^3 - 3x + b is not a square). */
    private static byte[] offCurveEncoding() {
        for (int x = 1; ; x++) {
            byte[] enc = new byte[33];
            enc[0] = 0x02;
            enc[32] = (byte) x;
            try {
                P256Group.INSTANCE.curve.decodePoint(enc);
            } catch (IllegalArgumentException notOnCurve) {
                return enc;
            }
        }
    }
}
