package io.coffer.sdk.blob;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * The clients an {@link S3BlobStore} sends its requests through, built from its {@link S3BlobStore.Builder}: one
 * Apache HTTP client (one connection pool) shared by the SDK's {@link S3Client} and the {@link DirectRequests}' reads,
 * and a second pool for the direct PUTs ({@link WholeBodyPuts}).
 *
 * @param s3 the SDK client, with the builder's retry strategy, timeouts and signing
 * @param http the HTTP client under the SDK and the direct reads; given to the SDK ready-made, so it leaves it open
 * @param direct in-memory puts and ranged reads without the SDK's pipeline, or null where they do not apply
 * @param puts the HTTP client of {@code direct}'s PUTs (its own connection pool), or null with {@code direct}
 */
record S3Connection(S3Client s3, SdkHttpClient http, DirectRequests direct, WholeBodyPuts puts) {

    /**
     * Builds the clients; nothing is sent to the service yet. Uses the SDK's Apache HttpClient 4 based client
     * ({@code apache-client}), which SDK 2.55 marks deprecated in favour of {@code apache5-client}.
     */
    @SuppressWarnings("deprecation")
    static S3Connection open(S3BlobStore.Builder b) {
        AwsCredentialsProvider credentials = b.accessKey == null
                ? DefaultCredentialsProvider.builder().build()
                : StaticCredentialsProvider.create(AwsBasicCredentials.create(b.accessKey, b.secretKey));
        ClientOverrideConfiguration.Builder override = ClientOverrideConfiguration.builder()
                .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .maxAttempts(b.maxAttempts)
                        .backoffStrategy(BackoffStrategy.exponentialDelay(b.retryBaseDelay, b.retryMaxDelay))
                        .throttlingBackoffStrategy(
                                BackoffStrategy.exponentialDelay(b.throttlingBaseDelay, b.retryMaxDelay))
                        .build());
        if (b.apiCallTimeout != null) {
            override.apiCallTimeout(b.apiCallTimeout);
        }
        if (b.apiCallAttemptTimeout != null) {
            override.apiCallAttemptTimeout(b.apiCallAttemptTimeout);
        }
        b.interceptors.forEach(override::addExecutionInterceptor);
        // Flexible checksums only where an operation requires them: over http the SDK signs every payload
        // (x-amz-content-sha256, checked by the server), over https TLS protects it, and every byte read back is
        // checked by Coffer itself (chunk tags, sealed records). The default CRC32 trailer would add
        // aws-chunked encoding and a copy per upload, and cost more than the request itself for small blobs.
        // No Expect: 100-continue either: the backend is Coffer's own bucket, a rejected upload is rare, and the
        // wait for "100 Continue" costs a round trip per upload.
        // one HTTP client (one connection pool) for the SDK and the direct reads
        SdkHttpClient http = ApacheHttpClient.builder()
                .expectContinueEnabled(false)
                .connectionTimeout(b.connectionTimeout)
                .socketTimeout(b.socketTimeout)
                .maxConnections(b.maxConnections)
                .build();
        S3ClientBuilder client = S3Client.builder()
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClient(http)
                .credentialsProvider(credentials)
                .forcePathStyle(b.pathStyleAccess)
                .overrideConfiguration(override.build());
        if (b.endpoint != null) {
            client.endpointOverride(b.endpoint);
        }
        if (!b.signPayloadOverHttp) {
            client.putAuthScheme(new UnsignedPayloadAuthScheme());
        }
        if (b.region != null) {
            client.region(Region.of(b.region));
        }
        // test interceptors inject faults into SDK requests: with them every request takes the SDK's path
        WholeBodyPuts puts = null;
        DirectRequests direct = null;
        if (b.endpoint != null && b.pathStyleAccess && b.interceptors.isEmpty()) {
            puts = new WholeBodyPuts(b.connectionTimeout, b.socketTimeout, b.maxConnections);
            direct = new DirectRequests(http, puts, credentials,
                    b.signPayloadOverHttp ? AwsV4HttpSigner.create() : new UnsignedPayloadAuthScheme().signer(),
                    b.endpoint, b.bucket, b.region, b.signPayloadOverHttp);
        }
        return new S3Connection(client.build(), http, direct, puts);
    }
}
