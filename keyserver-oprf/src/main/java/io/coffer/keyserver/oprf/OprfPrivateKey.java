package io.coffer.keyserver.oprf;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;

/**
 * The secret half of an OPRF key, held by the key server (or by the gateway in embedded mode).
 * {@code toString()} never prints key material; the raw encoding is only reachable through
 * {@link #exportSecretPkcs8()}, a name meant to be easy to grep for.
 */
public sealed interface OprfPrivateKey permits RsaOprfPrivateKey, P256OprfPrivateKey {
    KeyId keyId();

    OprfPublicKey publicKey();

    /** PKCS#8 DER of the secret key. Handle as a secret. */
    byte[] exportSecretPkcs8();

    /** Decodes a PKCS#8 RSA (CRT) or P-256 private key. */
    static OprfPrivateKey fromPkcs8(byte[] der) throws GeneralSecurityException {
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        PrivateKey key;
        try {
            key = KeyFactory.getInstance("RSA").generatePrivate(spec);
        } catch (GeneralSecurityException notRsa) {
            key = KeyFactory.getInstance("EC").generatePrivate(spec);
        }
        if (key instanceof RSAPrivateCrtKey) {
            return RsaOprfPrivateKey.fromJca((RSAPrivateCrtKey) key);
        }
        if (key instanceof ECPrivateKey) {
            return P256OprfPrivateKey.fromJca((ECPrivateKey) key);
        }
        throw new GeneralSecurityException("unsupported private key");
    }
}
