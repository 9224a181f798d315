package io.coffer.sdk;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Storage statistics per bucket, per tenant (bucket owner) and for the whole store. A chunk shared by two buckets (or
 * tenants) counts in each of them and once in {@code store}. {@code packs} and {@code packBytes} are the live packs on
 * the backend and their sizes: referenced chunks plus chunks awaiting garbage collection, copies a concurrent write
 * stored twice, and each pack's sealed index.
 *
 * @param buckets every bucket, in name order (one without objects has {@link UsageStats#EMPTY})
 * @param tenants usage per owner of at least one bucket, in owner order
 */
public record StorageStats(List<BucketStats> buckets, Map<String, UsageStats> tenants, UsageStats store, long packs,
                           long packBytes) {
    public StorageStats {
        buckets = List.copyOf(buckets);
        tenants = Collections.unmodifiableSortedMap(new TreeMap<>(tenants));
    }
}
