package io.coffer.sdk;

import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.blob.MeteredBlobStore;
import io.coffer.sdk.blob.ReadOnlyBlobStore;
import io.coffer.sdk.blob.RetryingBlobStore;
import io.coffer.sdk.chunk.Chunker;
import io.coffer.sdk.chunk.ChunkerSpec;
import io.coffer.sdk.crypto.ChunkCompressor;
import io.coffer.sdk.crypto.CompressionPolicy;
import io.coffer.sdk.layer.LayerModePolicy;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.engine.Engine;
import io.coffer.sdk.engine.EngineConfig;
import io.coffer.sdk.engine.KeyCheck;
import io.coffer.sdk.key.DedupPolicy;
import io.coffer.sdk.key.KeySource;
import io.coffer.sdk.key.MeteredKeySource;
import io.coffer.sdk.key.OprfKeySource;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Objects;

/**
 * Builds a {@link Coffer}. Each option is validated as it is set; {@link #directory} fills in whatever was not set
 * explicitly with the embedded defaults (a directory backend, SQLite metadata and a master key file, all under one
 * directory).
 */
public final class CofferBuilder {
    public static final int DEFAULT_PACK_SIZE = 8 << 20;
    public static final long S3_MIN_PART_SIZE = 5L << 20;
    public static final int DEFAULT_INLINE_LIMIT = 16 << 10;
    /** Inline objects live in the metadata store's row and the manifest blob; keep both rows small. */
    public static final int MAX_INLINE_LIMIT = 256 << 10;

    private Path directory;
    private boolean createIfMissing = true;
    private boolean init;
    private MasterKey rotateTo;
    private BlobStore blobs;
    private boolean readOnlyBackend;
    private MetadataStore metadata;
    private MasterKey masterKey;
    private BackendDecorator backendDecorator;
    private Path masterKeyFile;
    private Chunker chunker;
    private KeySource keySource;
    private DedupPolicy dedupPolicy = DedupPolicy.DEFAULT;
    private int packSize = DEFAULT_PACK_SIZE;
    private long minPartSize = S3_MIN_PART_SIZE;
    private int inlineLimit = DEFAULT_INLINE_LIMIT;
    private int keyBatchChunks = -1;
    private int readAhead = 4;
    private int ioThreads = 16;
    private Duration gcGrace = Duration.ofHours(1);
    private double gcDeadFraction = 0.3;
    private Duration keySourcePause = Duration.ofSeconds(5);
    private long writeBudget = -1;
    private long readBudget = -1;
    private Duration budgetWait = Duration.ofSeconds(30);
    private CompressionPolicy compression = CompressionPolicy.DEFAULT;
    private LayerModePolicy layers = LayerModePolicy.OFF;
    private MeterRegistry meters;

    CofferBuilder() {
    }

    /**
     * Keeps everything not set explicitly under {@code dir}: blobs/, coffer.db and master.key. The engine holds an
     * exclusive lock on the directory ({@code coffer.lock}) until it is closed: a second engine on it, in this process
     * or another, fails to build.
     */
    public CofferBuilder directory(Path dir) {
        this.directory = Objects.requireNonNull(dir, "dir");
        return this;
    }

    /**
     * Whether {@link #build} may create a new store in {@link #directory} (default true). With false, a directory that
     * holds no store (no {@code master.key}) is refused, so that a tool pointed at the wrong path cannot mint a new
     * master key, and so a new and empty store, in its place.
     */
    public CofferBuilder createIfMissing(boolean create) {
        this.createIfMissing = create;
        return this;
    }

    /**
     * With {@code true}, a new store may be made where the backend or metadata store is not empty but holds no key
     * check and nothing sealed to check the master key against (for example a bucket shared with other data). Without
     * it a new store, and a new {@code master.key} in {@link #directory}, are made only on an empty backend and
     * metadata store: a gateway given no key beside a store that exists is refused rather than given a key of its own.
     * A store that has a key check is never made anew; its key must be given.
     */
    public CofferBuilder init(boolean init) {
        this.init = init;
        return this;
    }

    /**
     * Makes {@code next} the store's master key when it is opened (docs/SECURITY.md, "Key rotation"): the key the
     * builder was given (the current one) must open the store; {@code next} then wraps it and the earlier keys, and the
     * engine seals under {@code next}. Afterwards only {@code next} opens the store.
     */
    public CofferBuilder rotateMasterKeyTo(MasterKey next) {
        this.rotateTo = Objects.requireNonNull(next, "next");
        return this;
    }

