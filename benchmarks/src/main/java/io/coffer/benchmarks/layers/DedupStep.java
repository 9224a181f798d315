package io.coffer.benchmarks.layers;

import io.coffer.sdk.chunk.FastCdcChunker;
import io.coffer.sdk.crypto.ChunkCipher;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.key.KeySource;
import io.coffer.sdk.key.KeySourceException;
import io.coffer.sdk.layer.LayerModePolicy;
import io.coffer.sdk.similarity.ChunkSketch;
import io.coffer.sdk.similarity.ClusterIndex;
import io.coffer.sdk.similarity.ClusterKeyring;
import io.coffer.sdk.similarity.FinesseSketcher;
import io.coffer.sdk.similarity.FirstFitIndex;
import io.coffer.sdk.similarity.NeighbourKeys;
import io.coffer.sdk.similarity.SubChunkKeys;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

/**
 * The dedup step of the paper's section 6.4 over partially decoded layers (token streams), made of the classes the
 * engine's layer writer uses, in its order: each 512 KiB chunk sketched ({@link FinesseSketcher}); its key assigned
 * (SimEnc: {@link ClusterIndex} at the engine's threshold and one key per cluster from the key source through
 * {@link ClusterKeyring}; LSH-MLE: {@link FirstFitIndex} over super-features, the key being the SHA-256 of the first
 * matching chunk), a chunk being hashed ({@link ChunkCipher#hash}) only when it founds a cluster or group, as in the
 * writer; then FastCDC sub-chunks (the engine's sizes), each hashed, keyed by {@link SubChunkKeys}, its id from
 * {@link ChunkCipher#idFor}, looked up, and if new sealed by {@link ChunkCipher#sealChunk} with compression on (the
 * engine's default). SimEnc also tries the neighbouring chunks'
 * cluster keys for a sub-chunk its own key does not hold, as the layer writer does.
 *
 * <p>Not included: the engine's metadata store round trips (the dedup index here is an in-memory set of chunk ids: the
 * ids committed by earlier layers, which the neighbour check consults as the engine's {@code locate} does, plus those
 * written by this layer), pack assembly and upload, the similarity journal, and the layer's reproducibility check.
 *
 * <p>With a pool, chunks are sketched and sealed on its threads and only the key assignment (with the hashing of the
 * chunks that found a cluster) runs in order on the calling thread; {@link #layers} also takes the next layer's
 * sketches and keys while the previous layer is sealed. The result (what is new, what is stored) does not depend on
 * the number of threads.
 */
final class DedupStep {
    /** How a chunk's key is chosen. */
    enum Method {
        LSH_MLE("LSH-MLE"), SIMENC("SimEnc");

        final String label;

        Method(String label) {
            this.label = label;
        }
    }

    /**
     * What the step did.
     *
     * @param inputBytes   bytes of token stream processed
     * @param subChunks    sub-chunks cut
     * @param newSubChunks sub-chunks sealed (not found in the index)
     * @param storedBytes  bytes those sealed sub-chunks take
     * @param keys         distinct chunk keys (clusters for SimEnc, base chunks for LSH-MLE)
     */
    record Result(long inputBytes, long subChunks, long newSubChunks, long storedBytes, int keys) {
    }

    private static final int CHUNK = LayerModePolicy.CHUNK_SIZE;

    private final Method method;
    private final byte[] chunkSealKey;
    private final ExecutorService pool;
    private final FinesseSketcher sketcher = new FinesseSketcher();
    private final FastCdcChunker cdc;
    private final ClusterIndex clusters;
    private final ClusterKeyring keyring;
    private final FirstFitIndex<ChunkKey> firstFit = new FirstFitIndex<>();
    private final Set<ChunkKey> lshKeys = new HashSet<>();
    /** Ids committed by earlier layers: read-only while a layer runs. */
    private final Set<ChunkId> committed = new HashSet<>();
    /** Ids this layer wrote. */
    private final Set<ChunkId> written = ConcurrentHashMap.newKeySet();
    private final ThreadLocal<ChunkCipher> ciphers;
    private final LongAdder subChunks = new LongAdder();
    private final LongAdder newSubChunks = new LongAdder();
    private final LongAdder storedBytes = new LongAdder();
    private long inputBytes;

    /**
     * @param pool null to run on the calling thread only
     */
    DedupStep(Method method, byte[] chunkSealKey, KeySource source, int subChunkAverage, int threshold,
              ExecutorService pool) {
        this.method = method;
        this.chunkSealKey = chunkSealKey.clone();
        this.pool = pool;
        this.cdc = new FastCdcChunker(subChunkAverage / 2, subChunkAverage, subChunkAverage * 4);
        this.clusters = new ClusterIndex(FinesseSketcher.DEFAULT_CODE_BITS, threshold);
        this.keyring = new ClusterKeyring(source);
        this.ciphers = ThreadLocal.withInitial(() -> new ChunkCipher(this.chunkSealKey));
    }

    /** Runs the step over one layer's token stream. */
    void layer(byte[] tokens) throws KeySourceException {
        seal(keyed(tokens));
    }

