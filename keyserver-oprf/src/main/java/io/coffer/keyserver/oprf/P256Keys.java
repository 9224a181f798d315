package io.coffer.keyserver.oprf;

import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;

/** JCA parameters of P-256, used to encode OPRF keys as standard PKCS#8 / SubjectPublicKeyInfo. */
final class P256Keys {
    private static final ECParameterSpec PARAMS;

    static {
        try {
            AlgorithmParameters ap = AlgorithmParameters.getInstance("EC");
            ap.init(new ECGenParameterSpec("secp256r1"));
            PARAMS = ap.getParameterSpec(ECParameterSpec.class);
        } catch (GeneralSecurityException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private P256Keys() {}

    static ECParameterSpec params() {
        return PARAMS;
    }

    static boolean isP256(ECParameterSpec spec) {
        return spec.getOrder().equals(PARAMS.getOrder())
                && spec.getCurve().equals(PARAMS.getCurve())
                && spec.getGenerator().equals(PARAMS.getGenerator());
    }
}
