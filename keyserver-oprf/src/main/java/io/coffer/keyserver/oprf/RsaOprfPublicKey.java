package io.coffer.keyserver.oprf;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.spec.RSAPublicKeySpec;

/** RSA public key (N, e) for the RSA-OPRF. */
public final class RsaOprfPublicKey implements OprfPublicKey {
    private final BigInteger n;
    private final BigInteger e;
    private final byte[] spki;
    private final KeyId keyId;

    RsaOprfPublicKey(BigInteger n, BigInteger e) {
        if (n.signum() <= 0 || !n.testBit(0) || e.compareTo(BigInteger.valueOf(3)) < 0 || !e.testBit(0)) {
            throw new IllegalArgumentException("invalid RSA public key");
        }
        this.n = n;
        this.e = e;
        try {
            this.spki = KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(n, e)).getEncoded();
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("RSA key factory unavailable", ex);
        }
        this.keyId = KeyId.derive(0x01, spki);
    }

    public BigInteger modulus() {
        return n;
    }

    public BigInteger publicExponent() {
        return e;
    }

    /** Length of the modulus in bytes: the length of every element and signature. */
    public int modulusLength() {
        return (n.bitLength() + 7) / 8;
    }

    @Override
    public KeyId keyId() {
        return keyId;
    }

    @Override
    public Suite defaultSuite() {
        return Suite.RSA_FDH_SHA256;
    }

    @Override
    public boolean supports(Suite suite) {
        return suite == Suite.RSA_FDH_SHA256;
    }

    @Override
    public byte[] spki() {
        return spki.clone();
    }

    @Override
    public String toString() {
        return "RsaOprfPublicKey[" + n.bitLength() + " bits, id " + keyId + "]";
    }
}
