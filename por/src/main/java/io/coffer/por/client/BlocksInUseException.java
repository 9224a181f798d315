package io.coffer.por.client;

import java.util.List;

/**
 * A shrink ({@link PorClient#shrink}) refused, with nothing sent, because blocks at or above the new capacity do not
 * hold the empty block: their indices, ascending, so that a caller whose map says they are free (a crash left them
 * unzeroed) can zero them and shrink again.
 */
public final class BlocksInUseException extends IllegalStateException {
    private final List<Integer> indices;

    public BlocksInUseException(int k, List<Integer> indices) {
        super("block " + indices.get(0) + " is in use (" + indices.size() + " in all): a store shrinks to 2^" + k
                + " blocks only when every index from " + (1 << k) + " on holds the empty block");
        this.indices = List.copyOf(indices);
    }

    public List<Integer> indices() {
        return indices;
    }
}
