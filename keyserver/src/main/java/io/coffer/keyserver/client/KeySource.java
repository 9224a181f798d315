package io.coffer.keyserver.client;

import io.coffer.keyserver.oprf.KeyId;
import java.util.List;

/** Turns inputs (chunk hashes) into 32-byte OPRF outputs under one key. */
public interface KeySource extends AutoCloseable {
    /** One 32-byte key per input, in input order. */
    List<byte[]> evaluate(List<byte[]> inputs) throws KeyServerException;

    /** The key id of the OPRF key the outputs are made with. */
    KeyId keyId();

    @Override
    void close();
}
