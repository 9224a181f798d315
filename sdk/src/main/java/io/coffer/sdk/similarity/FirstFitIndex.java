package io.coffer.sdk.similarity;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
        for (int i = 0; i < n; i++) {
            bySuperFeature.get(i).put(sketch.superFeature(i), ownValue);
        }
        return ownValue;
    }
}
