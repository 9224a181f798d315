package io.coffer.gateway.s3.sse;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.auth.Credential;
import io.coffer.gateway.auth.CredentialStore;
import io.coffer.gateway.http.AccessLog;
import io.coffer.gateway.http.GatewayMetrics;
import io.coffer.gateway.http.S3Server;
import io.coffer.gateway.http.S3ServerOptions;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.KmsKey;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.ServerSideEncryptionRule;

/**
 * SSE-KMS through a real KMS (moto's, over real sockets) and the AWS SDK v2 on the real engine: PUT, GET, HEAD,
 * CopyObject and multipart uploads under a KMS key named by alias, id or ARN, the key's ARN reported; one data key per
 * bucket and KMS key, so equal objects deduplicate, kept so that a restarted gateway reads old objects (Decrypt) and
 * reuses it; S3's errors for an unknown or disabled key, and a KMS that stops: cached data keys still read, writes
 * fail with 503 and store nothing.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KmsServiceRequestsTest {
    static final String BUCKET = "kms";
    static final Credential CREDENTIAL = new Credential("AKKMSTEST", "kms-test-secret", "tenant");

    @TempDir
    static Path dir;
    static MotoKms moto;
    static String keyArn;

    @BeforeAll
    static void kms() throws Exception {
        moto = MotoKms.start(dir.resolve("logs"));
        keyArn = moto.createKey("alias/coffer-test");
    }

    @AfterAll
    static void stop() throws Exception {
        if (moto != null) {
            moto.close();
        }
    }

    @Test
    void objectsUnderAKmsKeyReadBackAndReportTheKeyArn() throws Exception {
        try (Gateway g = Gateway.start(dir.resolve("rw"), moto.keySource())) {
            S3Client s3 = g.s3;
            s3.createBucket(b -> b.bucket(BUCKET));
            byte[] data = bytes(1, 300_000);
            PutObjectResponse put = s3.putObject(r -> r.bucket(BUCKET).key("a").serverSideEncryption("aws:kms")
                    .ssekmsKeyId("alias/coffer-test"), RequestBody.fromBytes(data));
            assertThat(put.serverSideEncryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
            assertThat(put.ssekmsKeyId()).isEqualTo(keyArn);
            ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("a"));
            assertThat(got.asByteArray()).isEqualTo(data);
            assertThat(got.response().ssekmsKeyId()).isEqualTo(keyArn);
            assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("a").range("bytes=100-199")).asByteArray())
                    .isEqualTo(Arrays.copyOfRange(data, 100, 200));
            HeadObjectResponse head = s3.headObject(r -> r.bucket(BUCKET).key("a"));
            assertThat(head.serverSideEncryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
            assertThat(head.ssekmsKeyId()).isEqualTo(keyArn);
            // the encrypted data key is in the sealed attributes, never a response header
            assertThat(head.sdkHttpResponse().headers().keySet()).noneMatch(h -> h.toLowerCase().contains("coffer"));
            ObjectAttributes stored = g.engine.headObject(BUCKET, "a").attributes();
            assertThat(KmsKey.keyIdOf(stored)).isEqualTo(keyArn);
            assertThat(KmsKey.wrappedDataKeyOf(stored)).isNotBlank();

            // the key id as a bare id and as an ARN name the same key
            String bareId = bareId(keyArn);
            assertThat(s3.putObject(r -> r.bucket(BUCKET).key("by-id").serverSideEncryption("aws:kms")
                    .ssekmsKeyId(bareId), RequestBody.fromString("i")).ssekmsKeyId()).isEqualTo(keyArn);
            assertThat(s3.putObject(r -> r.bucket(BUCKET).key("by-arn").serverSideEncryption("aws:kms")
                    .ssekmsKeyId(keyArn), RequestBody.fromString("n")).ssekmsKeyId()).isEqualTo(keyArn);

            var copy = s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("a").destinationBucket(BUCKET)
                    .destinationKey("a-copy").serverSideEncryption("aws:kms").ssekmsKeyId("alias/coffer-test"));
            assertThat(copy.ssekmsKeyId()).isEqualTo(keyArn);
            assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("a-copy")).asByteArray()).isEqualTo(data);
            s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("a").destinationBucket(BUCKET).destinationKey("plain"));
            HeadObjectResponse plain = s3.headObject(r -> r.bucket(BUCKET).key("plain"));
            assertThat(plain.ssekmsKeyId()).isNull();
            assertThat(KmsKey.wrappedDataKeyOf(g.engine.headObject(BUCKET, "plain").attributes())).isNull();
            assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("plain")).asByteArray()).isEqualTo(data);

            // one part (the last may be small) and a part copied from a plain object, both under the upload's key
            byte[] one = bytes(2, 200_000);
            String upload = s3.createMultipartUpload(r -> r.bucket(BUCKET).key("mp").serverSideEncryption("aws:kms")
                    .ssekmsKeyId("alias/coffer-test")).uploadId();
            var p1 = s3.uploadPart(r -> r.bucket(BUCKET).key("mp").uploadId(upload).partNumber(1),
                    RequestBody.fromBytes(one));
            assertThat(p1.ssekmsKeyId()).isEqualTo(keyArn);
            var done = s3.completeMultipartUpload(r -> r.bucket(BUCKET).key("mp").uploadId(upload)
                    .multipartUpload(m -> m.parts(p -> p.partNumber(1).eTag(p1.eTag()))));
            assertThat(done.ssekmsKeyId()).isEqualTo(keyArn);
            assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("mp")).asByteArray()).isEqualTo(one);
            assertThat(s3.headObject(r -> r.bucket(BUCKET).key("mp")).ssekmsKeyId()).isEqualTo(keyArn);
            assertThat(g.engine.fsck(false).clean()).isTrue();

            // bucket default encryption naming a KMS alias: checked when set, used by writes that name none
            s3.createBucket(b -> b.bucket("kms-default"));
            assertError(() -> s3.putBucketEncryption(r -> r.bucket("kms-default").serverSideEncryptionConfiguration(
                    c -> c.rules(rule("alias/no-such-alias")))), 400, "KMS.NotFoundException");
            s3.putBucketEncryption(r -> r.bucket("kms-default").serverSideEncryptionConfiguration(c -> c.rules(
                    rule("alias/coffer-test"))));
            assertThat(s3.putObject(r -> r.bucket("kms-default").key("o"), RequestBody.fromString("o")).ssekmsKeyId())
                    .isEqualTo(keyArn);
            assertThat(s3.getObjectAsBytes(r -> r.bucket("kms-default").key("o")).asUtf8String()).isEqualTo("o");
        }
    }

    @Test
    void equalObjectsUnderOneKmsKeyDeduplicateAndARestartedGatewayReadsAndReusesItsDataKey() throws Exception {
        Path data = dir.resolve("restart");
        byte[] body = bytes(4, 1 << 20);
        String firstDataKey;
        long chunks;
        try (Gateway g = Gateway.start(data, moto.keySource())) {
            g.s3.createBucket(b -> b.bucket(BUCKET));
            // first writes of a bucket and key at once make one data key between them
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> puts = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    String key = "parallel-" + i;
                    puts.add(pool.submit(() -> putKms(g.s3, key, bytes(10, 10_000))));
                }
                for (Future<?> f : puts) {
                    f.get();
                }
            } finally {
                pool.shutdown();
            }
            List<String> parallelKeys = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                parallelKeys.add(KmsKey.wrappedDataKeyOf(g.engine.headObject(BUCKET, "parallel-" + i).attributes()));
            }
            assertThat(parallelKeys).doesNotContainNull().containsOnly(parallelKeys.get(0));
            putKms(g.s3, "one", body);
            chunks = g.engine.storageStats().store().chunks();
            putKms(g.s3, "two", body);
            assertThat(g.engine.storageStats().store().chunks()).isEqualTo(chunks);
            firstDataKey = KmsKey.wrappedDataKeyOf(g.engine.headObject(BUCKET, "one").attributes());
            assertThat(firstDataKey).isEqualTo(parallelKeys.get(0));
            assertThat(KmsKey.wrappedDataKeyOf(g.engine.headObject(BUCKET, "two").attributes()))
                    .isEqualTo(firstDataKey);
            // the same bytes under another key, or plain, are stored apart
            String other = moto.createKey(null);
            g.s3.putObject(r -> r.bucket(BUCKET).key("other").serverSideEncryption("aws:kms").ssekmsKeyId(other),
                    RequestBody.fromBytes(body));
            assertThat(g.engine.storageStats().store().chunks()).isGreaterThan(chunks);
        }
        // a new gateway (empty caches) over the same store: Decrypt opens the old objects, and the kept data key
        // makes a new equal object deduplicate with them
        try (Gateway g = Gateway.start(data, moto.keySource())) {
            assertThat(g.s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("one")).asByteArray()).isEqualTo(body);
            long before = g.engine.storageStats().store().chunks();
            putKms(g.s3, "three", body);
            assertThat(g.engine.storageStats().store().chunks()).isEqualTo(before);
            assertThat(KmsKey.wrappedDataKeyOf(g.engine.headObject(BUCKET, "three").attributes()))
                    .isEqualTo(firstDataKey);
            assertThat(g.s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("three")).asByteArray()).isEqualTo(body);
        }
        // reindex into a new metadata store: the objects' stamps and the bucket's data-key record come back from the
        // backend's sealed records, so a gateway on it reads the objects and still reuses the data key
        try (Coffer rebuilt = Coffer.builder().directory(data).metadataStore(JdbcMetadataStore.sqlite(
                data.resolve("rebuilt.db"))).build()) {
            rebuilt.reindex();
        }
        try (Gateway g = Gateway.start(Coffer.builder().directory(data).metadataStore(JdbcMetadataStore.sqlite(
                data.resolve("rebuilt.db"))).build(), moto.keySource())) {
            assertThat(g.s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("two")).asByteArray()).isEqualTo(body);
            g.s3.putObject(r -> r.bucket(BUCKET).key("four").serverSideEncryption("aws:kms")
                    .ssekmsKeyId("alias/coffer-test"), RequestBody.fromString("4"));
            assertThat(KmsKey.wrappedDataKeyOf(g.engine.headObject(BUCKET, "four").attributes()))
                    .isEqualTo(firstDataKey);
        }
        // a gateway with a keyring instead cannot open them, and says so with S3's error
        try (Gateway g = Gateway.start(data, KmsRequestsTest.KEYRING)) {
            assertError(() -> g.s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("one")), 400, "KMS.NotFoundException");
        }
    }

    @Test
    void unknownAndDisabledKeysAnswerS3sErrorsAndStoreNothing() throws Exception {
        Path data = dir.resolve("errors");
        String disabled = moto.createKey("alias/coffer-disabled");
        byte[] body = bytes(5, 50_000);
        try (Gateway g = Gateway.start(data, moto.keySource())) {
            S3Client s3 = g.s3;
            s3.createBucket(b -> b.bucket(BUCKET));
            s3.putObject(r -> r.bucket(BUCKET).key("before").serverSideEncryption("aws:kms").ssekmsKeyId(disabled),
                    RequestBody.fromBytes(body));
            assertError(() -> s3.putObject(r -> r.bucket(BUCKET).key("bad1").serverSideEncryption("aws:kms")
                    .ssekmsKeyId("alias/no-such-alias"), RequestBody.fromString("x")), 400, "KMS.NotFoundException");
            assertError(() -> s3.putObject(r -> r.bucket(BUCKET).key("bad2").serverSideEncryption("aws:kms")
                    .ssekmsKeyId("1234abcd-12ab-34cd-56ef-1234567890ab"), RequestBody.fromString("x")), 400,
                    "KMS.NotFoundException");
            // no key id: S3's default, alias/aws/s3, which the KMS makes on first use as AWS does
            String defaultKey = s3.putObject(r -> r.bucket(BUCKET).key("default").serverSideEncryption("aws:kms"),
                    RequestBody.fromString("d")).ssekmsKeyId();
            assertThat(defaultKey).startsWith("arn:aws:kms:us-east-1:").contains(":key/").isNotEqualTo(keyArn)
                    .isNotEqualTo(disabled);
            assertThat(s3.headObject(r -> r.bucket(BUCKET).key("default")).ssekmsKeyId()).isEqualTo(defaultKey);
            moto.client().disableKey(b -> b.keyId(bareId(disabled)));
            assertError(() -> s3.putObject(r -> r.bucket(BUCKET).key("bad4").serverSideEncryption("aws:kms")
                    .ssekmsKeyId("alias/coffer-disabled"), RequestBody.fromString("x")), 400, "KMS.DisabledException");
            assertError(() -> s3.createMultipartUpload(r -> r.bucket(BUCKET).key("bad5").serverSideEncryption("aws:kms")
                    .ssekmsKeyId(disabled)), 400, "KMS.DisabledException");
            for (String key : List.of("bad1", "bad2", "bad4")) {
                assertError(() -> s3.headObject(r -> r.bucket(BUCKET).key(key)), 404, null);
            }
            assertThat(s3.listMultipartUploads(r -> r.bucket(BUCKET)).uploads()).isEmpty();
            // this gateway decrypted the data key when it wrote the object: it reads without asking the KMS
            assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("before")).asByteArray()).isEqualTo(body);
        }
        try (Gateway g = Gateway.start(data, moto.keySource())) {
            // a new gateway must ask, and the KMS key is disabled
            assertError(() -> g.s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("before")), 400,
                    "KMS.DisabledException");
            moto.client().enableKey(b -> b.keyId(bareId(disabled)));
            assertThat(g.s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("before")).asByteArray()).isEqualTo(body);
        }
    }

    /** Runs last: it stops the class's KMS (one moto start per class keeps the class quick). */
    @Test
    @Order(Integer.MAX_VALUE)
    void kmsThatStopsFailsWritesWith503AndCachedDataKeysStillRead() throws Exception {
        Path data = dir.resolve("stopped");
        byte[] body = bytes(6, 80_000);
        MotoKms own = moto;
        try {
            try (Gateway g = Gateway.start(data, own.keySource())) {
                g.s3.createBucket(b -> b.bucket(BUCKET));
                putKms(g.s3, "kept", body);
                own.close();
                assertThat(g.s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("kept")).asByteArray()).isEqualTo(body);
                assertThat(g.s3.headObject(r -> r.bucket(BUCKET).key("kept")).ssekmsKeyId()).contains("key/");
                assertError(() -> putKms(g.s3, "lost", body), 503, "ServiceUnavailable");
                assertError(() -> g.s3.headObject(r -> r.bucket(BUCKET).key("lost")), 404, null);
                // plain objects do not need the KMS
                g.s3.putObject(r -> r.bucket(BUCKET).key("plain"), RequestBody.fromBytes(body));
            }
            try (Gateway g = Gateway.start(data, KmsServiceKeys.connect(own.endpoint(), "us-east-1",
                    MotoKms.credentials()))) {
                // nothing cached: the object's data key cannot be decrypted until the KMS is back
                assertError(() -> g.s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("kept")), 503,
                        "ServiceUnavailable");
                assertThat(g.engine.fsck(false).clean()).isTrue();
            }
        } finally {
            own.close();
        }
    }

    private static void putKms(S3Client s3, String key, byte[] body) {
        PutObjectResponse put = s3.putObject(r -> r.bucket(BUCKET).key(key).serverSideEncryption("aws:kms")
                .ssekmsKeyId("alias/coffer-test"), RequestBody.fromBytes(body));
        assertThat(put.ssekmsKeyId()).startsWith("arn:aws:kms:us-east-1:").contains(":key/");
    }

    private static ServerSideEncryptionRule rule(String keyId) {
        return ServerSideEncryptionRule.builder().applyServerSideEncryptionByDefault(d -> d
                .sseAlgorithm(ServerSideEncryption.AWS_KMS).kmsMasterKeyID(keyId)).build();
    }

    /** The key id in a key ARN (moto's DisableKey and EnableKey take only that). */
    static String bareId(String arn) {
        return arn.substring(arn.indexOf(":key/") + ":key/".length());
    }

    static byte[] bytes(int seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** A gateway on the engine over {@code dir} with SSE-KMS from {@code keys}; closing closes all three. */
    static final class Gateway implements AutoCloseable {
        final Coffer engine;
        final S3Server server;
        final S3Client s3;
        final KmsKeySource keys;

        private Gateway(Coffer engine, S3Server server, S3Client s3, KmsKeySource keys) {
            this.engine = engine;
            this.server = server;
            this.s3 = s3;
            this.keys = keys;
        }

        static Gateway start(Path dir, KmsKeySource keys) throws InterruptedException {
            return start(Coffer.builder().directory(dir).build(), keys);
        }

        static Gateway start(Coffer engine, KmsKeySource keys) throws InterruptedException {
            S3Server server = new S3Server(engine, S3ServerOptions.defaults("127.0.0.1", 0,
                    new CredentialStore(List.of(CREDENTIAL))).withKmsKeys(keys),
                    new GatewayMetrics(new SimpleMeterRegistry()), new AccessLog(AccessLog.Format.TEXT)).start();
            S3Client s3 = S3Client.builder().endpointOverride(URI.create("http://127.0.0.1:"
                            + server.address().getPort())).region(Region.US_EAST_1).forcePathStyle(true)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                            CREDENTIAL.accessKeyId(), CREDENTIAL.secretKey())))
                    .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
            return new Gateway(engine, server, s3, keys);
        }

        @Override
        public void close() {
            s3.close();
            server.close();
            engine.close();
            keys.close();
        }
    }
}
