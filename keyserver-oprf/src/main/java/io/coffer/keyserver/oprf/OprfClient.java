package io.coffer.keyserver.oprf;

import java.util.List;

/** The client side of an OPRF under one pinned public key: blind inputs, then verify and unblind answers. */
public interface OprfClient {
    Suite suite();

    KeyId keyId();

    /** Length in bytes of every blinded and evaluated element. */
    int elementLength();

    /** Blinds a batch of inputs with fresh randomness. */
    Blinded blind(List<byte[]> inputs) throws OprfException;

    /**
     * Verifies the server's answer (RSA: s^e == H(m); VOPRF: the batch proof) and returns one 32-byte
     * output per input, in order. Throws, and returns nothing, if any part fails to verify.
     */
    List<byte[]> finalizeOutputs(Blinded blinded, Evaluation evaluation) throws OprfException;
}
