package io.coffer.keyserver.oprf;

import java.math.BigInteger;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bouncycastle.math.ec.ECAlgorithms;
import org.bouncycastle.math.ec.ECPoint;

/**
 * RFC 9497 with the ciphersuite P256-SHA256 (identifier "P256-SHA256", Nh = 32, Ne = 33, Ns = 32) in
 * mode OPRF (0x00) or VOPRF (0x01): DeriveKeyPair, Blind, BlindEvaluate, Finalize, Evaluate, and the
 * DLEQ proofs with batching (ComputeComposites, ComputeCompositesFast, GenerateProof, VerifyProof).
 *
 * <p>Functions take their randomness (blinds, proof scalar) as arguments so the published vectors can be
 * replayed; {@link Oprf} draws them from a {@code SecureRandom}.
 */
public final class P256Oprf {
    /** Mode byte of the base OPRF. */
    public static final int MODE_OPRF = 0x00;
    /** Mode byte of the verifiable OPRF. */
    public static final int MODE_VOPRF = 0x01;
    /** Length of every output. */
    public static final int OUTPUT_LENGTH = 32;
    /** Length of a serialized proof (c || s). */
    public static final int PROOF_LENGTH = 64;

    private static final P256Group G = P256Group.INSTANCE;

    private final int mode;
    private final byte[] contextString;
    private final byte[] hashToGroupDst;
    private final byte[] hashToScalarDst;
    private final byte[] deriveKeyPairDst;
    private final byte[] seedDst;

    private P256Oprf(int mode) {
        this.mode = mode;
        this.contextString = Octets.concat(Octets.ascii("OPRFV1-"), new byte[] {(byte) mode}, Octets.ascii("-P256-SHA256"));
        this.hashToGroupDst = Octets.concat(Octets.ascii("HashToGroup-"), contextString);
        this.hashToScalarDst = Octets.concat(Octets.ascii("HashToScalar-"), contextString);
        this.deriveKeyPairDst = Octets.concat(Octets.ascii("DeriveKeyPair"), contextString);
        this.seedDst = Octets.concat(Octets.ascii("Seed-"), contextString);
    }

    private static final P256Oprf OPRF = new P256Oprf(MODE_OPRF);
    private static final P256Oprf VOPRF = new P256Oprf(MODE_VOPRF);

    /** The protocol instance for {@link #MODE_OPRF} or {@link #MODE_VOPRF}. */
    public static P256Oprf mode(int mode) {
        switch (mode) {
            case MODE_OPRF:
                return OPRF;
            case MODE_VOPRF:
                return VOPRF;
            default:
                throw new IllegalArgumentException("unsupported mode " + mode);
        }
    }

    public int mode() {
        return mode;
    }

    /** DeriveKeyPair(seed, info): returns skS as a 32-byte scalar. */
    public byte[] deriveKeyPair(byte[] seed, byte[] info) {
        byte[] deriveInput = Octets.concat(seed, Octets.lengthPrefixed(info));
        for (int counter = 0; counter <= 255; counter++) {
            BigInteger sk = G.hashToScalar(Octets.concat(deriveInput, new byte[] {(byte) counter}), deriveKeyPairDst);
            if (sk.signum() != 0) {
                return G.serializeScalar(sk);
            }
        }
        throw new IllegalStateException("DeriveKeyPairError");
    }

    /** pkS = skS * G, serialized. */
    public static byte[] publicKey(byte[] skS) throws OprfException {
        BigInteger k = G.deserializeScalar(skS);
        if (k.signum() == 0) {
            throw new OprfException("zero key");
        }
        return G.serializeElement(G.multiplyGenerator(k));
    }

    /** Blind(input, blind): serialized blinded element. */
    public byte[] blind(byte[] input, byte[] blind) throws OprfException {
        BigInteger r = G.deserializeScalar(blind);
        if (r.signum() == 0) {
            throw new OprfException("zero blind");
        }
        ECPoint inputElement = G.hashToGroup(input, hashToGroupDst);
        if (inputElement.isInfinity()) {
            throw new OprfException("InvalidInputError");
        }
        return G.serializeElement(inputElement.multiply(r));
    }

