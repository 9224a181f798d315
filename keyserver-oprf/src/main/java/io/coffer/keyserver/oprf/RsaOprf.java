package io.coffer.keyserver.oprf;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

/**
 * DupLESS RSA-OPRF. Client: x = H(m) * r^e mod N; server: y = x^d mod N; client: s = y * r^-1 mod N,
 * checked s^e == H(m) mod N; output K = SHA-256("COFFER-RSA-OPRF-v1" || key id || I2OSP(s, k)).
 * H is {@link RsaBlinding#fullDomainHash}. Elements are I2OSP(value, k), k = byte length of N.
 */
final class RsaOprf {
    private static final byte[] OUTPUT_TAG = Octets.ascii("COFFER-RSA-OPRF-v1");

    private RsaOprf() {}

    static byte[] output(RsaOprfPublicKey key, BigInteger signature) {
        return Octets.sha256(OUTPUT_TAG, key.keyId().toBytes(), Octets.i2osp(signature, key.modulusLength()));
    }

    static BigInteger decode(RsaOprfPublicKey key, byte[] element) throws OprfException {
        if (element.length != key.modulusLength()) {
            throw new OprfException("invalid element length");
        }
        BigInteger v = Octets.os2ip(element);
        if (v.signum() == 0 || v.compareTo(key.modulus()) >= 0) {
            throw new OprfException("element out of range");
        }
        return v;
    }

    static final class Client implements OprfClient {
        private final RsaOprfPublicKey key;
        private final SecureRandom random;

        Client(RsaOprfPublicKey key, SecureRandom random) {
            this.key = key;
            this.random = random;
        }

        @Override
        public Suite suite() {
            return Suite.RSA_FDH_SHA256;
        }

        @Override
        public KeyId keyId() {
            return key.keyId();
        }

        @Override
        public int elementLength() {
            return key.modulusLength();
        }

        @Override
        public Blinded blind(List<byte[]> inputs) {
            List<byte[]> elements = new ArrayList<>(inputs.size());
            Object[] secrets = new Object[inputs.size()];
            for (int i = 0; i < inputs.size(); i++) {
                BigInteger m = RsaBlinding.fullDomainHash(key, inputs.get(i));
                BigInteger r = RsaBlinding.randomBlind(key, random);
                elements.add(Octets.i2osp(RsaBlinding.blind(key, m, r), key.modulusLength()));
                secrets[i] = new BigInteger[] {m, r.modInverse(key.modulus())};
            }
            return new Blinded(List.copyOf(inputs), elements, secrets);
        }

        @Override
        public List<byte[]> finalizeOutputs(Blinded blinded, Evaluation evaluation) throws OprfException {
            if (evaluation.size() != blinded.size() || evaluation.proof().length != 0) {
                throw new OprfException("answer does not match the query");
            }
            List<byte[]> out = new ArrayList<>(blinded.size());
            for (int i = 0; i < blinded.size(); i++) {
                BigInteger[] s = (BigInteger[]) blinded.secret(i);
                BigInteger y = decode(key, evaluation.elements().get(i));
                out.add(output(key, RsaBlinding.finalizeSignature(key, s[0], y, s[1])));
            }
            return out;
        }
    }

    static final class Server implements OprfServer {
        private final RsaOprfPrivateKey key;
        private final SecureRandom random;

        Server(RsaOprfPrivateKey key, SecureRandom random) {
            this.key = key;
            this.random = random;
        }

        @Override
        public Suite suite() {
            return Suite.RSA_FDH_SHA256;
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
            return key.publicKey().modulusLength();
        }

        @Override
        public Evaluation blindEvaluate(List<byte[]> blindedElements) throws OprfException {
            RsaOprfPublicKey pk = key.publicKey();
            List<BigInteger> xs = new ArrayList<>(blindedElements.size());
            for (byte[] e : blindedElements) {
                xs.add(decode(pk, e));
            }
            List<byte[]> out = new ArrayList<>(xs.size());
            for (BigInteger x : xs) {
                out.add(Octets.i2osp(key.rawSign(x, random), pk.modulusLength()));
            }
            return new Evaluation(out, new byte[0]);
        }

        @Override
        public byte[] evaluate(byte[] input) throws OprfException {
            RsaOprfPublicKey pk = key.publicKey();
            return output(pk, key.rawSign(RsaBlinding.fullDomainHash(pk, input), random));
        }
    }
}
