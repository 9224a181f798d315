package io.coffer.por.blob;

import io.coffer.sdk.meta.BlockMapStore.FreeBlocks;
import java.util.TreeSet;

/**
 * The free block indices of U in memory: freed ones (reused first, lowest first) and every index from
 * {@code nextUnused} on. Not thread-safe: the store's lock guards it.
 */
final class FreeIndices {
    private int capacity;
    private final TreeSet<Integer> freed = new TreeSet<>();
    private int nextUnused;

    FreeIndices(int capacity, FreeBlocks stored) {
        this.capacity = capacity;
        this.nextUnused = stored.nextUnused();
        for (int i : stored.freed()) {
            freed.add(i);
        }
    }

    /** The store grew to {@code capacity} blocks: the indices from the old capacity on are unused. */
    void grow(int capacity) {
        if (capacity < this.capacity) {
            throw new IllegalArgumentException("the store cannot shrink from " + this.capacity + " to " + capacity);
        }
        this.capacity = capacity;
    }

    int used() {
        return nextUnused - freed.size();
    }

    int available() {
        return capacity - used();
    }

    /** The next {@code count} indices to take, without taking them. */
    int[] peek(int count) {
        int[] out = new int[count];
        int i = 0;
        for (int index : freed) {
            if (i == count) {
                break;
            }
            out[i++] = index;
        }
        for (int next = nextUnused; i < count; next++) {
            out[i++] = next;
        }
        return out;
    }

    /** What {@code nextUnused} becomes once {@code taken} (from {@link #peek}) are in use. */
    int nextUnusedAfter(int[] taken) {
        int next = nextUnused;
        for (int index : taken) {
            next = Math.max(next, index + 1);
        }
        return next;
    }

    /** Takes what {@link #peek} gave: freed indices, then a run from {@code nextUnused} (so no gap opens). */
    void take(int[] taken) {
        int next = nextUnusedAfter(taken);
        for (int index : taken) {
            freed.remove(index);
        }
        nextUnused = next;
    }

    void free(int[] indices) {
        for (int index : indices) {
            freed.add(index);
        }
    }

    int nextUnused() {
        return nextUnused;
    }
}