    /** BlindEvaluate(skS, blindedElement) for a batch; every element is validated first. */
    public List<byte[]> blindEvaluate(byte[] skS, List<byte[]> blindedElements) throws OprfException {
        BigInteger k = G.deserializeScalar(skS);
        List<byte[]> out = new ArrayList<>(blindedElements.size());
        for (byte[] be : blindedElements) {
            out.add(G.serializeElement(G.deserializeElement(be).multiply(k)));
        }
        return out;
    }

    /** Finalize(input, blind, evaluatedElement): the 32-byte output. */
    public byte[] finalizeOutput(byte[] input, byte[] blind, byte[] evaluatedElement) throws OprfException {
        BigInteger r = G.deserializeScalar(blind);
        ECPoint z = G.deserializeElement(evaluatedElement);
        ECPoint n = z.multiply(r.modInverse(G.order));
        return hashOutput(input, G.serializeElement(n));
    }

    /** Evaluate(skS, input): the unblinded server-side evaluation, same output as blind/finalize. */
    public byte[] evaluate(byte[] skS, byte[] input) throws OprfException {
        BigInteger k = G.deserializeScalar(skS);
        ECPoint inputElement = G.hashToGroup(input, hashToGroupDst);
        if (inputElement.isInfinity()) {
            throw new OprfException("InvalidInputError");
        }
        return hashOutput(input, G.serializeElement(inputElement.multiply(k)));
    }

    private static byte[] hashOutput(byte[] input, byte[] unblindedElement) {
        return Octets.sha256(Octets.lengthPrefixed(input), Octets.lengthPrefixed(unblindedElement), Octets.ascii("Finalize"));
    }

    /** GenerateProof(k, G, pkS, C, D, r) for the VOPRF; returns c || s (64 bytes). */
    public byte[] generateProof(byte[] skS, List<byte[]> blindedElements, List<byte[]> evaluatedElements, byte[] proofRandomScalar)
            throws OprfException {
        BigInteger k = G.deserializeScalar(skS);
        BigInteger r = G.deserializeScalar(proofRandomScalar);
        ECPoint b = G.multiplyGenerator(k);
        ECPoint[] mz = computeComposites(k, b, blindedElements, evaluatedElements);
        return proof(k, b, mz, r);
    }

    /**
     * The VOPRF server's whole answer to a batch: BlindEvaluate of every element and GenerateProof over the
     * batch, the same values as {@link #blindEvaluate} then {@link #generateProof}, with each blinded element
     * deserialized (and validated) once, the evaluated elements used as computed, and the composite M as one
     * multi-scalar multiplication.
     *
     * @param k the private scalar skS
     * @param pk the public key k*G (the caller's cached copy)
     * @param r the proof's random scalar
     * @return the evaluated elements followed by the proof c || s as the last entry
     */
    List<byte[]> blindEvaluateWithProof(BigInteger k, ECPoint pk, List<byte[]> blindedElements, BigInteger r) throws OprfException {
        int n = blindedElements.size();
        if (n == 0 || n > 0xFFFF) {
            throw new OprfException("invalid batch");
        }
        ECPoint[] c = new ECPoint[n];
        ECPoint[] d = new ECPoint[n];
        for (int i = 0; i < n; i++) {
            c[i] = G.deserializeElement(blindedElements.get(i));
            d[i] = c[i].multiply(k);
        }
        G.curve.normalizeAll(d);
        List<byte[]> out = new ArrayList<>(n + 1);
        for (ECPoint p : d) {
            out.add(G.serializeElement(p));
        }
        ECPoint m = ECAlgorithms.sumOfMultiplies(c, compositeWeights(pk, blindedElements, out)).normalize();
        ECPoint z = m.multiply(k).normalize();
        if (m.isInfinity() || z.isInfinity()) {
            throw new OprfException("degenerate composite");
        }
        out.add(proof(k, pk, new ECPoint[] {m, z}, r));
        return out;
    }

    private byte[] proof(BigInteger k, ECPoint b, ECPoint[] mz, BigInteger r) {
        ECPoint t2 = G.multiplyGenerator(r);
        ECPoint t3 = mz[0].multiply(r);
        BigInteger c = challenge(b, mz[0], mz[1], t2, t3);
        BigInteger s = r.subtract(c.multiply(k)).mod(G.order);
        return Octets.concat(G.serializeScalar(c), G.serializeScalar(s));
    }