    /**
     * The backend (default with {@link #directory}: a {@link DirectoryBlobStore} under it, in a
     * {@link RetryingBlobStore}). A store given here is used as it is, its own retries included: wrap it in a
     * {@link RetryingBlobStore} if it has none. Either way the engine measures its calls ({@link MeteredBlobStore}).
     */
    public CofferBuilder blobStore(BlobStore store) {
        this.blobs = Objects.requireNonNull(store, "store");
        return this;
    }

    /**
     * With {@code true}, the engine reads its backend and never writes or deletes there (a {@link ReadOnlyBlobStore}
     * over it): for checks such as fsck, which must not change what they check. Writes fail with the store's error.
     */
    public CofferBuilder readOnlyBackend(boolean readOnly) {
        this.readOnlyBackend = readOnly;
        return this;
    }

    /**
     * Wraps the backend in {@code decorator} when {@link #build} has made its defaults (inside the engine's metering
     * and the read-only view), e.g. the PoR store. The decorated store is closed with the engine.
     */
    public CofferBuilder decorateBackend(BackendDecorator decorator) {
        this.backendDecorator = Objects.requireNonNull(decorator, "decorator");
        return this;
    }

    public CofferBuilder metadataStore(MetadataStore store) {
        this.metadata = Objects.requireNonNull(store, "store");
        return this;
    }

    public CofferBuilder masterKey(MasterKey key) {
        this.masterKey = Objects.requireNonNull(key, "key");
        return this;
    }

    /**
     * Where the master key is kept (default with {@link #directory}: its {@code master.key}); several gateways of one
     * store are given the same file. The file is made, mode 0600, only for a new store (see {@link #init}); an existing
     * one readable by group or others is refused.
     */
    public CofferBuilder masterKeyFile(Path file) {
        this.masterKeyFile = Objects.requireNonNull(file, "file");
        return this;
    }

    public CofferBuilder chunker(Chunker c) {
        this.chunker = Objects.requireNonNull(c, "chunker");
        return this;
    }

    /**
     * Where message-locked keys come from. The default evaluates the OPRF in-process under a P-256 key derived from
     * the master key ({@link OprfKeySource#embedded}); a remote key server lets several gateways share one dedup domain.
     */
    public CofferBuilder keySource(KeySource source) {
        this.keySource = Objects.requireNonNull(source, "source");
        return this;
    }

    public CofferBuilder dedupPolicy(DedupPolicy policy) {
        this.dedupPolicy = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /** Target pack size, 64 KiB to 256 MiB (default 8 MiB). */
    public CofferBuilder packSize(int bytes) {
        if (bytes < (64 << 10) || bytes > (256 << 20)) {
            throw new IllegalArgumentException("pack size must be between 64 KiB and 256 MiB, got " + bytes);
        }
        this.packSize = bytes;
        return this;
    }

    /**
     * Objects of at most this many bytes (default 16 KiB, 0 turns it off, at most 256 KiB) are stored inside their
     * sealed manifest rather than chunked into a pack: one backend write per PUT instead of two, no key-source query,
     * and a GET that needs no backend read. Such objects are not deduplicated.
     */
    public CofferBuilder inlineLimit(int bytes) {
        if (bytes < 0 || bytes > MAX_INLINE_LIMIT) {
            throw new IllegalArgumentException("inline limit must be between 0 and " + MAX_INLINE_LIMIT + ", got "
                    + bytes);
        }
        this.inlineLimit = bytes;
        return this;
    }

    /**
     * Which chunks are compressed (zstd) before they are encrypted, each one only where that saves at least a 32nd of
     * it, and at which level (default: all, level {@value ChunkCompressor#DEFAULT_LEVEL}; docs/FORMAT.md, "Chunks").
     * Chunks already stored keep their form and read either way.
     */
    public CofferBuilder compression(CompressionPolicy policy) {
        this.compression = Objects.requireNonNull(policy);
        return this;
    }

    /**
     * Which buckets store gzip objects in SimEnc's layer mode (default: none). Needs a message-locked key source
     * (convergent or the key server); with random keys every object is stored as it came.
     */
    public CofferBuilder layers(LayerModePolicy policy) {
        this.layers = Objects.requireNonNull(policy);
        return this;
    }

    /** Compression on (the default, {@link CompressionPolicy#DEFAULT}) or off for every bucket. */
    public CofferBuilder compression(boolean enabled) {
        return compression(enabled ? CompressionPolicy.DEFAULT : CompressionPolicy.OFF);
    }

    /** Smallest part of a multipart upload other than the last (default 5 MiB, as S3; tests may lower it). */
    public CofferBuilder minPartSize(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("minimum part size must be >= 0");
        }
        this.minPartSize = bytes;
        return this;
    }

