package io.coffer.keyserver.client;

import io.coffer.keyserver.oprf.KeyId;
import java.util.List;

/**
 * Evaluates the OPRF under one key for a batch of inputs (chunk hashes): one 32-byte output per input. Implemented by
 * {@link KeyServerClient} (a remote key server, every answer verified) and {@link LocalEvaluator} (in-process). The
 * sdk's {@code io.coffer.sdk.key.OprfKeySource} turns these outputs into chunk keys.
 */
public interface OprfEvaluator extends AutoCloseable {
    /** One 32-byte key per input, in input order. */
    List<byte[]> evaluate(List<byte[]> inputs) throws KeyServerException;

    /** The key id of the OPRF key the outputs are made with. */
    KeyId keyId();

    @Override
    void close();
}
