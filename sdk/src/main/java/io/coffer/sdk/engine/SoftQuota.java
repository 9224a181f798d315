package io.coffer.sdk.engine;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One limit for the arrays that several {@link RunBuffers} pools keep through soft references (the read path's runs,
 * the write path's pack buffers and chunk-reader windows). With a limit per budget the pools could keep about three
 * quarters of the heap softly; the heap then stayed above G1's initiating occupancy and every humongous allocation of
 * a pool miss started a concurrent mark cycle that freed nothing, a quarter to a third of the gateway's CPU in a
 * large GET after a large PUT (docs/BENCHMARKS.md, "Issue 23's large GET (get23c)"). A pool that has no room drops
 * the other pools' softly kept arrays first, so that GETs after PUTs (or the other way round) find their own arrays.
 */
final class SoftQuota {
    /** Bytes of the arrays kept softly by all pools, cleared ones included (each pool drops those when met). */
    final AtomicLong bytes = new AtomicLong();
    final long limit;
    private final List<RunBuffers> pools = new CopyOnWriteArrayList<>();

    SoftQuota(long limit) {
        this.limit = Math.max(0, limit);
    }

    void add(RunBuffers pool) {
        pools.add(pool);
    }

    /** Drops other pools' softly kept arrays until {@code size} more bytes fit; whether they do now. */
    boolean makeRoom(int size, RunBuffers asking) {
        for (RunBuffers p : pools) {
            while (p != asking && bytes.get() + size > limit && p.dropSoftlyKept()) {
                // one array of that pool dropped
            }
        }
        return bytes.get() + size <= limit;
    }
}
