package io.coffer.keyserver.oprf;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.SecureRandom;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECPrivateKeySpec;

/** P-256 scalar skS for the RFC 9497 OPRF/VOPRF. */
public final class P256OprfPrivateKey implements OprfPrivateKey {
    private final byte[] scalar;
    private final P256OprfPublicKey publicKey;

    private P256OprfPrivateKey(byte[] scalar) throws OprfException {
        this.scalar = scalar.clone();
        this.publicKey = new P256OprfPublicKey(P256Oprf.publicKey(scalar));
    }

    /** A key from its 32-byte scalar (non-zero, below the group order). */
    public static P256OprfPrivateKey fromScalar(byte[] scalar) throws OprfException {
        return new P256OprfPrivateKey(scalar);
    }

    /** A fresh random key. */
    public static P256OprfPrivateKey generate(SecureRandom random) {
        P256Group g = P256Group.INSTANCE;
        try {
            return new P256OprfPrivateKey(g.serializeScalar(g.randomNonZeroScalar(random)));
        } catch (OprfException e) {
            throw new IllegalStateException(e);
        }
    }

    /** RFC 9497 DeriveKeyPair(seed, info) for the given mode. */
    public static P256OprfPrivateKey derive(int mode, byte[] seed, byte[] info) {
        try {
            return new P256OprfPrivateKey(P256Oprf.mode(mode).deriveKeyPair(seed, info));
        } catch (OprfException e) {
            throw new IllegalStateException(e);
        }
    }

    static P256OprfPrivateKey fromJca(ECPrivateKey key) throws GeneralSecurityException {
        if (!P256Keys.isP256(key.getParams())) {
            throw new GeneralSecurityException("not a P-256 key");
        }
        return new P256OprfPrivateKey(P256Group.INSTANCE.serializeScalar(key.getS()));
    }

    /** The scalar, for the protocol functions in this package. */
    byte[] scalar() {
        return scalar;
    }

    @Override
    public KeyId keyId() {
        return publicKey.keyId();
    }

    @Override
    public P256OprfPublicKey publicKey() {
        return publicKey;
    }

    @Override
    public byte[] exportSecretPkcs8() {
        try {
            return KeyFactory.getInstance("EC")
                    .generatePrivate(new ECPrivateKeySpec(new BigInteger(1, scalar), P256Keys.params()))
                    .getEncoded();
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("EC key factory unavailable", ex);
        }
    }

    @Override
    public String toString() {
        return "P256OprfPrivateKey[id " + keyId() + "]";
    }
}
