package io.coffer.keyserver.oprf;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;

/** The public half of an OPRF key: what a client pins to verify answers. */
public sealed interface OprfPublicKey permits RsaOprfPublicKey, P256OprfPublicKey {
    KeyId keyId();

    /** The suite a client uses with this key by default (the verifiable one). */
    Suite defaultSuite();

    boolean supports(Suite suite);

    /** X.509 SubjectPublicKeyInfo DER. */
    byte[] spki();

    /** Decodes an X.509 SubjectPublicKeyInfo holding an RSA or a P-256 key. */
    static OprfPublicKey fromSpki(byte[] der) throws GeneralSecurityException {
        X509EncodedKeySpec spec = new X509EncodedKeySpec(der);
        PublicKey key;
        try {
            key = KeyFactory.getInstance("RSA").generatePublic(spec);
        } catch (GeneralSecurityException notRsa) {
            key = KeyFactory.getInstance("EC").generatePublic(spec);
        }
        if (key instanceof RSAPublicKey) {
            RSAPublicKey rsa = (RSAPublicKey) key;
            return new RsaOprfPublicKey(rsa.getModulus(), rsa.getPublicExponent());
        }
        if (key instanceof ECPublicKey) {
            return P256OprfPublicKey.fromJca((ECPublicKey) key);
        }
        throw new GeneralSecurityException("unsupported public key");
    }
}
