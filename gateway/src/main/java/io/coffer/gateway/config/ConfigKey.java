package io.coffer.gateway.config;

import java.util.Locale;
import java.util.Optional;

/** Every configuration setting: its name in files and flags, its environment variable, default and secrecy. */
public enum ConfigKey {
    PORT("port", "9000", false),
    BIND("bind", "127.0.0.1", false),
    DATA("data", "./coffer-data", false),
    /**
     * The master key file (default: DATA/master.key). Every gateway of one store is given the same file; its
     * variable is COFFER_MASTER_KEY_FILE, as it names a file rather than holding the key.
     */
    MASTER_KEY("master-key", null, false, "COFFER_MASTER_KEY_FILE"),
    BASE_DOMAIN("base-domain", null, false),
    REGION("region", "us-east-1", false),
    TLS_CERT("tls-cert", null, false),
    TLS_KEY("tls-key", null, false),
    ADMIN_PORT("admin-port", "9001", false),
    /**
     * The address the admin port (health, /metrics, /admin/...) listens on; unset: the {@code bind} address. Set it to
     * a loopback or private address to keep the admin endpoints off a public interface that serves S3.
     */
    ADMIN_BIND("admin-bind", null, false),
    BACKEND("backend", "dir", false),
    S3_ENDPOINT("s3-endpoint", null, false),
    S3_BUCKET("s3-bucket", null, false),
    S3_REGION("s3-region", "us-east-1", false),
    S3_PATH_STYLE("s3-path-style", "false", false),
    /** Hash upload bodies into the SigV4 signature over plain http (off: Coffer verifies what it reads back). */
    S3_SIGN_PAYLOAD("s3-sign-payload", "false", false),
    BACKEND_ACCESS_KEY("backend-access-key", null, true),
    BACKEND_SECRET_KEY("backend-secret-key", null, true),
    METADATA("metadata", null, false),
    METADATA_USER("metadata-user", null, false),
    METADATA_PASSWORD("metadata-password", null, true),
    LOG_FORMAT("log-format", "text", false),
    ACCESS_KEY("access-key", null, false),
    SECRET_KEY("secret-key", null, true),
    /** More access keys: {@code AKID:SECRET:tenant} entries separated by commas. */
    CREDENTIALS("credentials", null, true),
    /** Accept AWS Signature Version 2 (HMAC-SHA1) requests and presigned URLs; false: Version 4 only. */
    AUTH_SIGV2("auth-sigv2", "true", false),
    /**
     * Tenants whose account-level Block Public Access is off, comma-separated ({@code *}: every tenant); for any
     * other tenant public ACLs are refused and ignored, so nothing of it is readable without its keys (the default).
     */
    PUBLIC_ACCESS_TENANTS("public-access-tenants", null, false),
    /**
     * Accept SSE-C requests (customer keys in headers) over plain http, which S3 refuses: for a gateway behind a proxy
     * that terminates TLS, or a test rig (ceph/s3-tests); with {@code tls-cert} set they are always accepted.
     */
    SSE_C_OVER_HTTP("sse-c-over-http", "false", false),
    /**
     * The keyring SSE-KMS requests draw on: a file of {@code KEY-ID BASE64-32-BYTES} lines, mode 0600 (refused
     * otherwise, as the master key file is); unset: SSE-KMS requests are refused (docs/OPERATIONS.md, "SSE-KMS
     * keyring"). It names a file, so it is no secret itself.
     */
    KMS_KEYRING("kms-keyring", null, false),
    /**
     * An AWS-KMS-compatible service SSE-KMS requests draw on (its URL; for AWS itself {@code
     * https://kms.REGION.amazonaws.com}); unset: none. Not together with {@code kms-keyring} (docs/OPERATIONS.md,
     * "SSE-KMS through a KMS").
     */
    KMS_ENDPOINT("kms-endpoint", null, false),
    /** The KMS's region (unset: {@code region}). */
    KMS_REGION("kms-region", null, false),
    /** Credentials for the KMS; unset: the AWS default chain (environment, profile, instance role). */
    KMS_ACCESS_KEY("kms-access-key", null, true),
    KMS_SECRET_KEY("kms-secret-key", null, true),
    IDLE_TIMEOUT_SECONDS("idle-timeout-seconds", "60", false),
    WORKER_THREADS("worker-threads", "64", false),
    MAX_HEADER_SIZE("max-header-size", "16384", false),
    MAX_INITIAL_LINE_LENGTH("max-initial-line-length", "8192", false),
    BODY_BUFFER_BYTES("body-buffer-bytes", "1048576", false),
    SHUTDOWN_GRACE_SECONDS("shutdown-grace-seconds", "30", false),
    /** Chunks smaller than this many bytes get random keys and never deduplicate (DedupPolicy's minimum size). */
    DEDUP_MIN_SIZE("dedup-min-size", "1024", false),
    /** Objects that never deduplicate: {@code BUCKET} or {@code BUCKET/PREFIX} entries separated by commas. */
    DEDUP_EXCLUDE("dedup-exclude", null, false),
    /** Compress chunks (zstd) before they are encrypted, each where it pays (docs/FORMAT.md, "Chunks"). */
    COMPRESSION("compression", "true", false),
    /** The zstd level chunks are compressed at (-7 to 19, not 0; docs/DECISIONS.md, "Chunk compression"). */
    COMPRESSION_LEVEL("compression-level", "1", false),
    /** Objects whose chunks are never compressed: {@code BUCKET} or {@code BUCKET/PREFIX} entries, comma-separated. */
    COMPRESSION_EXCLUDE("compression-exclude", null, false),
    /**
     * Buckets that keep gzip objects in SimEnc's layer mode: {@code BUCKET[=MODE]} entries, comma-separated, MODE
     * {@code high} (the default), {@code basic:N} or {@code flexible[:BITS:HASHES]} (docs/FORMAT.md, "Layer-mode
     * objects").
     */
    LAYER_MODE("layer-mode", null, false),
    /** The average FastCDC sub-chunk size in a layer's partially decoded space (a power of two, 128 to 1 MiB). */
    LAYER_SUB_CHUNK_AVERAGE("layer-sub-chunk-average", "1024", false),
    /** The Hamming distance within which a layer's 512 KiB chunk joins a cluster and shares its key (0 to 256). */
    LAYER_THRESHOLD("layer-threshold", "64", false),
    /**
     * Whether a layer that this JDK's zlib reproduces is stored decompressed with a zlib recipe (fewer bytes; each GET
     * deflates it again) or as tokens like any other layer (more bytes; GETs several times faster).
     */
    LAYER_RECIPES("layer-recipes", "true", false),
    /** Where chunk keys come from: {@code embedded} (in-process OPRF under the master key) or a key server HOST:PORT. */
    KEYSERVER("keyserver", "embedded", false),
    /** A key-server directory ({@code coffer keyserver init}): supplies the four files below when they are unset. */
    KEYSERVER_DIR("keyserver-dir", null, false),
    /** The client certificate name in {@code keyserver-dir} ({@code clients/NAME.crt}, {@code clients/NAME.key}). */
    KEYSERVER_CLIENT("keyserver-client", "gateway", false),
    KEYSERVER_CERT("keyserver-cert", null, false),
    KEYSERVER_KEY("keyserver-key", null, false),
    KEYSERVER_CA("keyserver-ca", null, false),
    KEYSERVER_PUBLIC_KEY("keyserver-public-key", null, false),
    KEYSERVER_TRANSPORT("keyserver-transport", "v2", false),
    /** Per-try answer timeout of the key server; after the tries the engine falls back to random keys. */
    KEYSERVER_TIMEOUT_MS("keyserver-timeout-ms", "500", false),
    /** After a key-server failure, how long writes use random keys before asking it again. */
    KEYSERVER_PAUSE_MS("keyserver-pause-ms", "5000", false),
    /** Proofs of retrievability for packs: {@code off}, {@code embedded} (in-process, under DATA/por/) or HOST:PORT. */
    POR("por", "off", false),
    /** The session key shared with a remote PoR server ({@code coffer por-server}'s key file); embedded needs none. */
    POR_KEY_FILE("por-key-file", null, false),
    /** How often {@code serve} audits the PoR server: {@code 6h}, {@code 30m}, {@code 90s}, {@code 1d}; 0: never. */
    POR_AUDIT_INTERVAL("por-audit-interval", "6h", false),
    /** The embedded PoR server's initial capacity, 2^k blocks; read at its first start only (the store grows). */
    POR_K("por-k", "10", false),
    /** The largest capacity, 2^k blocks, the embedded PoR server grows to (at most 20); then a PUT fails 507. */
    POR_MAX_K("por-max-k", "20", false),
    /** The embedded PoR server's block size in bytes; read at its first start only. */
    POR_BLOCK_SIZE("por-block-size", "65536", false),
    /** The embedded PoR server's write batching, 2^b blocks per H add; read at its first start only. */
    POR_BATCH("por-batch", "4", false),
    /** Unfinished multipart uploads older than this are aborted by {@code serve}: {@code 7d}, {@code 36h}; 0: never. */
    MULTIPART_EXPIRY("multipart-expiry", "7d", false),
    /**
     * How often {@code serve} collects garbage: {@code 30m}, {@code 1h}, {@code 6h}; 0: never. One gateway at a time
     * runs it, under a lease in the metadata store; the others skip their turn.
     */
    GC_INTERVAL("gc-interval", "1h", false),
    /**
     * How often {@code serve} applies buckets' lifecycle rules: {@code 1h}, {@code 6h}, {@code 1d}; 0: never. One
     * gateway at a time sweeps, under a lease in the metadata store; the others skip their turn.
     */
    LIFECYCLE_INTERVAL("lifecycle-interval", "1h", false),
    /** The most objects, versions and uploads a lifecycle sweep deletes or aborts per second (a positive number). */
    LIFECYCLE_RATE("lifecycle-rate", "100", false),
    /**
     * How long garbage collection leaves an unreferenced chunk, a retired pack or an unindexed blob alone: longer than
     * the slowest upload (a write must commit within three quarters of it) and the slowest read. Not 0.
     */
    GC_GRACE("gc-grace", "1h", false);

    private final String key;
    private final String defaultValue;
    private final boolean secret;
    private final String envName;

    ConfigKey(String key, String defaultValue, boolean secret) {
        this(key, defaultValue, secret, "COFFER_" + key.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    ConfigKey(String key, String defaultValue, boolean secret, String envName) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.secret = secret;
        this.envName = envName;
    }

    public String key() {
        return key;
    }

    public String defaultValue() {
        return defaultValue;
    }

    public boolean secret() {
        return secret;
    }

    /** The environment variable, for example {@code COFFER_BASE_DOMAIN}. */
    public String envName() {
        return envName;
    }

    public static Optional<ConfigKey> of(String key) {
        for (ConfigKey k : values()) {
            if (k.key.equals(key)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }
}
