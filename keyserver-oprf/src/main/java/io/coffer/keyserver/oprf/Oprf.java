package io.coffer.keyserver.oprf;

import java.security.SecureRandom;

/**
 * Entry point to the OPRF suites. A public key gives an {@link OprfClient} (blind, verify, unblind), a
 * private key an {@link OprfServer} (evaluate). Both sides of one key and suite produce the same 32-byte
 * outputs, which is what makes the embedded evaluator and the remote key server interchangeable.
 */
public final class Oprf {
    private static final SecureRandom RANDOM = new SecureRandom();

    private Oprf() {}

    /** The client for a pinned public key in its default (verifiable) suite. */
    public static OprfClient client(OprfPublicKey key) {
        return client(key, key.defaultSuite());
    }

    public static OprfClient client(OprfPublicKey key, Suite suite) {
        requireSupported(key, suite);
        if (key instanceof RsaOprfPublicKey) {
            return new RsaOprf.Client((RsaOprfPublicKey) key, RANDOM);
        }
        return new P256Suite.Client((P256OprfPublicKey) key, suite, RANDOM);
    }

    /** The server for a private key in its default suite. */
    public static OprfServer server(OprfPrivateKey key) {
        return server(key, key.publicKey().defaultSuite());
    }

    public static OprfServer server(OprfPrivateKey key, Suite suite) {
        requireSupported(key.publicKey(), suite);
        if (key instanceof RsaOprfPrivateKey) {
            return new RsaOprf.Server((RsaOprfPrivateKey) key, RANDOM);
        }
        return new P256Suite.Server((P256OprfPrivateKey) key, suite, RANDOM);
    }

    private static void requireSupported(OprfPublicKey key, Suite suite) {
        if (!key.supports(suite)) {
            throw new IllegalArgumentException("key " + key.keyId() + " does not support suite " + suite);
        }
    }
}
