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
        cut(); // stored before a shrink was committed (a crash between the server's shrink and the commit)
    }

    /**
     * The store was resized to {@code capacity} blocks: after a grow the indices from the old capacity on are unused;
     * after a shrink (every index from the new capacity on was free) those indices are forgotten.
     */
    void resize(int capacity) {
        this.capacity = capacity;
        cut();
    }

    /** Keeps {@code nextUnused} within the capacity, no freed index at or above it, and none just below it. */
    private void cut() {
        nextUnused = Math.min(nextUnused, capacity);
        freed.tailSet(nextUnused).clear();
        while (nextUnused > 0 && freed.remove(nextUnused - 1)) {
            nextUnused--;
        }
    }

    int capacity() {
        return capacity;
    }

    /** The smallest k such that every index in use is below 2^k. */
    int smallestK() {
        int top = nextUnused - 1;
        while (top >= 0 && freed.contains(top)) {
            top--;
        }
        return top < 0 ? 0 : 32 - Integer.numberOfLeadingZeros(top);
    }

    /** Whether {@code index} holds no pack's block. */
    boolean isFree(int index) {
        return index >= nextUnused || freed.contains(index);
    }

    /** The next {@code count} free indices below {@code limit}, lowest first, without taking them; null: too few. */
    int[] peekBelow(int count, int limit) {
        int[] out = peek(count);
        return count == 0 || out[count - 1] < limit ? out : null;
    }

    /** The blocks as the map stores them. */
    FreeBlocks stored() {
        return new FreeBlocks(nextUnused, freed.stream().mapToInt(Integer::intValue).toArray());
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
