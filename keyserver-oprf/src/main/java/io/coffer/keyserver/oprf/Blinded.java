package io.coffer.keyserver.oprf;

import java.util.List;

/**
 * The client's side of one batched OPRF query: the blinded elements to send, and (kept private) the
 * inputs and blinding factors needed to finalize the answer. Use once; never send or log it.
 */
public final class Blinded {
    private final List<byte[]> inputs;
    private final List<byte[]> elements;
    private final Object[] secrets;

    Blinded(List<byte[]> inputs, List<byte[]> elements, Object[] secrets) {
        this.inputs = inputs;
        this.elements = List.copyOf(elements);
        this.secrets = secrets;
    }

    /** The blinded elements, in input order: what goes on the wire. */
    public List<byte[]> elements() {
        return elements;
    }

    public int size() {
        return elements.size();
    }

    List<byte[]> inputs() {
        return inputs;
    }

    Object secret(int i) {
        return secrets[i];
    }

    @Override
    public String toString() {
        return "Blinded[" + elements.size() + " elements]";
    }
}
