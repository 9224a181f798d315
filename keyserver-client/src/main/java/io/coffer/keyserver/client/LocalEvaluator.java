package io.coffer.keyserver.client;

import io.coffer.keyserver.oprf.KeyId;
import io.coffer.keyserver.oprf.Oprf;
import io.coffer.keyserver.oprf.OprfException;
import io.coffer.keyserver.oprf.OprfPrivateKey;
import io.coffer.keyserver.oprf.OprfPublicKey;
import io.coffer.keyserver.oprf.OprfServer;
import io.coffer.keyserver.oprf.Suite;
import io.coffer.keyserver.pki.KeyServerDirectory;
import io.coffer.keyserver.pki.Pem;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;

/**
 * Embedded mode: evaluates the OPRF in-process with a local private key, without blinding or network. For
 * the same key and suite the outputs equal those a {@link KeyServerClient} gets from a key server holding
 * that key. Thread-safe.
 */
public final class LocalEvaluator implements OprfEvaluator {
    private final OprfServer server;

    private LocalEvaluator(OprfServer server) {
        this.server = server;
    }

    /** Evaluator for a key in its default suite (RSA-FDH-SHA256, or P256-SHA256 VOPRF). */
    public static LocalEvaluator of(OprfPrivateKey key) {
        return new LocalEvaluator(Oprf.server(key));
    }

    public static LocalEvaluator of(OprfPrivateKey key, Suite suite) {
        return new LocalEvaluator(Oprf.server(key, suite));
    }

    /** Evaluator for a PKCS#8 PEM private key file (an OPRF key file of a key-server directory). */
    public static LocalEvaluator fromKeyFile(Path pkcs8Pem) throws IOException, GeneralSecurityException {
        return of(OprfPrivateKey.fromPkcs8(Pem.read(Pem.PRIVATE_KEY, pkcs8Pem)));
    }

    /** Evaluator for the current OPRF key of a key-server directory. */
    public static LocalEvaluator fromDirectory(Path keyServerDirectory) throws IOException, GeneralSecurityException {
        KeyServerDirectory dir = new KeyServerDirectory(keyServerDirectory);
        return of(dir.loadOprfKeys().get(dir.currentKeyId()));
    }

    /** The 32-byte output for one input. */
    public byte[] evaluate(byte[] input) {
        try {
            return server.evaluate(input);
        } catch (OprfException e) {
            throw new IllegalStateException("input hashes to the identity element", e);
        }
    }

    @Override
    public List<byte[]> evaluate(List<byte[]> inputs) {
        List<byte[]> out = new ArrayList<>(inputs.size());
        for (byte[] in : inputs) {
            out.add(evaluate(in));
        }
        return out;
    }

    @Override
    public KeyId keyId() {
        return server.keyId();
    }

    public Suite suite() {
        return server.suite();
    }

    public OprfPublicKey publicKey() {
        return server.publicKey();
    }

    @Override
    public void close() {
        // holds no resources
    }

    @Override
    public String toString() {
        return "LocalEvaluator[" + server.suite() + ", key " + server.keyId() + "]";
    }
}
