package io.coffer.keyserver.oprf;

import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.SecureRandom;

/**
 * The RSA blind-signature arithmetic shared by DupLESS's RSA-OPRF and RFC 9474 (section 4): Blind
 * (x = m * r^e mod N), BlindSign (y = x^d mod N, CRT), Finalize (s = y * r^-1 mod N, checked with
 * s^e == m mod N). The message representative m is an integer in [1, N): the RSA full-domain hash here
 * ({@link #fullDomainHash}), EMSA-PSS in RFC 9474.
 *
 * <p>Full-domain hash, exactly: with k = byte length of N and id = the key id (8 bytes),
 * seed = SHA-256("COFFER-RSA-FDH-v1" || id || msg), T = MGF1-SHA256(seed, k + 16) (RFC 8017 B.2.1:
 * T = SHA-256(seed || I2OSP(0, 4)) || SHA-256(seed || I2OSP(1, 4)) || ... truncated to k + 16 bytes),
 * H(msg) = OS2IP(T) mod N. The 16 extra bytes make the reduction's bias below 2^-128.
 */
public final class RsaBlinding {
    private static final byte[] FDH_TAG = Octets.ascii("COFFER-RSA-FDH-v1");

    private RsaBlinding() {}

    /** H(msg) in Z_N as described in the class comment. */
    public static BigInteger fullDomainHash(RsaOprfPublicKey key, byte[] msg) {
        byte[] seed = Octets.sha256(FDH_TAG, key.keyId().toBytes(), msg);
        int len = key.modulusLength() + 16;
        byte[] t = new byte[len];
        MessageDigest md = Octets.sha256();
        for (int counter = 0, off = 0; off < len; counter++, off += 32) {
            md.update(seed);
            md.update(Octets.i2osp(counter, 4));
            byte[] block = md.digest();
            System.arraycopy(block, 0, t, off, Math.min(32, len - off));
        }
        return Octets.os2ip(t).mod(key.modulus());
    }

    /** A random blinding factor r in [1, N) invertible mod N. */
    public static BigInteger randomBlind(RsaOprfPublicKey key, SecureRandom random) {
        BigInteger n = key.modulus();
        while (true) {
            BigInteger r = new BigInteger(n.bitLength(), random);
            if (r.signum() > 0 && r.compareTo(n) < 0 && r.gcd(n).equals(BigInteger.ONE)) {
                return r;
            }
        }
    }

    /** Blind: x = m * r^e mod N. */
    public static BigInteger blind(RsaOprfPublicKey key, BigInteger m, BigInteger r) {
        BigInteger n = key.modulus();
        return m.multiply(r.modPow(key.publicExponent(), n)).mod(n);
    }

    /** BlindSign: y = x^d mod N (CRT, blinded, fault-checked). */
    public static BigInteger blindSign(RsaOprfPrivateKey key, BigInteger x, SecureRandom random) throws OprfException {
        return key.rawSign(x, random);
    }

    /**
     * Finalize: s = y * rInv mod N, returned only if s^e == m mod N (compared in constant time on the
     * fixed-length encodings).
     */
    public static BigInteger finalizeSignature(RsaOprfPublicKey key, BigInteger m, BigInteger y, BigInteger rInv)
            throws OprfException {
        BigInteger n = key.modulus();
        if (y.signum() <= 0 || y.compareTo(n) >= 0) {
            throw new OprfException("signature out of range");
        }
        BigInteger s = y.multiply(rInv).mod(n);
        int k = key.modulusLength();
        byte[] expected = Octets.i2osp(m, k);
        byte[] actual = Octets.i2osp(s.modPow(key.publicExponent(), n), k);
        if (!MessageDigest.isEqual(expected, actual)) {
            throw new OprfException("signature verification failed");
        }
        return s;
    }
}
