package io.coffer.sdk.engine;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.chunk.ChunkReader;
import io.coffer.sdk.crypto.ChunkCipher;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.crypto.JceWarmup;
import io.coffer.sdk.digest.BodyDigest;
import io.coffer.sdk.digest.Md5Lanes;
import io.coffer.sdk.meta.ChunkLocation;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the write and read paths share: configuration, executors, the chunk-location cache and counters, and how a
 * backend failure is reported.
 */
final class EngineContext implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EngineContext.class);
    final EngineConfig config;
    /** Backend reads and writes: I/O bound, so more threads than cores. */
    final ExecutorService io;
    /** MD5 of the large uploads in flight, several per thread (null without the Vector API; see {@link Md5Lanes}). */
    private final Md5Lanes md5Lanes;
    /** Else one MD5 digest per large upload in flight, each on its own thread (see {@link Md5Tap}). */
    private final ExecutorService md5;
    /**
     * Recently seen chunk locations for reads; a hit saves a metadata query per chunk. A stale entry (a pack that
     * garbage collection here or on another gateway rewrote) costs the read a second lookup (ObjectReadStream).
     */
    final Cache<ChunkId, ChunkLocation> locations;
    /**
     * Chunks a write may reference without storing them again (deduplication): those committed here, or held for
     * reuse by {@link io.coffer.sdk.meta.MetadataStore#locateForReuse}, within the last quarter of the grace period.
     * Garbage collection on any gateway removes a chunk only a grace period after its release or hold, so an entry
     * is good for three quarters of a grace period after it expires: a write that commits within that never
     * references a collected chunk, whatever another gateway's collector did meanwhile.
     */
    final Cache<ChunkId, Boolean> reusable;
    final Counter keySourceFallbacks;
    final Counter dedupBytes;
    final Counter storedBytes;
    final Counter gcRuns;
    final Counter gcFreedBytes;
    final Counter gcLeaseBusy;
    /** This engine's name in maintenance leases ({@link GcLease}). */
    final String leaseHolder = GcLease.processName();
    final BufferBudget writeBudget;
    final BufferBudget readBudget;
    /** The read path's run arrays, kept between GETs (two sizes; see the constructor). */
    final RunArrays runBuffers;
    /**
     * The write path's large arrays, kept between writes: pack buffers, and chunk-reader windows, for the writes whose
     * buffer reservation covers whole ones (ObjectWriter). Fresh ones cost a zeroed humongous array each, over two
     * bytes allocated per byte of a 16 MiB part, and the concurrent marking cycles those allocations start
     * (docs/BENCHMARKS.md, "Figures the code cites").
     */
    final RunBuffers packArrays;
    final RunBuffers windowArrays;
    final ManifestGroups manifestGroups;
    /** Bucket records and configuration documents, briefly (see BucketCache for why that is safe). */
    final BucketCache bucketCache;
    /** While System.nanoTime() is before this, the key source is considered down (see EngineConfig.keySourcePause). */
    private volatile long keySourcePausedUntil = System.nanoTime();
    private final ThreadLocal<ChunkCipher> ciphers;

    /** 8 MiB run arrays kept strongly between GETs; more are kept softly (see below). */
    private static final int LARGE_RUN_ARRAYS_KEPT = 2;

    EngineContext(EngineConfig config) {
        this.config = config;
        JceWarmup.startOnce();
        byte[] chunkSealKey = config.masterKey().deriveSecret(ChunkCipher.SEAL_PURPOSE);
        this.ciphers = ThreadLocal.withInitial(() -> new ChunkCipher(chunkSealKey, config.compression().level()));
        this.io = Executors.newFixedThreadPool(config.ioThreads(), daemon("coffer-io"));
        this.md5Lanes = Md5Lanes.createIfSupported(daemon("coffer-md5-lanes"));
        this.md5 = Executors.newCachedThreadPool(daemon("coffer-md5"));
        this.manifestGroups = new ManifestGroups(config.blobs(), config.masterKey());
        this.bucketCache = new BucketCache(config.metadata());
        this.locations = Caffeine.newBuilder().maximumSize(1 << 20).build();
        this.reusable = Caffeine.newBuilder().maximumSize(1 << 20)
                .expireAfterWrite(reuseWindow(config.gcGrace())).build();
        this.writeBudget = new BufferBudget(config.writeBudget(), config.budgetWait());
        this.readBudget = new BufferBudget(config.readBudget(), config.budgetWait());
        // a run is one chunk, or chunks of at most MAX_RUN_BYTES together: a 4 MiB chunk is stored with its tag.
        // Runs up to one largest chunk keep the arrays they always had; longer ones (up to a whole pack) take arrays
        // twice that size, two of them kept for good (what a heap holds between GETs grows by 16 MiB). Beyond those,
        // softly: as many arrays as the read budget lets GETs hold at once, both sizes together (one limit, so that
        // after a mix of small and large runs the two do not each keep their peak)
        int smallArray = ObjectReadStream.SMALL_RUN_BYTES + ChunkCipher.TAG_LENGTH;
        int largeArray = ObjectReadStream.MAX_RUN_BYTES + ChunkCipher.TAG_LENGTH;
        AtomicLong softBytes = new AtomicLong();
        long softLimit = Math.min(1024L * smallArray, config.readBudget());
        this.runBuffers = new RunArrays(
                new RunBuffers(smallArray, 2 * (config.readAhead() + 1), softBytes, softLimit),
                smallArray,
                new RunBuffers(largeArray, LARGE_RUN_ARRAYS_KEPT, softBytes, softLimit));
        // one of each kept for good; beyond that, softly, at most what the write budget lets writes hold at once
        AtomicLong writeSoftBytes = new AtomicLong();
        this.packArrays = new RunBuffers(ObjectWriter.packArraySize(config), 1, writeSoftBytes, config.writeBudget());
        this.windowArrays = new RunBuffers(ChunkReader.windowSize(config.chunker()), 1, writeSoftBytes,
                config.writeBudget());
        Gauge.builder("coffer.write.budget.available", writeBudget,
                        b -> b.availableKib() * 1024.0).baseUnit("bytes")
                .description("write buffer memory not reserved by writes in flight").register(config.meters());
        Gauge.builder("coffer.read.budget.available", readBudget,
                        b -> b.availableKib() * 1024.0).baseUnit("bytes")
                .description("read buffer memory not reserved by reads in flight").register(config.meters());
        this.keySourceFallbacks = Counter.builder("coffer.keysource.fallbacks")
                .description("chunks encrypted under a random key because the key source failed")
                .register(config.meters());
        this.dedupBytes = Counter.builder("coffer.dedup.bytes")
                .description("plaintext bytes not stored because an equal chunk already was").register(config.meters());
        this.storedBytes = Counter.builder("coffer.stored.bytes")
                .description("chunk bytes written to new packs").register(config.meters());
        this.gcRuns = Counter.builder("coffer.gc.runs")
                .description("garbage-collection passes this process completed").register(config.meters());
        this.gcFreedBytes = Counter.builder("coffer.gc.freed").baseUnit("bytes")
                .description("backend bytes garbage collection deleted").register(config.meters());
        this.gcLeaseBusy = Counter.builder("coffer.gc.lease.busy")
                .description("garbage-collection passes not run because another process held the lease")
                .register(config.meters());
    }

    ChunkCipher cipher() {
        return ciphers.get();
    }

    boolean keySourcePaused() {
        return System.nanoTime() - keySourcePausedUntil < 0;
    }

    void pauseKeySource() {
        keySourcePausedUntil = System.nanoTime() + config.keySourcePause().toNanos();
    }

    /** Locations of the given ids, from the cache or in one metadata query for the rest. */
    Map<ChunkId, ChunkLocation> locate(Collection<ChunkId> ids) {
        Map<ChunkId, ChunkLocation> found = new HashMap<>();
        List<ChunkId> missing = new ArrayList<>();
        for (ChunkId id : ids) {
            ChunkLocation loc = locations.getIfPresent(id);
            if (loc != null) {
                found.put(id, loc);
            } else {
                missing.add(id);
            }
        }
        if (!missing.isEmpty()) {
            Map<ChunkId, ChunkLocation> fromStore = config.metadata().locate(missing);
            locations.putAll(fromStore);
            found.putAll(fromStore);
        }
        return found;
    }

    /**
     * Those of {@code ids} a write may reference without storing them: from {@link #reusable}, or held for reuse in
     * one metadata call for the rest.
     */
    Set<ChunkId> reusable(Collection<ChunkId> ids) {
        Set<ChunkId> found = new HashSet<>();
        List<ChunkId> missing = new ArrayList<>();
        for (ChunkId id : ids) {
            if (reusable.getIfPresent(id) != null) {
                found.add(id);
            } else {
                missing.add(id);
            }
        }
        if (!missing.isEmpty()) {
            Map<ChunkId, ChunkLocation> held = config.metadata().locateForReuse(missing);
            for (ChunkLocation l : held.values()) {
                reusable.put(l.id(), Boolean.TRUE);
                locations.put(l.id(), l);
                found.add(l.id());
            }
        }
        return found;
    }

    /** Records chunks just committed (referenced, so reusable for a while) and where they are. */
    void committed(Collection<ChunkLocation> chunks) {
        for (ChunkLocation c : chunks) {
            locations.put(c.id(), c);
            reusable.put(c.id(), Boolean.TRUE);
        }
    }

    /**
     * Forgets what is cached about {@code ids}: a commit that referenced them failed with CONFLICT_RETRY (one may
     * have been collected), and the client's retry must look them up again.
     */
    void forget(Collection<ChunkId> ids) {
        locations.invalidateAll(ids);
        reusable.invalidateAll(ids);
    }

    /** How long an entry of {@link #reusable} is trusted: a quarter of the grace period. */
    static Duration reuseWindow(Duration gcGrace) {
        return gcGrace.dividedBy(4);
    }

    /** Deletes a blob no record refers to any more; best effort, as fsck reports what is left and gc removes it. */
    void deleteQuietly(String blob) {
        try {
            config.blobs().delete(blob);
        } catch (IOException e) {
            LOG.warn("could not delete blob {} (fsck reports it, gc removes it later): {}", blob, e.toString());
        }
    }

    static CofferException backendFailure(String what, IOException e) {
        return CofferException.of(ErrorCode.INTERNAL_ERROR, "Backend failure: " + what + " (" + e.getMessage() + ")",
                e);
    }

    /** The MD5 of a large body, digested beside the reading thread. */
    BodyDigest largeBodyMd5() {
        return md5Lanes != null ? md5Lanes.open() : new Md5Tap(md5);
    }

    @Override
    public void close() {
        io.shutdown();
        md5.shutdownNow();
        if (md5Lanes != null) {
            md5Lanes.close();
        }
    }

    private static ThreadFactory daemon(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
