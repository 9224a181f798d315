package io.coffer.sdk.engine;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.chunk.Chunk;
import io.coffer.sdk.chunk.ChunkReader;
import io.coffer.sdk.crypto.ChunkCipher;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.digest.BodyDigest;
import io.coffer.sdk.key.KeySourceException;
import io.coffer.sdk.manifest.ManifestEntry;
import io.coffer.sdk.meta.ChunkLocation;
import io.coffer.sdk.meta.NewChunks;
import io.coffer.sdk.meta.PackRecord;
import io.coffer.sdk.pack.PackWriter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path for one stream (a PUT body or a part): chunk, hash, key, encrypt, pack, upload. Nothing is
 * committed here; the caller waits for {@link #awaitUploads}, commits the {@link Result} in one metadata transaction,
 * or calls {@link #discard}.
 *
 * <p>Per byte: one chunker pass, one SHA-256 pass (the chunk hash, the key-source input), one zstd attempt straight
 * into the pack buffer when compression is on (kept where it pays, docs/FORMAT.md), one AES-GCM pass there over
 * what is kept (its tag is the integrity check on read), and the MD5 that S3 ETags need, on another core
 * ({@link Md5Tap}). Memory: the chunk reader's window, at most {@code keyBatchChunks} buffered chunks when a remote
 * key source is batched, and at most three packs (one filling, {@link #UPLOADS_IN_FLIGHT} uploading), whatever the
 * stream's length.
 */
final class ObjectWriter {
    private static final Logger LOG = LoggerFactory.getLogger(ObjectWriter.class);
    /** Bodies up to this size are digested inline: a thread hand-off costs more than it saves. */
    private static final long INLINE_MD5_LIMIT = 1 << 20;

    /**
     * What a stream became: its manifest entries and the packs that hold its new chunks, or, for a small object, its
     * bytes ({@code inline}, non-null: no entries, no packs).
     */
    record Result(List<ManifestEntry> entries, NewChunks newChunks, long size, byte[] md5, byte[] inline) {
        List<String> packNames() {
            return newChunks.packs().stream().map(PackRecord::name).toList();
        }
    }

    private final EngineContext ctx;
    private final ChunkCipher cipher;
    private final boolean objectMayDedup;
    /** Whether new chunks are compressed before they are sealed (chunk format 3) where it pays. */
    private final boolean compress;
    /** The customer key's derivation of every chunk key (SSE-C), or null. */
    private final CustomerKeyWrap customerKey;
    private final List<ManifestEntry> entries = new ArrayList<>();
    private final Set<ChunkId> writtenHere = new HashSet<>();
    private final List<PackRecord> packs = new ArrayList<>();
    private final List<ChunkLocation> newLocations = new ArrayList<>();
    private final List<Pending> window = new ArrayList<>();
    private byte[] windowBuf = new byte[0];
    private int windowUsed;
    /** Body bytes handed to {@link #store} so far, stored or deduplicated. */
    private long bodyStored;
    private final long expectedLength;
    /** Bodies of at most this many bytes become inline objects; 0 for parts, whose manifests are joined. */
    private final int inlineLimit;
    private PackWriter pack;
    /**
     * Pack uploads a stream keeps in flight. Two, because a durable put (write, fsync, rename) of one 8 MiB pack
     * takes about as long as filling the next: with one, the writer would wait for the disk; three gained nothing
     * (docs/BENCHMARKS.md, "Figures the code cites").
     */
    static final int UPLOADS_IN_FLIGHT = 2;

    /** A pack upload running in the background and the buffer it reads, reused once the upload is done. */
    private record Upload(CompletableFuture<Void> done, byte[] buffer) {
    }

    private final ArrayDeque<Upload> uploads = new ArrayDeque<>();
    private byte[] spare;
    /**
     * Whether this writer's packs and chunk-reader window come from the engine's pools
     * ({@link EngineContext#packArrays}, {@link EngineContext#windowArrays}): where {@link #bufferBound} reserved whole
     * ones for it.
     */
    private final boolean pooledPacks;
    private final boolean pooledWindow;

    /** When this write began (monotonic): it must commit within {@link #commitWindow} of then. */
    private final long startedNanos = System.nanoTime();

    ObjectWriter(EngineContext ctx, String bucket, String key, long expectedLength, int inlineLimit) {
        this(ctx, bucket, key, expectedLength, inlineLimit, null);
    }

    /** A writer whose chunk keys are derived from a customer key ({@code customerKey} non-null: never inline). */
    ObjectWriter(EngineContext ctx, String bucket, String key, long expectedLength, int inlineLimit,
                 CustomerKeyWrap customerKey) {
        if (customerKey != null && inlineLimit > 0) {
            throw new IllegalArgumentException("an object under a customer key is never inline");
        }
        this.customerKey = customerKey;
        this.ctx = ctx;
        this.inlineLimit = inlineLimit;
        this.cipher = ctx.cipher();
        this.objectMayDedup = ctx.config.dedupPolicy().objectMayDedup(bucket, key);
        this.compress = ctx.config.compression().objectMayCompress(bucket, key);
        this.expectedLength = expectedLength;
        this.pooledPacks = expectedLength < 0 || expectedLength + 1024 >= packArraySize(ctx.config);
        this.pooledWindow = expectedLength < 0 || expectedLength >= ChunkReader.windowSize(ctx.config.chunker());
    }

    /** The bytes a pack may need while it fills: a full pack, one largest chunk beyond it, and its index. */
    static int packArraySize(EngineConfig c) {
        return (int) Math.min(Integer.MAX_VALUE - 16, c.packSize() + (long) c.chunker().maxSize() + 1024);
    }

    /**
     * The most a writer of a body of {@code expectedLength} bytes (-1: unknown) can hold in buffers at once: what
     * {@link BufferBudget} reserves for it. The chunk reader's window (two maximum chunks), a key batch of plaintext when
     * keys come from a remote source, the filling pack and {@link #UPLOADS_IN_FLIGHT} uploading ones, each no larger than
     * the body; a body that will be inline, only itself.
     */
    static long bufferBound(EngineConfig c, long expectedLength, int inlineLimit) {
        if (expectedLength >= 0 && expectedLength <= inlineLimit) {
            return expectedLength + 1;
        }
        long maxChunk = c.chunker().maxSize();
        long perPack = packArraySize(c);
        long body = expectedLength < 0 ? Long.MAX_VALUE : expectedLength;
        long window = Math.min(body, 2 * maxChunk);
        long keyBatch = c.keyBatchChunks() > 1 ? Math.min(body, c.keyBatchChunks() * maxChunk) : 0;
        // a body longer than one pack ends in smaller packs (see endsPackEarly): as many buffers as a long body
        long packs = expectedLength < 0 || expectedLength > c.packSize() ? 1 + UPLOADS_IN_FLIGHT
                : Math.min(1 + UPLOADS_IN_FLIGHT, (expectedLength + c.packSize() - 1) / c.packSize());
        long firstPack = expectedLength < 0 ? perPack : Math.min(expectedLength + 1024, perPack);
        return window + keyBatch + firstPack + Math.max(0, packs - 1) * perPack;
    }

    /** A chunk waiting for its key while a batch for a remote key source fills. */
    private record Pending(int offset, int length, byte[] hash) {
    }

    Result write(InputStream body) throws IOException {
        if (inlineLimit > 0 && expectedLength <= inlineLimit) {
            // a known small length, or an unknown one: read up to one byte past the limit to decide
            byte[] head = body.readNBytes(inlineLimit + 1);
            if (head.length <= inlineLimit) {
                checkLength(head.length);
                return new Result(List.of(), NewChunks.NONE, head.length, Md5Tap.newMd5().digest(head), head);
            }
            body = new SequenceInputStream(new ByteArrayInputStream(head), body);
        }
        byte[] windowArray = pooledWindow ? ctx.windowArrays.take(ChunkReader.windowSize(ctx.config.chunker())) : null;
        // opened last before the try: a lanes digest stays on its hasher until finished or abandoned
        BodyDigest md5 = expectedLength >= 0 && expectedLength <= INLINE_MD5_LIMIT
                ? new Md5Tap(null) : ctx.largeBodyMd5();
        try {
            ChunkReader reader = new ChunkReader(body, ctx.config.chunker(), md5, windowArray);
            for (Chunk c = reader.next(); c != null; c = reader.next()) {
                accept(c.array(), c.offset(), c.length());
            }
            flushWindow();
            byte[] digest = md5.finish();
            // the digest has read every byte: nothing reads the window any more (after a failure it may, so it is
            // left to the garbage collector then)
            ctx.windowArrays.give(windowArray);
            checkLength(md5.count());
            if (pack != null && !pack.isEmpty()) {
                sealAndUpload();
            }
            // the last pack may still be uploading: the caller overlaps it with the manifest upload and calls
            // awaitUploads() before committing
            return new Result(List.copyOf(entries), new NewChunks(packs, newLocations), md5.count(), digest, null);
        } catch (IOException | RuntimeException | Error e) {
            md5.abandon();
            abort();
            throw e;
        }
    }

    /**
     * Layer mode (see {@link LayerWriter}): chunks all of {@code in} as {@link #write} does, with message-locked keys,
     * but neither digests it nor finishes; the caller appends more and then calls {@link #finishAppended}.
     */
    void appendStream(InputStream in) throws IOException {
        ChunkReader reader = new ChunkReader(in, ctx.config.chunker());
        for (Chunk c = reader.next(); c != null; c = reader.next()) {
            accept(c.array(), c.offset(), c.length());
        }
        flushWindow();
    }

    /**
     * Layer mode: one chunk under a key the caller chose (a sub-chunk's key derived from its cluster key), whose chunk
     * id {@code id} the caller derived already (the neighbour rule needs it), so it is not derived twice.
     */
    void appendKeyed(byte[] data, int offset, int length, byte[] hash, ChunkKey key, ChunkId id) throws IOException {
        flushWindow();
        store(data, offset, length, hash, key, id, isStored(id));
    }

    /** Layer mode: entries appended so far. */
    int entryCount() {
        if (!window.isEmpty()) {
            throw new IllegalStateException("entries are counted after appendStream, which flushes its window");
        }
        return entries.size();
    }

    /** Layer mode: seals the last pack; the result describes an object of {@code size} bytes with MD5 {@code md5}. */
    Result finishAppended(long size, byte[] md5) throws IOException {
        flushWindow();
        if (pack != null && !pack.isEmpty()) {
            sealAndUpload();
        }
        return new Result(List.copyOf(entries), new NewChunks(packs, newLocations), size, md5, null);
    }

    /** Layer mode: deletes what was appended after a failure (nothing of it is committed). */
    void abandonAppended() {
        abort();
    }

    private void checkLength(long got) {
        if (expectedLength >= 0 && got != expectedLength) {
            throw CofferException.of(ErrorCode.INCOMPLETE_BODY, "You did not provide the number of bytes "
                    + "specified by the Content-Length HTTP header (got " + got + " of " + expectedLength + ").");
        }
    }

    /** Waits until every pack of this stream is durable on the backend; a commit may only follow this. */
    void awaitUploads() throws IOException {
        while (!uploads.isEmpty()) {
            awaitOldestUpload();
        }
    }

    /** Deletes the packs of a result that will not be committed (nobody else can reference them: see FORMAT.md). */
    void discard(Result result) {
        joinUploadsQuietly();
        for (String name : result.packNames()) {
            deleteQuietly(name);
        }
    }

    /**
     * How long after its start a write may commit: three quarters of the grace period. Its new packs are unindexed
     * until the commit, and a collector deletes unindexed blobs a grace period after their upload; a chunk it reuses
     * was held or committed at most a quarter of the grace period before the write began (EngineContext.reusable).
     */
    static Duration commitWindow(Duration gcGrace) {
        return gcGrace.minus(EngineContext.reuseWindow(gcGrace));
    }

    /**
     * {@code CONFLICT_RETRY} when this write is too old to commit safely (a collector may have removed what it
     * references); nothing with a zero grace period, which promises that no collector runs beside writes.
     */
    void checkCommitWindow() {
        Duration grace = ctx.config.gcGrace();
        Duration elapsed = Duration.ofNanos(System.nanoTime() - startedNanos);
        if (!grace.isZero() && elapsed.compareTo(commitWindow(grace)) > 0) {
            throw CofferException.of(ErrorCode.CONFLICT_RETRY, "the write took " + elapsed.toMillis() + " ms, longer"
                    + " than three quarters of the gc grace period (" + grace + "): garbage collection may have"
                    + " removed data it refers to, so it was not committed; retry it (a large object as a multipart"
                    + " upload) or raise gc-grace");
        }
    }

    private void accept(byte[] data, int offset, int length) throws IOException {
        byte[] hash = cipher.hash(data, offset, length);
        boolean dedup = objectMayDedup && ctx.config.dedupPolicy().chunkMayDedup(length);
        int batch = ctx.config.keyBatchChunks();
        if (!dedup || batch <= 1) {
            // chunks before this one may still wait for their keys: they go first, or the manifest's entries (and
            // the object read back) would have this chunk ahead of them (issue 22)
            flushWindow();
            ChunkKey key = underCustomerKey(dedup ? keysFor(List.of(hash)).get(0) : ChunkKey.random());
            ChunkId id = cipher.idFor(key);
            boolean known = dedup && isStored(id);
            store(data, offset, length, hash, key, id, known);
            return;
        }
        // remote key source: keep the plaintext until a batch of keys comes back in one round trip
        if (windowUsed + length > windowBuf.length) {
            windowBuf = Arrays.copyOf(windowBuf, Math.max(windowUsed + length, windowBuf.length * 2));
        }
        System.arraycopy(data, offset, windowBuf, windowUsed, length);
        window.add(new Pending(windowUsed, length, hash));
        windowUsed += length;
        if (window.size() >= batch) {
            flushWindow();
        }
    }

    private void flushWindow() throws IOException {
        if (window.isEmpty()) {
            return;
        }
        List<byte[]> hashes = window.stream().map(Pending::hash).toList();
        List<ChunkKey> keys = keysFor(hashes).stream().map(this::underCustomerKey).toList();
        List<ChunkId> ids = new ArrayList<>(keys.size());
        for (ChunkKey k : keys) {
            ids.add(cipher.idFor(k));
        }
        Set<ChunkId> stored = ctx.reusable(ids);
        for (int i = 0; i < window.size(); i++) {
            Pending p = window.get(i);
            ChunkId id = ids.get(i);
            store(windowBuf, p.offset(), p.length(), p.hash(), keys.get(i), id,
                    stored.contains(id) || writtenHere.contains(id));
        }
        window.clear();
        windowUsed = 0;
    }

    /** Message-locked keys for the hashes; random keys (dedup lost, data safe) when the source fails. */
    private List<ChunkKey> keysFor(List<byte[]> hashes) {
        if (ctx.keySourcePaused()) {
            return randomKeys(hashes.size());
        }
        try {
            List<ChunkKey> keys = ctx.config.keySource().keysFor(hashes);
            if (keys.size() != hashes.size()) {
                throw new KeySourceException("key source returned " + keys.size() + " keys for " + hashes.size());
            }
            return keys;
        } catch (KeySourceException | RuntimeException e) {
            LOG.warn("key source {} failed, using random keys for {} chunks: {}", ctx.config.keySource().name(),
                    hashes.size(), e.toString());
            ctx.pauseKeySource();
            return randomKeys(hashes.size());
        }
    }

    /** The key a chunk is stored under: {@code key}, or with a customer key, its derivation (dedup per customer key). */
    private ChunkKey underCustomerKey(ChunkKey key) {
        return customerKey == null ? key : customerKey.chunkKey(key);
    }

    private List<ChunkKey> randomKeys(int n) {
        ctx.keySourceFallbacks.increment(n);
        List<ChunkKey> random = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            random.add(ChunkKey.random());
        }
        return random;
    }

    private boolean isStored(ChunkId id) {
        return writtenHere.contains(id) || ctx.reusable(List.of(id)).contains(id);
    }

    private void store(byte[] data, int offset, int length, byte[] hash, ChunkKey key, ChunkId id, boolean known)
            throws IOException {
        long remaining = expectedLength >= 0 ? expectedLength - bodyStored : -1; // this chunk included
        bodyStored += length;
        entries.add(new ManifestEntry(id, key, hash, length));
        if (known) {
            ctx.dedupBytes.increment(length);
            return;
        }
        int packSize = ctx.config.packSize();
        // room for the chunk uncompressed: whether it compresses is known only once it is sealed
        int room = ChunkCipher.sealedLength(length);
        if (pack != null && !pack.isEmpty() && (pack.dataSize() + room > packSize || endsPackEarly(remaining))) {
            sealAndUpload();
        }
        if (pack == null) {
            String name = BackendLayout.pack(BackendLayout.newId());
            if (pooledPacks) {
                pack = new PackWriter(name, ctx.packArrays.take(packArraySize(ctx.config)));
            } else if (spare != null) {
                pack = new PackWriter(name, spare);
                spare = null;
            } else {
                int initial = (int) Math.min(packSize + (long) ctx.config.chunker().maxSize(),
                        Math.max(length, remaining < 0 ? packSize : remaining) + 1024L);
                pack = new PackWriter(name, initial);
            }
        }
        int at = pack.reserve(id, room);
        int sealed = cipher.sealChunk(key, data, offset, length, compress, pack.buffer(), at);
        pack.sealedLast(sealed, length);
        writtenHere.add(id);
        ctx.storedBytes.increment(sealed);
    }

    /**
     * Whether to seal the filling pack before a chunk although it has room: a body longer than one pack, once the
     * pack holds at least an eighth of a pack and more than is left of the body ({@code remaining}, this chunk
     * included). The last packs of such a body then halve in size, and the one uploaded after the body's last byte,
     * which the client waits for, is small instead of up to a whole pack.
     */
    private boolean endsPackEarly(long remaining) {
        int packSize = ctx.config.packSize();
        return expectedLength > packSize && pack.dataSize() >= packSize / 8 && pack.dataSize() >= remaining;
    }

    /** Seals the current pack and uploads it in the background, with at most {@link #UPLOADS_IN_FLIGHT} running. */
    private void sealAndUpload() throws IOException {
        while (uploads.size() >= UPLOADS_IN_FLIGHT) {
            awaitOldestUpload();
        }
        PackWriter full = pack;
        pack = null;
        int size = full.finish(ctx.config.masterKey());
        byte[] bytes = full.buffer();
        packs.add(new PackRecord(full.name(), size, Instant.now()));
        newLocations.addAll(full.chunks());
        uploads.add(new Upload(CompletableFuture.runAsync(() -> {
            try {
                ctx.config.blobs().put(full.name(), BlobContent.of(bytes, 0, size));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, ctx.io), bytes));
    }

    private void awaitOldestUpload() throws IOException {
        Upload oldest = uploads.poll();
        try {
            oldest.done().get();
            if (pooledPacks) {
                ctx.packArrays.give(oldest.buffer());
            } else {
                spare = oldest.buffer();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for a pack upload");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof UncheckedIOException u ? u.getCause() : e.getCause();
            throw cause instanceof IOException io ? io : new IOException("pack upload failed", cause);
        }
    }

    /** Waits for every upload to end, successfully or not, so that no pack appears after its deletion. */
    private void joinUploadsQuietly() {
        for (Upload u : uploads) {
            try {
                u.done().join();
            } catch (RuntimeException ignored) {
                // the upload's own failure is already being reported, or the pack is deleted anyway
            }
        }
        uploads.clear();
    }

    private void abort() {
        joinUploadsQuietly();
        for (PackRecord p : packs) {
            deleteQuietly(p.name());
        }
    }

    private void deleteQuietly(String name) {
        try {
            ctx.config.blobs().delete(name);
        } catch (IOException e) {
            LOG.warn("could not delete uncommitted pack {} (gc removes it later): {}", name, e.toString());
        }
    }
}
