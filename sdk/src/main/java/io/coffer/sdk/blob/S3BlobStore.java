package io.coffer.sdk.blob;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateBucketRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A {@link BlobStore} over an S3-compatible bucket, through AWS SDK v2's synchronous {@link S3Client} with the Apache
 * HTTP client. Build one with {@link #builder()}.
 *
 * <p>Blob {@code name} is the object {@code keyPrefix + name}. Puts up to {@link Builder#multipartThreshold} bytes are
 * one PutObject whose body is re-opened from {@link BlobContent#open()} on each attempt; larger ones are a multipart
 * upload of {@link Builder#partSize} parts read sequentially from one {@code open()} (one part buffered in memory at
 * a time per put), aborted on failure. Either way the object appears whole or not at all, as S3 guarantees. Failed
 * requests are retried by the SDK's standard retry strategy (exponential backoff with jitter on throttling such as
 * 503 SlowDown and 429, and on 5xx and I/O errors) up to {@link Builder#maxAttempts} attempts; these are its only
 * retries (the engine does not wrap it in a {@link RetryingBlobStore}, which would multiply them). Single puts of
 * in-memory blobs and ranged reads into an array first try {@link DirectRequests} (signed by the SDK's signer, sent
 * by the same HTTP client, without the SDK's request pipeline) and fall back to the SDK on anything but success.
 */
public final class S3BlobStore implements BlobStore {

    /** Puts larger than this go multipart unless configured otherwise. */
    public static final long DEFAULT_MULTIPART_THRESHOLD = 64L << 20;
    /** Default multipart part size. */
    public static final long DEFAULT_PART_SIZE = 16L << 20;
    /** The smallest part S3 accepts (except for the last one). */
    public static final long MIN_PART_SIZE = 5L << 20;
    /** Default number of attempts per request, the first one included. */
    public static final int DEFAULT_MAX_ATTEMPTS = 5;
    /** Region used when an endpoint is given without one (S3-compatible servers mostly ignore it). */
    public static final String DEFAULT_REGION = "us-east-1";

    private static final String CONTENT_TYPE = "application/octet-stream";
    private static final String RANGE_PREFIX = "bytes=";
    private static final String DESCRIPTION_PREFIX = "s3://";
    private static final int RANGE_NOT_SATISFIABLE = 416;
    private static final int MAX_LIST_PAGE = 1000;
    private static final Logger LOG = LoggerFactory.getLogger(S3BlobStore.class);

    private final S3Client s3;
    private final SdkHttpClient http;
    /** In-memory puts and ranged reads without the SDK's pipeline, or null where they do not apply. */
    private final DirectRequests direct;
    private final WholeBodyPuts directPutClient;
    private final String bucket;
    private final String keyPrefix;
    private final String region;
    private final URI endpoint;
    private final long multipartThreshold;
    private final int partSize;
    private final int listPageSize;
    private final S3Failures failures;

    private S3BlobStore(Builder b, S3Connection connection) {
        this.s3 = connection.s3();
        this.http = connection.http();
        this.direct = connection.direct();
        this.directPutClient = connection.puts();
        this.bucket = b.bucket;
        this.keyPrefix = b.keyPrefix;
        this.region = b.region;
        this.endpoint = b.endpoint;
        this.multipartThreshold = b.multipartThreshold;
        this.partSize = (int) b.partSize;
        this.listPageSize = b.listPageSize;
        this.failures = new S3Failures(b.bucket);
    }

    /** A builder; {@link Builder#bucket} is required, everything else has a default. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void put(String name, BlobContent content) throws IOException {
        BlobNames.requireValid(name);
        Objects.requireNonNull(content, "content");
        long length = content.length();
        if (length < 0) {
            throw new IOException("negative content length " + length + " for blob " + name);
        }
        if (length > multipartThreshold) {
            putMultipart(name, content, length);
        } else {
            putSingle(name, content, length);
        }
    }

    private void putSingle(String name, BlobContent content, long length) throws IOException {
        if (direct != null && DirectRequests.handles(key(name))) {
            // an array goes to the socket as it is; a read-only view would be copied out first
            ByteBuffer memory = content instanceof ArrayContent array ? array.array() : content.inMemory();
            if (memory != null && memory.remaining() == length && direct.put(key(name), memory)) {
                return;
            }
        }
        try (ReopeningContentProvider provider = new ReopeningContentProvider(content)) {
            try {
                s3.putObject(r -> r.bucket(bucket).key(key(name)).contentLength(length).contentType(CONTENT_TYPE),
                        RequestBody.fromContentProvider(provider, length, CONTENT_TYPE));
            } catch (RuntimeException e) {
                // SdkException, or IllegalStateException from the SDK when the content is shorter than declared
                throw provider.failure("put " + name, e);
            }
        }
    }

    private void putMultipart(String name, BlobContent content, long length) throws IOException {
        String key = key(name);
        String uploadId;
        try {
            uploadId = s3.createMultipartUpload(r -> r.bucket(bucket).key(key).contentType(CONTENT_TYPE)).uploadId();
        } catch (SdkException e) {
            throw failures.failure("start multipart upload of " + name, e);
        }
        try (InputStream in = content.open()) {
            List<CompletedPart> parts = new ArrayList<>();
            byte[] buffer = new byte[(int) Math.min(partSize, length)];
            long remaining = length;
            for (int partNumber = 1; remaining > 0; partNumber++) {
                int want = (int) Math.min(buffer.length, remaining);
                int got = in.readNBytes(buffer, 0, want);
                if (got != want) {
                    throw new IOException("content of blob " + name + " ended after " + (length - remaining + got)
                            + " of its declared " + length + " bytes");
                }
                remaining -= got;
                int number = partNumber;
                String etag = s3.uploadPart(r -> r.bucket(bucket).key(key).uploadId(uploadId).partNumber(number)
                                .contentLength((long) got),
                        RequestBody.fromContentProvider(() -> new ByteArrayInputStream(buffer, 0, got), got,
                                CONTENT_TYPE)).eTag();
                parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
            }
            if (in.read() >= 0) {
                throw new IOException("content of blob " + name + " is longer than its declared " + length + " bytes");
            }
            s3.completeMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(uploadId)
                    .multipartUpload(u -> u.parts(parts)));
        } catch (IOException | RuntimeException e) {
            abort(name, key, uploadId, e);
            if (e instanceof SdkException sdk) {
                throw failures.failure("multipart put " + name, sdk);
            }
            throw e;
        }
    }

    private void abort(String name, String key, String uploadId, Exception cause) {
        try {
            s3.abortMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(uploadId));
        } catch (SdkException e) {
            LOG.warn("Could not abort multipart upload {} of blob {}; a bucket lifecycle rule must clean it up",
                    uploadId, name, e);
            cause.addSuppressed(e);
        }
    }

    @Override
    public InputStream get(String name, long offset, long length) throws IOException {
        BlobNames.checkGet(name, offset);
        if (length == 0) {
            if (head(name).isEmpty()) {
                throw new BlobNotFoundException(name);
            }
            return InputStream.nullInputStream();
        }
        GetObjectRequest.Builder request = GetObjectRequest.builder().bucket(bucket).key(key(name));
        if (offset > 0 || length > 0) {
            long last = length < 0 || offset > Long.MAX_VALUE - length ? -1 : offset + length - 1;
            request.range(RANGE_PREFIX + offset + "-" + (last < 0 ? "" : Long.toString(last)));
        }
        try {
            return s3.getObject(request.build());
        } catch (NoSuchKeyException e) {
            throw S3Failures.notFound(name, e);
        } catch (S3Exception e) {
            if (S3Failures.isMissingObject(e)) {
                throw S3Failures.notFound(name, e);
            }
            if (e.statusCode() == RANGE_NOT_SATISFIABLE) {
                return InputStream.nullInputStream();
            }
            throw failures.failure("get " + name, e);
        } catch (SdkException e) {
            throw failures.failure("get " + name, e);
        }
    }

    @Override
    public void readInto(String name, long offset, byte[] dst, int dstOffset, int length) throws IOException {
        readInto(name, offset, dst, dstOffset, length, n -> { });
    }

    /**
     * Through {@link DirectRequests}, telling {@code progress} as the bytes arrive; what that could not read, through
     * the SDK (told at the end).
     */
    @Override
    public void readInto(String name, long offset, byte[] dst, int dstOffset, int length, Progress progress)
            throws IOException {
        BlobNames.checkGet(name, offset);
        Objects.checkFromIndexSize(dstOffset, length, dst.length);
        int got = 0;
        if (direct != null && length > 0 && DirectRequests.handles(key(name))) {
            got = direct.readInto(key(name), offset, dst, dstOffset, length, progress);
        }
        if (got < length || length == 0) {
            BlobStore.super.readInto(name, offset + got, dst, dstOffset + got, length - got);
            progress.arrived(length);
        }
    }

    @Override
    public Optional<BlobInfo> head(String name) throws IOException {
        BlobNames.requireValid(name);
        try {
            HeadObjectResponse response = s3.headObject(r -> r.bucket(bucket).key(key(name)));
            return Optional.of(new BlobInfo(name, response.contentLength(), response.lastModified()));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (S3Exception e) {
            if (S3Failures.isMissingObject(e)) {
                return Optional.empty();
            }
            throw failures.failure("head " + name, e);
        } catch (SdkException e) {
            throw failures.failure("head " + name, e);
        }
    }

    @Override
    public void delete(String name) throws IOException {
        BlobNames.requireValid(name);
        try {
            s3.deleteObject(r -> r.bucket(bucket).key(key(name)));
        } catch (NoSuchKeyException e) {
            LOG.debug("Blob {} was already gone", name);
        } catch (SdkException e) {
            throw failures.failure("delete " + name, e);
        }
    }

    @Override
    public BlobListing list(String prefix) {
        BlobNames.requireValidPrefix(prefix);
        ListObjectsV2Request request = ListObjectsV2Request.builder().bucket(bucket).prefix(key(prefix))
                .maxKeys(listPageSize).build();
        return new S3Listing(s3, request, prefix, keyPrefix, failures);
    }

    /** Creates the bucket unless it exists already; for tests and a gateway's first start. */
    public void createBucketIfMissing() throws IOException {
        try {
            s3.headBucket(r -> r.bucket(bucket));
            return;
        } catch (NoSuchBucketException e) {
            LOG.info("Creating bucket {}", bucket);
        } catch (S3Exception e) {
            if (e.statusCode() != S3Failures.NOT_FOUND) {
                throw failures.failure("check bucket " + bucket, e);
            }
        } catch (SdkException e) {
            throw failures.failure("check bucket " + bucket, e);
        }
        CreateBucketRequest.Builder create = CreateBucketRequest.builder().bucket(bucket);
        if (endpoint == null && region != null && !region.equals(DEFAULT_REGION)) {
            create.createBucketConfiguration(c -> c.locationConstraint(region));
        }
        try {
            s3.createBucket(create.build());
        } catch (BucketAlreadyOwnedByYouException e) {
            LOG.debug("Bucket {} was created concurrently", bucket);
        } catch (SdkException e) {
            throw failures.failure("create bucket " + bucket, e);
        }
    }

    @Override
    public String describe() {
        return DESCRIPTION_PREFIX + bucket + "/" + keyPrefix + (endpoint == null ? "" : " at " + endpoint)
                + (region == null ? "" : " (" + region + ")");
    }

    @Override
    public void close() {
        s3.close();
        http.close(); // given to the SDK ready-made, so the SDK leaves it open
        if (directPutClient != null) {
            directPutClient.close();
        }
    }

    /** Puts that went straight through the HTTP client (see {@link DirectRequests}); -1 where that path is off. */
    long directPuts() {
        return direct == null ? -1 : direct.stored();
    }

    /** Ranged reads that went straight through the HTTP client; -1 where that path is off. */
    long directReads() {
        return direct == null ? -1 : direct.reads();
    }

    /** The underlying client, for tests that inspect the bucket directly. */
    S3Client client() {
        return s3;
    }

    private String key(String name) {
        return keyPrefix + name;
    }

    /** Configuration of an {@link S3BlobStore}; not thread-safe. */
    public static final class Builder {
        // package-private: S3Connection builds the clients from them
        URI endpoint;
        String region;
        String bucket;
        String keyPrefix = "";
        boolean pathStyleAccess;
        boolean signPayloadOverHttp;
        final List<ExecutionInterceptor> interceptors = new ArrayList<>();
        String accessKey;
        String secretKey;
        Duration connectionTimeout = Duration.ofSeconds(10);
        Duration socketTimeout = Duration.ofSeconds(60);
        Duration apiCallTimeout;
        Duration apiCallAttemptTimeout;
        int maxConnections = 64;
        int maxAttempts = DEFAULT_MAX_ATTEMPTS;
        Duration retryBaseDelay = Duration.ofMillis(100);
        Duration throttlingBaseDelay = Duration.ofMillis(500);
        Duration retryMaxDelay = Duration.ofSeconds(20);
        long multipartThreshold = DEFAULT_MULTIPART_THRESHOLD;
        long partSize = DEFAULT_PART_SIZE;
        int listPageSize = MAX_LIST_PAGE;

        private Builder() {
        }

        /** The service endpoint, such as {@code http://127.0.0.1:9000}; absent means AWS's own for the region. */
        public Builder endpoint(URI endpoint) {
            this.endpoint = endpoint;
            return this;
        }

        /**
         * The signing region; defaults to {@value S3BlobStore#DEFAULT_REGION} with an endpoint, else the SDK's region
         * provider chain.
         */
        public Builder region(String region) {
            this.region = region;
            return this;
        }

        /** The bucket; required. */
        public Builder bucket(String bucket) {
            this.bucket = bucket;
            return this;
        }

        /** A prefix put before every blob name to form the object key, such as {@code "coffer/"}; default none. */
        public Builder keyPrefix(String keyPrefix) {
            this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix");
            return this;
        }

        /** Addresses the bucket in the path ({@code host/bucket/key}) rather than the host name; default false. */
        public Builder pathStyleAccess(boolean pathStyleAccess) {
            this.pathStyleAccess = pathStyleAccess;
            return this;
        }

        /** Static credentials; without them the SDK's default provider chain is used. */
        public Builder credentials(String accessKey, String secretKey) {
            this.accessKey = Objects.requireNonNull(accessKey, "accessKey");
            this.secretKey = Objects.requireNonNull(secretKey, "secretKey");
            return this;
        }

        /** Uses the SDK's default credentials provider chain (environment, profile, instance role...). */
        public Builder defaultCredentials() {
            this.accessKey = null;
            this.secretKey = null;
            return this;
        }

        /** Time to establish a connection; default 10 s. */
        public Builder connectionTimeout(Duration timeout) {
            this.connectionTimeout = positive(timeout, "connectionTimeout");
            return this;
        }

        /** Time a socket read or write may block; default 60 s. */
        public Builder socketTimeout(Duration timeout) {
            this.socketTimeout = positive(timeout, "socketTimeout");
            return this;
        }

        /** Limit on one API call, all retries included (not the reading of a returned stream); default none. */
        public Builder apiCallTimeout(Duration timeout) {
            this.apiCallTimeout = timeout == null ? null : positive(timeout, "apiCallTimeout");
            return this;
        }

        /** Limit on each attempt of an API call; default none. */
        public Builder apiCallAttemptTimeout(Duration timeout) {
            this.apiCallAttemptTimeout = timeout == null ? null : positive(timeout, "apiCallAttemptTimeout");
            return this;
        }

        /** Size of the HTTP connection pool; default 64. */
        public Builder maxConnections(int maxConnections) {
            if (maxConnections < 1) {
                throw new IllegalArgumentException("maxConnections must be at least 1: " + maxConnections);
            }
            this.maxConnections = maxConnections;
            return this;
        }

        /**
         * Attempts per request, the first included; 1 disables retries; default
         * {@value S3BlobStore#DEFAULT_MAX_ATTEMPTS}.
         */
        public Builder maxAttempts(int maxAttempts) {
            if (maxAttempts < 1) {
                throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
            }
            this.maxAttempts = maxAttempts;
            return this;
        }

        /**
         * Exponential backoff with full jitter between attempts: the delay before retry {@code n} is random up to
         * {@code base * 2^(n-1)}, capped at {@code max}; throttling errors use {@code throttlingBase} instead of
         * {@code base}. Defaults 100 ms, 500 ms and 20 s.
         */
        public Builder retryBackoff(Duration base, Duration throttlingBase, Duration max) {
            this.retryBaseDelay = positive(base, "base");
            this.throttlingBaseDelay = positive(throttlingBase, "throttlingBase");
            this.retryMaxDelay = positive(max, "max");
            return this;
        }

        /** Puts larger than this many bytes use a multipart upload; default 64 MiB. */
        public Builder multipartThreshold(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("multipartThreshold must not be negative: " + bytes);
            }
            this.multipartThreshold = bytes;
            return this;
        }

        /** Size of multipart parts, each buffered in memory while it uploads; 5 MiB to 2 GiB, default 16 MiB. */
        public Builder partSize(long bytes) {
            if (bytes < MIN_PART_SIZE || bytes > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("partSize must be between 5 MiB and 2 GiB: " + bytes);
            }
            this.partSize = bytes;
            return this;
        }

        /**
         * Whether uploads over plain http carry a SHA-256 of their body in the signature (the SDK's behaviour). Off by
         * default: Coffer checks every byte it reads back itself, and the hash costs a pass over every pack (see
         * {@link UnsignedPayloadAuthScheme}). Turn it on for a backend that refuses {@code UNSIGNED-PAYLOAD} over
         * http. Over https the payload is never hashed.
         */
        public Builder signPayloadOverHttp(boolean sign) {
            this.signPayloadOverHttp = sign;
            return this;
        }

        /** An SDK interceptor on the store's client; tests use it to see the requests as sent. */
        Builder addInterceptor(ExecutionInterceptor interceptor) {
            interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
            return this;
        }

        /** Objects per ListObjectsV2 page; tests lower it to exercise paging. */
        Builder listPageSize(int keys) {
            if (keys < 1 || keys > MAX_LIST_PAGE) {
                throw new IllegalArgumentException("listPageSize must be between 1 and 1000: " + keys);
            }
            this.listPageSize = keys;
            return this;
        }

        /** Builds the client and the store; nothing is sent to the service yet. */
        public S3BlobStore build() {
            if (bucket == null || bucket.isEmpty()) {
                throw new IllegalStateException("bucket is required");
            }
            if (region == null && endpoint != null) {
                region = DEFAULT_REGION;
            }
            return new S3BlobStore(this, S3Connection.open(this));
        }

        private static Duration positive(Duration d, String what) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(what + " must be positive: " + d);
            }
            return d;
        }
    }
}
