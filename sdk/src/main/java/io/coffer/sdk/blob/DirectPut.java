package io.coffer.sdk.blob;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * One PutObject of an in-memory blob sent straight through the store's HTTP client, signed by the SDK's own SigV4
 * signer, without the SDK's request pipeline (interceptors, endpoint rules, marshalling, metrics, retries): for a
 * small blob that pipeline cost about 1 ms of CPU per request, more than the request itself (docs/BENCHMARKS.md).
 * Only the success path is taken here: any answer other than 2xx, and any I/O error, makes {@link #put} return
 * false, and the caller sends the same PUT through the SDK, which retries and maps errors as for every other
 * request. A PUT is idempotent, so a second attempt after a lost answer is harmless.
 *
 * <p>Used only where the request is plain to build: a configured endpoint with path-style addressing and keys of
 * unreserved URL characters (Coffer's own blob names: hex ids, '/' and a prefix of the same characters).
 */
final class DirectPut {
    private static final Pattern PLAIN_KEY = Pattern.compile("[A-Za-z0-9._~/-]+");
    private static final String CONTENT_TYPE = "application/octet-stream";
    /** Larger blobs (packs) go through the SDK: its per-request cost is small next to theirs, and no copy is made. */
    static final int MAX_LENGTH = 1 << 20;

    private final SdkHttpClient http;
    private final AwsCredentialsProvider credentials;
    private final AwsV4HttpSigner signer;
    private final URI endpoint;
    private final String bucketPath;
    private final String region;
    private final boolean signPayload;
    private final java.util.concurrent.atomic.AtomicLong stored = new java.util.concurrent.atomic.AtomicLong();

    DirectPut(SdkHttpClient http, AwsCredentialsProvider credentials, AwsV4HttpSigner signer, URI endpoint,
              String bucket, String region, boolean signPayload) {
        this.http = http;
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

    /** Whether {@link #put} can send a blob under this key (bucket names are URL-safe by S3's rules). */
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
        byte[] array = new byte[body.remaining()];
        body.get(array);
        ContentStreamProvider content = () -> new ByteArrayInputStream(array);
        SdkHttpFullRequest request = SdkHttpFullRequest.builder()
                .method(SdkHttpMethod.PUT)
                .uri(endpoint)
                .encodedPath(bucketPath + key)
                .putHeader("Content-Type", CONTENT_TYPE)
                .putHeader("Content-Length", Integer.toString(array.length))
                .build();
        try {
            AwsCredentialsIdentity identity = credentials.resolveIdentity().join();
            SignedRequest signed = signer.sign(r -> r.identity(identity)
                    .request(request)
                    .payload(content)
                    .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                    .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                    .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
                    .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
                    .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, signPayload));
            HttpExecuteResponse response = http.prepareRequest(HttpExecuteRequest.builder()
                    .request(signed.request())
                    .contentStreamProvider(signed.payload().orElse(content))
                    .build()).call();
            try (InputStream answer = response.responseBody().orElse(null)) {
                if (answer != null) {
                    answer.transferTo(java.io.OutputStream.nullOutputStream()); // frees the pooled connection
                }
            }
            if (!response.httpResponse().isSuccessful()) {
                return false;
            }
            stored.incrementAndGet();
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
