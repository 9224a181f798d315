package io.coffer.keyserver.oprf;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;

/** P-256 public key pkS = skS * G for the RFC 9497 VOPRF. */
public final class P256OprfPublicKey implements OprfPublicKey {
    private final byte[] element;
    private final KeyId keyId;

    P256OprfPublicKey(byte[] element) throws OprfException {
        P256Group.INSTANCE.deserializeElement(element);
        this.element = element.clone();
        this.keyId = KeyId.derive(0x02, element);
    }

    /** The key from its 33-byte serialization (compressed SEC1 point). */
    public static P256OprfPublicKey fromElement(byte[] element) throws OprfException {
        return new P256OprfPublicKey(element);
    }

    static P256OprfPublicKey fromJca(ECPublicKey key) throws GeneralSecurityException {
        if (!P256Keys.isP256(key.getParams())) {
            throw new GeneralSecurityException("not a P-256 key");
        }
        ECPoint w = key.getW();
        org.bouncycastle.math.ec.ECPoint point = P256Group.INSTANCE.curve.createPoint(w.getAffineX(), w.getAffineY());
        if (!point.isValid()) {
            throw new GeneralSecurityException("point not on curve");
        }
        return new P256OprfPublicKey(point.getEncoded(true));
    }

    /** The 33-byte serialized element. */
    public byte[] element() {
        return element.clone();
    }

    @Override
    public KeyId keyId() {
        return keyId;
    }

    @Override
    public Suite defaultSuite() {
        return Suite.P256_SHA256_VOPRF;
    }

    @Override
    public boolean supports(Suite suite) {
        return suite == Suite.P256_SHA256_VOPRF || suite == Suite.P256_SHA256_OPRF;
    }

    @Override
    public byte[] spki() {
        try {
            org.bouncycastle.math.ec.ECPoint p = P256Group.INSTANCE.curve.decodePoint(element).normalize();
            ECPoint w = new ECPoint(p.getAffineXCoord().toBigInteger(), p.getAffineYCoord().toBigInteger());
            return KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(w, P256Keys.params())).getEncoded();
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("EC key factory unavailable", ex);
        }
    }

    @Override
    public String toString() {
        return "P256OprfPublicKey[id " + keyId + "]";
    }
}
