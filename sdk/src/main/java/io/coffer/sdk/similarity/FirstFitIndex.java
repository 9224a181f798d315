package io.coffer.sdk.similarity;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * LSH matching as the LSH-MLE baseline does it ("FirstFit", SimEnc §5): a chunk whose super-feature i equals super
 * feature i of an earlier chunk takes that earlier chunk's value (its key), trying i in order and taking the first hit;
 * a chunk that matches nothing registers its own value under all its super-features. Not thread-safe.
 *
 * @param <T> what a base chunk carries (for example its key)
 */
public final class FirstFitIndex<T> {
    private final List<Map<Long, T>> bySuperFeature = new ArrayList<>();

    /** The value of the first earlier chunk sharing a super-feature with {@code sketch}, else {@code ownValue}. */
    public T matchOrAdd(ChunkSketch sketch, T ownValue) {
        return matchOrAdd(sketch, () -> ownValue);
    }

    /**
     * As {@link #matchOrAdd(ChunkSketch, Object)}, but asks for the chunk's own value only when it matches nothing
     * (then exactly once), so that a value costly to make (a SHA-256) is made only for base chunks.
     */
    public T matchOrAdd(ChunkSketch sketch, Supplier<T> ownValue) {
        int n = sketch.superFeatureCount();
        while (bySuperFeature.size() < n) {
            bySuperFeature.add(new HashMap<>());
        }
        for (int i = 0; i < n; i++) {
            T base = bySuperFeature.get(i).get(sketch.superFeature(i));
            if (base != null) {
                return base;
            }
        }
        T own = ownValue.get();
        if (own == null) {
            throw new IllegalArgumentException("no value for a chunk that matches nothing");
        }
        for (int i = 0; i < n; i++) {
            bySuperFeature.get(i).put(sketch.superFeature(i), own);
        }
        return own;
    }
}
