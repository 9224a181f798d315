package io.coffer.keyserver.oprf;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.math.ec.ECPoint;

/** RFC 9497 P256-SHA256 behind {@link OprfClient}/{@link OprfServer}, in OPRF or VOPRF mode. */
final class P256Suite {
    private P256Suite() {}

    static int modeOf(Suite suite) {
        switch (suite) {
            case P256_SHA256_OPRF:
                return P256Oprf.MODE_OPRF;
            case P256_SHA256_VOPRF:
                return P256Oprf.MODE_VOPRF;
            default:
                throw new IllegalArgumentException("not a P-256 suite: " + suite);
        }
    }

    static final class Client implements OprfClient {
        private final P256OprfPublicKey key;
        private final Suite suite;
        private final P256Oprf oprf;
        private final SecureRandom random;

        Client(P256OprfPublicKey key, Suite suite, SecureRandom random) {
            this.key = key;
            this.suite = suite;
            this.oprf = P256Oprf.mode(modeOf(suite));
            this.random = random;
        }

        @Override
        public Suite suite() {
            return suite;
        }

        @Override
        public KeyId keyId() {
            return key.keyId();
        }

        @Override
        public int elementLength() {
            return P256Group.ELEMENT_LENGTH;
        }

        @Override
        public Blinded blind(List<byte[]> inputs) throws OprfException {
            P256Group g = P256Group.INSTANCE;
            List<byte[]> elements = new ArrayList<>(inputs.size());
            Object[] secrets = new Object[inputs.size()];
            for (int i = 0; i < inputs.size(); i++) {
                byte[] blind = g.serializeScalar(g.randomNonZeroScalar(random));
                elements.add(oprf.blind(inputs.get(i), blind));
                secrets[i] = blind;
            }
            return new Blinded(List.copyOf(inputs), elements, secrets);
        }

        @Override
        public List<byte[]> finalizeOutputs(Blinded blinded, Evaluation evaluation) throws OprfException {
            if (evaluation.size() != blinded.size()) {
                throw new OprfException("answer does not match the query");
            }
            if (suite == Suite.P256_SHA256_VOPRF) {
                oprf.verifyProof(key.element(), blinded.elements(), evaluation.elements(), evaluation.proof());
            } else if (evaluation.proof().length != 0) {
                throw new OprfException("unexpected proof");
            }
            List<byte[]> out = new ArrayList<>(blinded.size());
            for (int i = 0; i < blinded.size(); i++) {
                out.add(oprf.finalizeOutput(blinded.inputs().get(i), (byte[]) blinded.secret(i), evaluation.elements().get(i)));
            }
            return out;
        }
    }

    static final class Server implements OprfServer {
        private final P256OprfPrivateKey key;
        private final Suite suite;
        private final P256Oprf oprf;
        private final SecureRandom random;
        private final BigInteger k;
        private final ECPoint pk;

        Server(P256OprfPrivateKey key, Suite suite, SecureRandom random) {
            this.key = key;
            this.suite = suite;
            this.oprf = P256Oprf.mode(modeOf(suite));
            this.random = random;
            P256Group g = P256Group.INSTANCE;
            this.k = new BigInteger(1, key.scalar());
            this.pk = g.multiplyGenerator(k);
        }

        @Override
        public Suite suite() {
            return suite;
        }

        @Override
        public KeyId keyId() {
            return key.keyId();
        }

        @Override
        public OprfPublicKey publicKey() {
            return key.publicKey();
        }

        @Override
        public int elementLength() {
            return P256Group.ELEMENT_LENGTH;
        }

        @Override
        public Evaluation blindEvaluate(List<byte[]> blindedElements) throws OprfException {
            if (suite != Suite.P256_SHA256_VOPRF) {
                return new Evaluation(oprf.blindEvaluate(key.scalar(), blindedElements), new byte[0]);
            }
            List<byte[]> answer = oprf.blindEvaluateWithProof(k, pk, blindedElements, P256Group.INSTANCE.randomNonZeroScalar(random));
            return new Evaluation(answer.subList(0, answer.size() - 1), answer.get(answer.size() - 1));
        }

        @Override
        public byte[] evaluate(byte[] input) throws OprfException {
            return oprf.evaluate(key.scalar(), input);
        }
    }
}
