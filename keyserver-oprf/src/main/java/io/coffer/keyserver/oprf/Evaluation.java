package io.coffer.keyserver.oprf;

import java.util.List;

/**
 * A server's answer to a batch of blinded elements: one evaluated element per blinded element, in order,
 * and for the VOPRF one DLEQ proof over the whole batch (empty for suites without proofs).
 */
public final class Evaluation {
    private final List<byte[]> elements;
    private final byte[] proof;

    public Evaluation(List<byte[]> elements, byte[] proof) {
        this.elements = List.copyOf(elements);
        this.proof = proof.clone();
    }

    public List<byte[]> elements() {
        return elements;
    }

    public byte[] proof() {
        return proof.clone();
    }

    public int size() {
        return elements.size();
    }

    @Override
    public String toString() {
        return "Evaluation[" + elements.size() + " elements, proof " + proof.length + " bytes]";
    }
}
