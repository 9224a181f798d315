package io.coffer.sdk.blob;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * Requests sent straight through an HTTP client, signed by the SDK's own SigV4 signer, without the SDK's
 * request pipeline (interceptors, endpoint rules, marshalling, metrics, retries), which costs about 1 ms of CPU per
 * request (docs/BENCHMARKS.md): a PutObject of an in-memory blob (a small object's, a manifest, a pack: a large PUT
 * uploads about five packs per 16 MiB part), and a ranged GetObject read into the caller's array (a GET's pack
 * reads). Only the success path is taken here: any other answer, and any I/O error, makes the method return false,
 * and the caller sends the same request through the SDK, which retries and maps errors as for every other request.
 * Both requests are idempotent, so a second attempt after a lost answer is harmless. The reads go through the
 * store's HTTP client (the SDK's), the PUTs through {@link WholeBodyPuts}, which writes each body in one piece.
 *
 * <p>Used only where the request is plain to build: a configured endpoint with path-style addressing and keys of
 * unreserved URL characters (Coffer's own blob names: hex ids, '/' and a prefix of the same characters).
 */
final class DirectRequests {
    private static final Pattern PLAIN_KEY = Pattern.compile("[A-Za-z0-9._~/-]+");
    private static final String CONTENT_TYPE = "application/octet-stream";
    private static final int PARTIAL_CONTENT = 206;

    private final SdkHttpClient http;
    private final WholeBodyPuts puts;
    private final AwsCredentialsProvider credentials;
    private final AwsV4HttpSigner signer;
    private final URI endpoint;
    private final String bucketPath;
    private final String region;
    private final boolean signPayload;
    private final AtomicLong stored = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();

    DirectRequests(SdkHttpClient http, WholeBodyPuts puts, AwsCredentialsProvider credentials,
                   AwsV4HttpSigner signer, URI endpoint, String bucket, String region, boolean signPayload) {
        this.http = http;
        this.puts = puts;
        this.credentials = credentials;
        this.signer = signer;
        this.endpoint = endpoint;
        String base = endpoint.getRawPath() == null ? "" : endpoint.getRawPath().replaceAll("/+$", "");
        this.bucketPath = base + "/" + bucket + "/";
        this.region = region;
        this.signPayload = signPayload;
    }

    /** Blobs stored this way so far (for tests: the fallback is silent). */
    long stored() {
        return stored.get();
    }

    /** Ranged reads answered this way so far (for tests: the fallback is silent). */
    long reads() {
        return reads.get();
    }

    /** Whether a request for this key can go this way (bucket names are URL-safe by S3's rules). */
    static boolean handles(String key) {
        if (!PLAIN_KEY.matcher(key).matches()) {
            return false;
        }
        // a path the HTTP client or server could normalize ("a//b", "a/./b", "a/..") takes the SDK's path
        for (String segment : key.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        return true;
    }

    /** Sends the PUT; true once the backend answered 2xx, false when the caller should send it through the SDK. */
    boolean put(String key, ByteBuffer bytes) {
        ByteBuffer body = bytes.asReadOnlyBuffer();
        SdkHttpFullRequest request = request(SdkHttpMethod.PUT, key)
                .putHeader("Content-Type", CONTENT_TYPE)
                .putHeader("Content-Length", Integer.toString(body.remaining()))
                .build();
        try {
            // the signer reads the body only to hash it (a signed payload); the array goes out as it is
            if (!puts.put(sign(request, () -> new ByteBufferInputStream(body)).request(), bytes)) {
                return false;
            }
            stored.incrementAndGet();
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Reads {@code length} (at least 1) bytes at {@code offset} of {@code key} into {@code dst}, telling {@code
     * progress} how far they have arrived as they do; returns how many arrived ({@code length} once a 206 answer for
     * exactly that range delivered them all): the caller reads the rest through the SDK. A failure {@code progress}
     * throws ends the read and is thrown from here.
     */
    int readInto(String key, long offset, byte[] dst, int dstOffset, int length, BlobStore.Progress progress)
            throws IOException {
        long last = offset + length - 1;
        SdkHttpFullRequest request = request(SdkHttpMethod.GET, key)
                .putHeader("Range", "bytes=" + offset + "-" + last)
                .build();
        int got = 0;
        try {
            HttpExecuteResponse response = execute(request, null);
            AbortableInputStream body = response.responseBody().orElse(null);
            if (body == null) {
                return 0;
            }
            try (body) {
                SdkHttpResponse head = response.httpResponse();
                if (head.statusCode() != PARTIAL_CONTENT
                        || !head.firstMatchingHeader("Content-Length").equals(Optional.of(Integer.toString(length)))
                        || !head.firstMatchingHeader("Content-Range").filter(r -> r.startsWith(
                                "bytes " + offset + "-" + last + "/")).isPresent()) {
                    // not this range (an error, or a server that ignored Range): drop the connection, not the body
                    body.abort();
                    return 0;
                }
                try {
                    while (got < length) {
                        int n = body.read(dst, dstOffset + got, length - got);
                        if (n < 0) {
                            break;
                        }
                        got += n;
                        told(progress, got);
                    }
                } finally {
                    if (got < length) {
                        body.abort(); // not drained: the connection goes
                    }
                }
            }
            if (got == length) {
                reads.incrementAndGet();
            }
            return got;
        } catch (ProgressFailure e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw (RuntimeException) e.getCause();
        } catch (IOException | RuntimeException e) {
            return got;
        }
    }

    private static void told(BlobStore.Progress progress, int bytes) {
        try {
            progress.arrived(bytes);
        } catch (IOException | RuntimeException e) {
            throw new ProgressFailure(e);
        }
    }

    /** The caller's progress failed: the read ends with that, not with a fall-back to the SDK. */
    private static final class ProgressFailure extends RuntimeException {
        ProgressFailure(Exception cause) {
            super(cause);
        }
    }

    private SdkHttpFullRequest.Builder request(SdkHttpMethod method, String key) {
        return SdkHttpFullRequest.builder().method(method).uri(endpoint).encodedPath(bucketPath + key);
    }

    /** Signs {@code request} (with {@code content} as its body, or none) and sends it. */
    private HttpExecuteResponse execute(SdkHttpFullRequest request, ContentStreamProvider content)
            throws IOException {
        SignedRequest signed = sign(request, content);
        HttpExecuteRequest.Builder execute = HttpExecuteRequest.builder().request(signed.request());
        ContentStreamProvider body = signed.payload().orElse(content);
        if (body != null) {
            execute.contentStreamProvider(body);
        }
        return http.prepareRequest(execute.build()).call();
    }

    private SignedRequest sign(SdkHttpFullRequest request, ContentStreamProvider content) {
        AwsCredentialsIdentity identity = credentials.resolveIdentity().join();
        return signer.sign(r -> r.identity(identity)
                .request(request)
                .payload(content)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
                .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
                .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, signPayload));
    }
}