    /** VerifyProof(G, pkS, C, D, proof). Returns normally only when the proof verifies. */
    public void verifyProof(byte[] pkS, List<byte[]> blindedElements, List<byte[]> evaluatedElements, byte[] proof)
            throws OprfException {
        if (proof.length != PROOF_LENGTH) {
            throw new OprfException("invalid proof");
        }
        ECPoint b = G.deserializeElement(pkS);
        BigInteger c = G.deserializeScalar(Arrays.copyOfRange(proof, 0, 32));
        BigInteger s = G.deserializeScalar(Arrays.copyOfRange(proof, 32, 64));
        ECPoint[] mz = computeComposites(null, b, blindedElements, evaluatedElements);
        ECPoint t2 = ECAlgorithms.sumOfTwoMultiplies(G.generator, s, b, c);
        ECPoint t3 = ECAlgorithms.sumOfTwoMultiplies(mz[0], s, mz[1], c);
        BigInteger expected = challenge(b, mz[0], mz[1], t2, t3);
        if (!MessageDigest.isEqual(G.serializeScalar(expected), G.serializeScalar(c))) {
            throw new OprfException("proof verification failed");
        }
    }

    /**
     * ComputeComposites (k == null) or ComputeCompositesFast (k given): returns {M, Z}. M (and Z without k)
     * is computed as one multi-scalar multiplication (interleaved wNAF), the same point as the RFC's running sum.
     */
    ECPoint[] computeComposites(BigInteger k, ECPoint b, List<byte[]> c, List<byte[]> d) throws OprfException {
        if (c.size() != d.size() || c.isEmpty() || c.size() > 0xFFFF) {
            throw new OprfException("invalid batch");
        }
        ECPoint[] cs = new ECPoint[c.size()];
        ECPoint[] ds = k == null ? new ECPoint[d.size()] : null;
        for (int i = 0; i < cs.length; i++) {
            cs[i] = G.deserializeElement(c.get(i));
            ECPoint di = G.deserializeElement(d.get(i));
            if (ds != null) {
                ds[i] = di;
            }
        }
        BigInteger[] weights = compositeWeights(b, c, d);
        ECPoint m = ECAlgorithms.sumOfMultiplies(cs, weights).normalize();
        ECPoint z = k == null ? ECAlgorithms.sumOfMultiplies(ds, weights).normalize() : m.multiply(k).normalize();
        if (m.isInfinity() || z.isInfinity()) {
            throw new OprfException("degenerate composite");
        }
        return new ECPoint[] {m, z};
    }

    /** The composite weights d_i = HashToScalar(seed || I2OSP(i, 2) || C_i || D_i || "Composite") (lengths prefixed). */
    private BigInteger[] compositeWeights(ECPoint b, List<byte[]> c, List<byte[]> d) {
        byte[] bm = G.serializeElement(b);
        byte[] seed = Octets.sha256(Octets.lengthPrefixed(bm), Octets.lengthPrefixed(seedDst));
        BigInteger[] w = new BigInteger[c.size()];
        for (int i = 0; i < w.length; i++) {
            byte[] transcript = Octets.concat(Octets.lengthPrefixed(seed), Octets.i2osp(i, 2),
                    Octets.lengthPrefixed(c.get(i)), Octets.lengthPrefixed(d.get(i)), Octets.ascii("Composite"));
            w[i] = G.hashToScalar(transcript, hashToScalarDst);
        }
        return w;
    }

    private BigInteger challenge(ECPoint b, ECPoint m, ECPoint z, ECPoint t2, ECPoint t3) {
        byte[] transcript = Octets.concat(
                Octets.lengthPrefixed(G.serializeElement(b)),
                Octets.lengthPrefixed(G.serializeElement(m)),
                Octets.lengthPrefixed(G.serializeElement(z)),
                Octets.lengthPrefixed(G.serializeElement(t2)),
                Octets.lengthPrefixed(G.serializeElement(t3)),
                Octets.ascii("Challenge"));
        return G.hashToScalar(transcript, hashToScalarDst);
    }
}