    /** Chunks per key-source request (default: 1 for in-process sources, 32 for remote ones). */
    public CofferBuilder keyBatchChunks(int chunks) {
        if (chunks < 1 || chunks > 4096) {
            throw new IllegalArgumentException("key batch must be 1..4096 chunks, got " + chunks);
        }
        this.keyBatchChunks = chunks;
        return this;
    }

    /** Chunk reads a GET keeps in flight (default 4). */
    public CofferBuilder readAhead(int runs) {
        if (runs < 1 || runs > 64) {
            throw new IllegalArgumentException("read-ahead must be 1..64, got " + runs);
        }
        this.readAhead = runs;
        return this;
    }

    /** Threads for backend I/O (default 16). */
    public CofferBuilder ioThreads(int threads) {
        if (threads < 1 || threads > 512) {
            throw new IllegalArgumentException("I/O threads must be 1..512, got " + threads);
        }
        this.ioThreads = threads;
        return this;
    }

    /** How long garbage collection leaves unreferenced data alone (default 1 hour; must exceed the longest upload). */
    public CofferBuilder gcGrace(Duration grace) {
        if (grace.isNegative()) {
            throw new IllegalArgumentException("grace period must not be negative");
        }
        this.gcGrace = grace;
        return this;
    }

    /** Dead fraction of a pack at which garbage collection rewrites it (default 0.3). */
    public CofferBuilder gcDeadFraction(double fraction) {
        if (!(fraction > 0 && fraction <= 1)) {
            throw new IllegalArgumentException("dead fraction must be in (0, 1], got " + fraction);
        }
        this.gcDeadFraction = fraction;
        return this;
    }

    /**
     * After a key-source failure, how long writes use random keys without asking it again (default 5 s), so a dead
     * key server costs one timeout rather than one per batch of chunks.
     */
    public CofferBuilder keySourcePause(Duration pause) {
        if (pause.isNegative()) {
            throw new IllegalArgumentException("key-source pause must not be negative");
        }
        this.keySourcePause = pause;
        return this;
    }

    /**
     * Memory that all writes in flight may hold together in buffers (default: half the JVM's maximum heap, at least
     * 64 MiB). A write reserves its worst case before it reads its body: a small PUT a little more than its length, a
     * large one up to three packs and a chunk window (about 44 MiB with the defaults). Writes beyond the budget wait
     * ({@link #budgetWait}) and then fail with SlowDown, having stored nothing.
     */
    public CofferBuilder writeBufferBudget(long bytes) {
        if (bytes < (1 << 20)) {
            throw new IllegalArgumentException("write buffer budget must be at least 1 MiB, got " + bytes);
        }
        this.writeBudget = bytes;
        return this;
    }

    /**
     * Memory that all reads in flight may hold together in run buffers (default: a quarter of the JVM's maximum heap,
     * at least 32 MiB). A GET reserves one run (at most about 4 MiB, less for a smaller object) before its response
     * starts, and reads ahead only with memory the budget has free; a GET that finds the budget spent waits
     * ({@link #budgetWait}) and then fails with SlowDown before it sends a byte.
     */
    public CofferBuilder readBufferBudget(long bytes) {
        if (bytes < (1 << 20)) {
            throw new IllegalArgumentException("read buffer budget must be at least 1 MiB, got " + bytes);
        }
        this.readBudget = bytes;
        return this;
    }

    /**
     * How long a write or a read waits for its share of its buffer budget before failing with SlowDown (default
     * 30 s).
     */
    public CofferBuilder budgetWait(Duration wait) {
        if (wait.isNegative()) {
            throw new IllegalArgumentException("budget wait must not be negative");
        }
        this.budgetWait = wait;
        return this;
    }

    public CofferBuilder meterRegistry(MeterRegistry registry) {
        this.meters = Objects.requireNonNull(registry, "registry");
        return this;
    }

