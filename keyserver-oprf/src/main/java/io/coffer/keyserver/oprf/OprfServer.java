package io.coffer.keyserver.oprf;

import java.util.List;

/** The server side of an OPRF under one private key: evaluate blinded elements, or inputs directly. */
public interface OprfServer {
    Suite suite();

    KeyId keyId();

    OprfPublicKey publicKey();

    /** Length in bytes of every blinded and evaluated element. */
    int elementLength();

    /** Evaluates a batch of blinded elements; every element is validated (length, range, on curve) first. */
    Evaluation blindEvaluate(List<byte[]> blindedElements) throws OprfException;

    /** The output for an input without blinding: equal to what blind, blindEvaluate and finalize give. */
    byte[] evaluate(byte[] input) throws OprfException;
}
