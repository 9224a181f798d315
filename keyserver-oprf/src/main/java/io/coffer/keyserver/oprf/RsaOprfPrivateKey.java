package io.coffer.keyserver.oprf;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.RSAKeyGenParameterSpec;
import java.security.spec.RSAPrivateCrtKeySpec;

/**
 * RSA private key in CRT form for the RSA-OPRF. {@link #rawSign} computes x^d mod N through the Chinese
 * remainder theorem (Garner), with base blinding against timing attacks and a y^e == x check against
 * fault attacks (a faulty CRT half would otherwise leak a factor of N). Each thread keeps its own blinding
 * pair, refreshed with a random u every {@link #BLINDING_REFRESH} uses and squared in between.
 */
public final class RsaOprfPrivateKey implements OprfPrivateKey {
    /**
     * Uses of one random blinding value u before a fresh one is drawn; in between, u is squared (as OpenSSL's
     * BN_BLINDING does), which saves the modular inverse and the exponentiation by e of a fresh u.
     */
    static final int BLINDING_REFRESH = 32;
    private final BigInteger n;
    private final BigInteger e;
    private final BigInteger d;
    private final BigInteger p;
    private final BigInteger q;
    private final BigInteger dP;
    private final BigInteger dQ;
    private final BigInteger qInv;
    private final RsaOprfPublicKey publicKey;
    private final ThreadLocal<Blinding> blinding = new ThreadLocal<>();

    private RsaOprfPrivateKey(BigInteger p, BigInteger q, BigInteger e, BigInteger d) {
        this.n = p.multiply(q);
        this.e = e;
        this.d = d;
        this.p = p;
        this.q = q;
        this.dP = d.mod(p.subtract(BigInteger.ONE));
        this.dQ = d.mod(q.subtract(BigInteger.ONE));
        this.qInv = q.modInverse(p);
        this.publicKey = new RsaOprfPublicKey(n, e);
    }

    /** A key from its primes and exponents; checks that e*d == 1 modulo lcm(p-1, q-1). */
    public static RsaOprfPrivateKey of(BigInteger p, BigInteger q, BigInteger e, BigInteger d) {
        BigInteger p1 = p.subtract(BigInteger.ONE);
        BigInteger q1 = q.subtract(BigInteger.ONE);
        BigInteger lambda = p1.divide(p1.gcd(q1)).multiply(q1);
        if (!e.multiply(d).mod(lambda).equals(BigInteger.ONE)) {
            throw new IllegalArgumentException("inconsistent RSA key");
        }
        return new RsaOprfPrivateKey(p, q, e, d);
    }

    /**
     * A fresh key with e = 65537. {@code bits} is 2048 (default) or 3072 or 4096; 1024 is accepted only
     * for comparison benchmarks.
     */
    public static RsaOprfPrivateKey generate(int bits, SecureRandom random) {
        if (bits != 1024 && bits != 2048 && bits != 3072 && bits != 4096) {
            throw new IllegalArgumentException("RSA modulus must be 2048, 3072 or 4096 bits (1024 for comparison only)");
        }
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
            gen.initialize(new RSAKeyGenParameterSpec(bits, RSAKeyGenParameterSpec.F4), random);
            return fromJca((RSAPrivateCrtKey) gen.generateKeyPair().getPrivate());
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("RSA key generation unavailable", ex);
        }
    }

    static RsaOprfPrivateKey fromJca(RSAPrivateCrtKey k) {
        return of(k.getPrimeP(), k.getPrimeQ(), k.getPublicExponent(), k.getPrivateExponent());
    }

    @Override
    public KeyId keyId() {
        return publicKey.keyId();
    }

    @Override
    public RsaOprfPublicKey publicKey() {
        return publicKey;
    }

    /** Modulus size in bits. */
    public int bits() {
        return n.bitLength();
    }

    /**
     * x^d mod N by CRT: m1 = x^dP mod p, m2 = x^dQ mod q, h = qInv (m1 - m2) mod p, y = m2 + h q. The
     * input is first multiplied by u^e for a blinding value u and the result by u^-1.
     *
     * @throws OprfException if x is not in [1, N) or the result fails the y^e == x check
     */
    public BigInteger rawSign(BigInteger x, SecureRandom random) throws OprfException {
        if (x.signum() <= 0 || x.compareTo(n) >= 0) {
            throw new OprfException("element out of range");
        }
        Blinding b = blinding(random);
        BigInteger blinded = x.multiply(b.ue).mod(n);
        BigInteger m1 = blinded.mod(p).modPow(dP, p);
        BigInteger m2 = blinded.mod(q).modPow(dQ, q);
        BigInteger h = qInv.multiply(m1.subtract(m2)).mod(p);
        BigInteger y = m2.add(h.multiply(q)).multiply(b.uInverse).mod(n);
        if (!y.modPow(e, n).equals(x)) {
            throw new OprfException("signature self-check failed");
        }
        return y;
    }

    /** The next blinding pair of this thread: fresh every {@link #BLINDING_REFRESH} uses, squared in between. */
    private Blinding blinding(SecureRandom random) {
        Blinding b = blinding.get();
        if (b == null || b.uses >= BLINDING_REFRESH) {
            BigInteger u;
            do {
                u = new BigInteger(n.bitLength() - 1, random);
            } while (u.signum() == 0 || !u.gcd(n).equals(BigInteger.ONE));
            b = new Blinding(u.modPow(e, n), u.modInverse(n));
            blinding.set(b);
        } else {
            // (u^2)^e = (u^e)^2 and (u^2)^-1 = (u^-1)^2: a new blinding value for two multiplications
            b.ue = b.ue.multiply(b.ue).mod(n);
            b.uInverse = b.uInverse.multiply(b.uInverse).mod(n);
        }
        b.uses++;
        return b;
    }

    /** A base-blinding pair (u^e mod N, u^-1 mod N) and how often it has been used. */
    private static final class Blinding {
        BigInteger ue;
        BigInteger uInverse;
        int uses;

        Blinding(BigInteger ue, BigInteger uInverse) {
            this.ue = ue;
            this.uInverse = uInverse;
        }
    }

    @Override
    public byte[] exportSecretPkcs8() {
        try {
            return KeyFactory.getInstance("RSA")
                    .generatePrivate(new RSAPrivateCrtKeySpec(n, e, d, p, q, dP, dQ, qInv))
                    .getEncoded();
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("RSA key factory unavailable", ex);
        }
    }

    @Override
    public String toString() {
        return "RsaOprfPrivateKey[" + n.bitLength() + " bits, id " + keyId() + "]";
    }
}