    public Coffer build() {
        DataDirectoryLock lock = null;
        MetadataStore ownMetadata = null;
        try {
            if (directory != null) {
                if (!createIfMissing && masterKey == null && masterKeyFile != null
                        && !Files.isRegularFile(masterKeyFile)) {
                    throw new IllegalStateException("master key file " + masterKeyFile.toAbsolutePath()
                            + " does not exist");
                }
                if (!createIfMissing && masterKey == null && !Files.isRegularFile(directory.resolve("master.key"))
                        && masterKeyFile == null) {
                    throw new IllegalStateException("no Coffer store in " + directory.toAbsolutePath() + ": "
                            + (Files.isDirectory(directory) ? "it holds no master.key" : "no such directory"));
                }
                if (!Files.exists(directory) && directory.getFileSystem().supportedFileAttributeViews()
                        .contains("posix")) {
                    Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rwx------")));
                }
                Files.createDirectories(directory);
                lock = DataDirectoryLock.acquire(directory);
                if (blobs == null) {
                    // a store given by the caller keeps its own retry policy (S3BlobStore's is the AWS SDK's)
                    blobs = new RetryingBlobStore(new DirectoryBlobStore(directory.resolve("blobs")));
                }
                if (metadata == null) {
                    metadata = ownMetadata = JdbcMetadataStore.sqlite(directory.resolve("coffer.db"));
                }
            }
            if (masterKey == null && (masterKeyFile != null || directory != null) && blobs != null
                    && metadata != null) {
                masterKey = keyFile(masterKeyFile != null ? masterKeyFile : directory.resolve("master.key"));
            }
            if (blobs == null || metadata == null || masterKey == null) {
                throw new IllegalStateException("set directory(), or blobStore(), metadataStore() and masterKey()");
            }
            if (rotateTo != null && readOnlyBackend) {
                throw new IllegalStateException("a key rotation writes to the backend; it is read-only here");
            }
            MasterKey key = KeyCheck.open(blobs, metadata, masterKey, init, !readOnlyBackend);
            if (rotateTo != null) {
                key = KeyCheck.rotate(blobs, key, rotateTo);
            }
            BlobStore backend = backendDecorator != null ? backendDecorator.decorate(blobs, metadata, key) : blobs;
            Chunker c = chunker != null ? chunker : ChunkerSpec.DEFAULT.newChunker();
            KeySource ks = keySource != null ? keySource : OprfKeySource.embedded(key);
            int batch = keyBatchChunks > 0 ? keyBatchChunks : ks.remote() ? 32 : 1;
            MeterRegistry registry = meters != null ? meters : new SimpleMeterRegistry();
            ks = new MeteredKeySource(ks, registry);
            return new Engine(new EngineConfig(new MeteredBlobStore(readOnlyBackend ? new ReadOnlyBlobStore(backend) : backend, registry), metadata, key, c, ks, dedupPolicy, packSize, inlineLimit,
                    minPartSize, batch, readAhead, ioThreads, gcGrace, gcDeadFraction, keySourcePause,
                    writeBudget > 0 ? writeBudget : Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 2),
                    readBudget > 0 ? readBudget : Math.max(32L << 20, Runtime.getRuntime().maxMemory() / 4),
                    budgetWait, compression, layers, registry), lock);
        } catch (IOException e) {
            release(lock, ownMetadata);
            throw new UncheckedIOException((directory != null ? "cannot open data directory " + directory
                    : "cannot open the store") + ": " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            release(lock, ownMetadata);
            throw e;
        }
    }

    /**
     * The master key file's key; a new file only for a new store (an empty backend and metadata store, or
     * {@link #init}), so that a second gateway started without the store's key does not make a key of its own.
     */
    private MasterKey keyFile(Path file) throws IOException {
        if (Files.exists(file)) {
            return MasterKey.load(file);
        }
        if (!init && !KeyCheck.isEmptyStore(blobs, metadata)) {
            throw new IllegalStateException("no master key: " + file.toAbsolutePath() + " does not exist and the"
                    + " backend (" + blobs.describe() + ") or the metadata store already holds a store; give that"
                    + " store's key file (the master-key setting, --master-key FILE) rather than make a new key");
        }
        return MasterKey.loadOrCreate(file);
    }

    private static void release(DataDirectoryLock lock, MetadataStore ownMetadata) {
        if (ownMetadata != null) {
            ownMetadata.close();
        }
        if (lock != null) {
            lock.close();
        }
    }
}
