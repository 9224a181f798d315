package io.coffer.por.code;

import io.coffer.por.field.Segments;
import io.coffer.por.field.Zp;
import java.util.Arrays;

/**
 * The block identifier every vector of H and C carries (Figure 4: "blocks are tagged with their block identifier"),
 * so that decoding a level says which blocks its writes were. The tag is one extra element after the block's
 * elements, holding index + 1: coded with the rest (the code is linear), and 0 in an all-zero vector, which is
 * therefore never mistaken for block 0 (batches pad with such vectors).
 */
public final class BlockTag {
    /** No block: the tag of a padding vector. */
    public static final int NONE = -1;

    private BlockTag() {}

    /** The tag element of block {@code index}: index + 1. */
    public static int valueOf(int index) {
        return index + 1;
    }

    /** The tagged vector: {@code elements} followed by index + 1. */
    public static int[] tag(int[] elements, int index) {
        if (index < 0 || index >= Zp.P - 1) {
            throw new IllegalArgumentException("block index out of range: " + index);
        }
        int[] out = Arrays.copyOf(elements, elements.length + 1);
        out[elements.length] = valueOf(index);
        return out;
    }

    /** The tagged vector of a block of bytes: its {@link Segments} followed by index + 1, built in one array. */
    public static int[] ofBlock(byte[] block, int index) {
        return ofBlock(block, index, new int[Segments.count(block.length) + 1]);
    }

    /** {@link #ofBlock(byte[], int)} into {@code out} (of exactly that length, every element overwritten). */
    public static int[] ofBlock(byte[] block, int index, int[] out) {
        if (index < 0 || index >= Zp.P - 1) {
            throw new IllegalArgumentException("block index out of range: " + index);
        }
        int elements = Segments.count(block.length);
        if (out.length != elements + 1) {
            throw new IllegalArgumentException(block.length + " bytes tag to " + (elements + 1) + " elements, not "
                    + out.length);
        }
        Segments.fromBytes(block, 0, block.length, out);
        out[elements] = valueOf(index);
        return out;
    }

    /** The vector of an unused or deleted block: {@code elements} zeros, tagged with {@code index}. */
    public static int[] empty(int elements, int index) {
        return tag(new int[elements], index);
    }

    /** The block index a (decoded) tagged vector carries, or {@link #NONE}. */
    public static int index(int[] tagged) {
        return tagged[tagged.length - 1] - 1;
    }

    /** The block's elements, without the tag. */
    public static int[] elements(int[] tagged) {
        return Arrays.copyOf(tagged, tagged.length - 1);
    }
}
