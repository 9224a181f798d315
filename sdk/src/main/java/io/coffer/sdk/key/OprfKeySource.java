package io.coffer.sdk.key;

import io.coffer.keyserver.client.KeyServerClient;
import io.coffer.keyserver.client.KeyServerException;
import io.coffer.keyserver.client.LocalEvaluator;
import io.coffer.keyserver.client.OprfEvaluator;
import io.coffer.keyserver.oprf.P256OprfPrivateKey;
import io.coffer.keyserver.oprf.Suite;
import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.crypto.MasterKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Server-aided message-locked keys (DupLESS): {@code K = OPRF(h)}. Remote: a key server evaluates blinded hashes and
 * every answer is verified (RSA verification or the VOPRF proof) before it becomes a key. Embedded: the same
 * evaluation in-process under a local key, for one gateway on its own.
 */
public final class OprfKeySource implements KeySource {
    private static final byte[] EMBEDDED_INFO = "coffer embedded OPRF key v1".getBytes(StandardCharsets.US_ASCII);
    /** RFC 9497 mode byte of the VOPRF suite, which the embedded key is derived for. */
    private static final int VOPRF_MODE = 0x01;

    private final OprfEvaluator evaluator;
    private final boolean remote;
    private final String name;

    private OprfKeySource(OprfEvaluator evaluator, boolean remote, String suite) {
        this.evaluator = evaluator;
        this.remote = remote;
        this.name = "oprf-" + suite + ":" + evaluator.keyId().toHex();
    }

    /**
     * The embedded default: a P-256 VOPRF key derived from the master key with RFC 9497's DeriveKeyPair, so a data
     * directory has one secret file and a gateway restarted on it keeps its dedup domain.
     */
    public static OprfKeySource embedded(MasterKey masterKey) {
        P256OprfPrivateKey key = P256OprfPrivateKey.derive(VOPRF_MODE, masterKey.deriveSecret("embedded-oprf"),
                EMBEDDED_INFO);
        LocalEvaluator local = LocalEvaluator.of(key, Suite.P256_SHA256_VOPRF);
        return new OprfKeySource(local, false, "p256");
    }

    /** Keys from a remote key server; the client verifies every answer and retries as configured. */
    public static OprfKeySource remote(KeyServerClient client) {
        return new OprfKeySource(client, true, client.suite() == Suite.RSA_FDH_SHA256 ? "rsa" : "p256");
    }

    /** Keys from an in-process evaluator, for example one loaded from a key-server directory. */
    public static OprfKeySource local(LocalEvaluator evaluator) {
        return new OprfKeySource(evaluator, false, evaluator.suite() == Suite.RSA_FDH_SHA256 ? "rsa" : "p256");
    }

    @Override
    public List<ChunkKey> keysFor(List<byte[]> chunkHashes) throws KeySourceException {
        List<byte[]> outputs;
        try {
            outputs = evaluator.evaluate(chunkHashes);
        } catch (KeyServerException e) {
            throw new KeySourceException("key server: " + e.reason() + ": " + e.getMessage(), e);
        }
        List<ChunkKey> keys = new ArrayList<>(outputs.size());
        for (byte[] k : outputs) {
            keys.add(ChunkKey.of(k));
        }
        return keys;
    }

    @Override
    public boolean messageLocked() {
        return true;
    }

    @Override
    public boolean remote() {
        return remote;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void close() {
        evaluator.close();
    }
}