    /**
     * Runs the step over layers in order, the next layer's sketches and keys taken on the calling thread while the
     * previous layer's sub-chunks are sealed on the pool (as layers uploaded together overlap in a gateway); the
     * result is that of {@link #layer} over each in turn: keys are assigned in layer order, and a layer's sub-chunks
     * are sealed only after the previous layer's were committed. Without a pool, {@link #layer} over each.
     */
    void layers(List<byte[]> streams) throws KeySourceException {
        if (pool == null) {
            for (byte[] tokens : streams) {
                layer(tokens);
            }
            return;
        }
        ExecutorService sealer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "dedup-step-sealer");
            t.setDaemon(true);
            return t;
        });
        try {
            Future<?> sealing = null;
            for (byte[] tokens : streams) {
                Keyed next = keyed(tokens);
                await(sealing, "sealing a layer");
                sealing = sealer.submit(() -> seal(next));
            }
            await(sealing, "sealing a layer");
        } finally {
            sealer.shutdownNow();
        }
    }

    /** Waits for {@code task} (null: nothing to wait for); its failure is rethrown as {@code what} failed. */
    private static void await(Future<?> task, String what) {
        if (task == null) {
            return;
        }
        try {
            task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(what + " failed", e.getCause());
        }
    }

    /** A layer's token stream with its chunks' keys. */
    private record Keyed(byte[] tokens, List<ChunkKey> keys) {
    }

    /** A layer's chunks sketched and their keys assigned, in order. */
    private Keyed keyed(byte[] tokens) throws KeySourceException {
        int chunks = (tokens.length + CHUNK - 1) / CHUNK;
        ChunkSketch[] sketches = new ChunkSketch[chunks];
        forEachChunk(chunks, i -> {
            int off = i * CHUNK;
            sketches[i] = sketcher.sketch(tokens, off, Math.min(CHUNK, tokens.length - off));
        });
        List<ChunkKey> keys = keys(sketches, i -> {
            int off = i * CHUNK;
            return ciphers.get().hash(tokens, off, Math.min(CHUNK, tokens.length - off));
        });
        return new Keyed(tokens, keys);
    }

    /** A keyed layer's sub-chunks cut, looked up and the new ones sealed; then they count as committed. */
    private void seal(Keyed layer) {
        byte[] tokens = layer.tokens();
        int chunks = (tokens.length + CHUNK - 1) / CHUNK;
        forEachChunk(chunks, i -> subChunks(tokens, i, layer.keys()));
        committed.addAll(written);
        written.clear();
        inputBytes += tokens.length;
    }

    Result result() {
        int keyCount = method == Method.SIMENC ? clusters.size() : lshKeys.size();
        return new Result(inputBytes, subChunks.sum(), newSubChunks.sum(), storedBytes.sum(), keyCount);
    }

    /** The chunks' keys, in order; {@code hashOf} is asked only for the chunks that found a cluster or group. */
    private List<ChunkKey> keys(ChunkSketch[] sketches, IntFunction<byte[]> hashOf) throws KeySourceException {
        List<ChunkKey> keys = new ArrayList<>(sketches.length);
        if (method == Method.LSH_MLE) {
            for (int i = 0; i < sketches.length; i++) {
                int chunk = i;
                ChunkKey key = firstFit.matchOrAdd(sketches[i], () -> ChunkKey.of(hashOf.apply(chunk)));
                lshKeys.add(key);
                keys.add(key);
            }
            return keys;
        }
        List<Integer> assigned = new ArrayList<>(sketches.length);
        for (int i = 0; i < sketches.length; i++) {
            int chunk = i;
            assigned.add(clusters.assign(sketches[i], () -> hashOf.apply(chunk)).cluster());
        }
        return keyring.keysFor(clusters, assigned);
    }

    /** One chunk's sub-chunks: cut, keyed, looked up, the new ones sealed. */
    private void subChunks(byte[] tokens, int chunk, List<ChunkKey> keys) {
        ChunkCipher cipher = ciphers.get();
        int start = chunk * CHUNK;
        int end = Math.min(tokens.length, start + CHUNK);
        SubChunkKeys own = new SubChunkKeys(keys.get(chunk));
        List<SubChunkKeys> neighbours = method == Method.SIMENC ? NeighbourKeys.of(keys, chunk) : List.of();
        byte[] sealed = new byte[ChunkCipher.sealedLength(cdc.maxSize())];
        long cut = 0;
        long fresh = 0;
        long stored = 0;
        for (int at = start; at < end; cut++) {
            int n = cdc.nextCut(tokens, at, end - at);
            byte[] hash = cipher.hash(tokens, at, n);
            // as the layer writer, but a neighbour's ciphertext counts only when an earlier layer committed it
            NeighbourKeys.Choice chosen = NeighbourKeys.choose(own, neighbours, hash, cipher::idFor,
                    committed::contains);
            ChunkId id = chosen.id();
            if (!committed.contains(id) && written.add(id)) {
                stored += cipher.sealChunk(chosen.key(), tokens, at, n, true, sealed, 0);
                fresh++;
            }
            at += n;
        }
        subChunks.add(cut);
        newSubChunks.add(fresh);
        storedBytes.add(stored);
    }

    private interface ChunkTask {
        void run(int chunk);
    }

    /** Runs {@code task} for every chunk, on the pool when there is one, and waits for all. */
    private void forEachChunk(int chunks, ChunkTask task) {
        if (pool == null) {
            for (int i = 0; i < chunks; i++) {
                task.run(i);
            }
            return;
        }
        List<Callable<Void>> tasks = new ArrayList<>(chunks);
        for (int i = 0; i < chunks; i++) {
            int c = i;
            tasks.add(() -> {
                task.run(c);
                return null;
            });
        }
        List<Future<Void>> done;
        try {
            done = pool.invokeAll(tasks);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        for (Future<Void> f : done) {
            await(f, "a chunk task");
        }
    }
}
