package io.coffer.gateway.s3.sse;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.auth.Credential;
import io.coffer.gateway.auth.CredentialStore;
import io.coffer.gateway.http.AccessLog;
import io.coffer.gateway.http.GatewayMetrics;
import io.coffer.gateway.http.S3Server;
import io.coffer.gateway.http.S3ServerOptions;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
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
 * SSE-KMS through the AWS SDK v2 on the real engine, keys from a keyring: PutObject, GetObject (whole, range, part)
 * and HeadObject with no key headers on reads, the key id reported, the default key and ARNs, multipart uploads and
 * part copies, copies between SSE-KMS and plain objects, bucket default encryption with aws:kms, S3's errors (which
 * store nothing), and an object whose key left the keyring.
 */
class KmsRequestsTest {
    static final KmsKeyring KEYRING = keyring(List.of("testkey-1 " + b64(key(1)), "testkey-2 " + b64(key(2)),
            KmsKeyring.DEFAULT_ID + " " + b64(key(3))));

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withKmsKeys(KEYRING)
            .withSseCustomerOverHttp(true);

    static final String BUCKET = "ssekms";

    @BeforeAll
    static void bucket() {
        gateway.client().createBucket(b -> b.bucket(BUCKET));
    }

    @Test
    void objectUnderAKeyringKeyReadsBackWithoutHeadersAndReportsItsKeyId(S3Client s3) {
        byte[] data = bytes(300_000);
        PutObjectResponse put = s3.putObject(r -> r.bucket(BUCKET).key("a").serverSideEncryption("aws:kms")
                .ssekmsKeyId("testkey-1"), RequestBody.fromBytes(data));
        assertThat(put.serverSideEncryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
        assertThat(put.ssekmsKeyId()).isEqualTo("testkey-1");

        ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("a"));
        assertThat(got.asByteArray()).isEqualTo(data);
        assertThat(got.response().serverSideEncryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
        assertThat(got.response().ssekmsKeyId()).isEqualTo("testkey-1");
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("a").range("bytes=1000-1999")).asByteArray())
                .isEqualTo(Arrays.copyOfRange(data, 1000, 2000));
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("a").partNumber(1)).asByteArray()).isEqualTo(data);
        HeadObjectResponse head = s3.headObject(r -> r.bucket(BUCKET).key("a"));
        assertThat(head.serverSideEncryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
        assertThat(head.ssekmsKeyId()).isEqualTo("testkey-1");
        // the key's digest and the context are never headers
        assertThat(head.sdkHttpResponse().headers().keySet()).noneMatch(h -> h.toLowerCase().contains("coffer"));
    }

    @Test
    void defaultKeyArnsContextAndBucketKeyAreAcceptedAndReported(S3Client s3) {
        PutObjectResponse byDefault = s3.putObject(r -> r.bucket(BUCKET).key("default")
                .serverSideEncryption("aws:kms"), RequestBody.fromString("d"));
        assertThat(byDefault.ssekmsKeyId()).isEqualTo(KmsKeyring.DEFAULT_ID);
        PutObjectResponse byArn = s3.putObject(r -> r.bucket(BUCKET).key("arn").serverSideEncryption("aws:kms")
                .ssekmsKeyId("arn:aws:kms:us-east-1:123456789012:key/testkey-2").bucketKeyEnabled(true),
                RequestBody.fromString("arn"));
        assertThat(byArn.ssekmsKeyId()).isEqualTo("testkey-2");
        assertThat(byArn.bucketKeyEnabled()).isTrue();
        String context = Base64.getEncoder().encodeToString("{\"app\":\"x\"}".getBytes(StandardCharsets.UTF_8));
        PutObjectResponse withContext = s3.putObject(r -> r.bucket(BUCKET).key("ctx").serverSideEncryption("aws:kms")
                .ssekmsKeyId("testkey-1").ssekmsEncryptionContext(context), RequestBody.fromString("c"));
        assertThat(withContext.ssekmsEncryptionContext()).isEqualTo(context);
        HeadObjectResponse head = s3.headObject(r -> r.bucket(BUCKET).key("arn"));
        assertThat(head.ssekmsKeyId()).isEqualTo("testkey-2");
        assertThat(head.bucketKeyEnabled()).isTrue();
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("ctx")).asUtf8String()).isEqualTo("c");
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("default")).asUtf8String()).isEqualTo("d");
    }

    @Test
    void refusedRequestsAnswerS3sErrorsAndStoreNothing(S3Client s3) {
        assertError(() -> s3.putObject(r -> r.bucket(BUCKET).key("bad1").serverSideEncryption("aws:kms")
                .ssekmsKeyId("no-such-key"), RequestBody.fromString("x")), 400, "KMS.NotFoundException");
        assertError(() -> s3.putObject(r -> r.bucket(BUCKET).key("bad2").ssekmsKeyId("testkey-1"),
                RequestBody.fromString("x")), 400, "InvalidArgument");
        assertError(() -> s3.putObject(r -> r.bucket(BUCKET).key("bad3").serverSideEncryption("AES256")
                .ssekmsKeyId("testkey-1"), RequestBody.fromString("x")), 400, "InvalidArgument");
        assertError(() -> s3.putObject(r -> r.bucket(BUCKET).key("bad4").serverSideEncryption("aws:kms")
                .sseCustomerAlgorithm("AES256").sseCustomerKey(b64(key(5)))
                .sseCustomerKeyMD5(CustomerKeyRequestsTest.md5(key(5))), RequestBody.fromString("x")), 400,
                "InvalidArgument");
        assertError(() -> s3.putObject(r -> r.bucket(BUCKET).key("bad5").serverSideEncryption("aws:kms:dsse"),
                RequestBody.fromString("x")), 501, "NotImplemented");
        assertError(() -> s3.putObject(r -> r.bucket(BUCKET).key("bad6").serverSideEncryption("aws:kms")
                .ssekmsEncryptionContext(b64("not json".getBytes(StandardCharsets.UTF_8))),
                RequestBody.fromString("x")), 400, "InvalidArgument");
        assertError(() -> s3.putObject(r -> r.bucket(BUCKET).key("bad7").serverSideEncryption("aes:kms"),
                RequestBody.fromString("x")), 400, "InvalidArgument");
        assertError(() -> s3.createMultipartUpload(r -> r.bucket(BUCKET).key("bad8").serverSideEncryption("aws:kms")
                .ssekmsKeyId("no-such-key")), 400, "KMS.NotFoundException");
        for (String key : List.of("bad1", "bad2", "bad3", "bad4", "bad5", "bad6", "bad7")) {
            assertError(() -> s3.headObject(r -> r.bucket(BUCKET).key(key)), 404, null);
        }
        assertThat(s3.listMultipartUploads(r -> r.bucket(BUCKET)).uploads()).noneMatch(u -> u.key().equals("bad8"));
        // reads name no server-side key; an SSE-C key does not open a keyring key's object
        s3.putObject(r -> r.bucket(BUCKET).key("k").serverSideEncryption("aws:kms").ssekmsKeyId("testkey-1"),
                RequestBody.fromString("k"));
        assertError(() -> s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("k").overrideConfiguration(o -> o
                .putHeader("x-amz-server-side-encryption", "aws:kms"))), 400, "InvalidArgument");
        assertError(() -> s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("k").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(b64(key(1))).sseCustomerKeyMD5(CustomerKeyRequestsTest.md5(key(1)))), 400,
                "InvalidRequest");
    }

    @Test
    void multipartUploadUnderAKeyringKeyTakesPartsWithoutHeaders(S3Client s3) {
        byte[] one = bytes(5 << 20);
        byte[] two = bytes(100_000);
        String upload = s3.createMultipartUpload(r -> r.bucket(BUCKET).key("mp").serverSideEncryption("aws:kms")
                .ssekmsKeyId("testkey-2")).uploadId();
        var part1 = s3.uploadPart(r -> r.bucket(BUCKET).key("mp").uploadId(upload).partNumber(1),
                RequestBody.fromBytes(one));
        assertThat(part1.serverSideEncryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
        assertThat(part1.ssekmsKeyId()).isEqualTo("testkey-2");
        s3.putObject(r -> r.bucket(BUCKET).key("plain-part"), RequestBody.fromBytes(two));
        // a plain source copied into the upload is written under the upload's key
        String etag2 = s3.uploadPartCopy(r -> r.sourceBucket(BUCKET).sourceKey("plain-part").destinationBucket(BUCKET)
                .destinationKey("mp").uploadId(upload).partNumber(2)).copyPartResult().eTag();
        var completed = s3.completeMultipartUpload(r -> r.bucket(BUCKET).key("mp").uploadId(upload)
                .multipartUpload(m -> m.parts(p -> p.partNumber(1).eTag(part1.eTag()),
                        p -> p.partNumber(2).eTag(etag2))));
        assertThat(completed.serverSideEncryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
        assertThat(completed.ssekmsKeyId()).isEqualTo("testkey-2");
        ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("mp"));
        assertThat(got.response().ssekmsKeyId()).isEqualTo("testkey-2");
        assertThat(got.asByteArray()).hasSize(one.length + two.length);
        assertThat(Arrays.copyOfRange(got.asByteArray(), one.length, got.asByteArray().length)).isEqualTo(two);
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("mp").range("bytes=5242000-5242999"))
                .asByteArray()).isEqualTo(Arrays.copyOfRange(got.asByteArray(), 5_242_000, 5_243_000));
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("mp").partNumber(2)).asByteArray()).isEqualTo(two);
        // and a part copied from a keyring key's object into a plain upload is readable without any key
        String plain = s3.createMultipartUpload(r -> r.bucket(BUCKET).key("mp-plain")).uploadId();
        String etag = s3.uploadPartCopy(r -> r.sourceBucket(BUCKET).sourceKey("mp").destinationBucket(BUCKET)
                .destinationKey("mp-plain").uploadId(plain).partNumber(1).copySourceRange("bytes=100-99999"))
                .copyPartResult().eTag();
        s3.completeMultipartUpload(r -> r.bucket(BUCKET).key("mp-plain").uploadId(plain).multipartUpload(m -> m.parts(
                p -> p.partNumber(1).eTag(etag))));
        ResponseBytes<GetObjectResponse> copied = s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("mp-plain"));
        assertThat(copied.asByteArray()).isEqualTo(Arrays.copyOfRange(got.asByteArray(), 100, 100_000));
        assertThat(copied.response().serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
    }

    @Test
    void copiesMoveObjectsBetweenKeyringKeysAndPlainStorage(S3Client s3) {
        byte[] data = bytes(200_000);
        s3.putObject(r -> r.bucket(BUCKET).key("plain-src"), RequestBody.fromBytes(data));
        var toKms = s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("plain-src").destinationBucket(BUCKET)
                .destinationKey("kms-copy").serverSideEncryption("aws:kms").ssekmsKeyId("testkey-1"));
        assertThat(toKms.ssekmsKeyId()).isEqualTo("testkey-1");
        assertThat(s3.headObject(r -> r.bucket(BUCKET).key("kms-copy")).ssekmsKeyId()).isEqualTo("testkey-1");
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("kms-copy")).asByteArray()).isEqualTo(data);

        var toPlain = s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("kms-copy").destinationBucket(BUCKET)
                .destinationKey("plain-copy"));
        assertThat(toPlain.serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
        HeadObjectResponse plain = s3.headObject(r -> r.bucket(BUCKET).key("plain-copy"));
        assertThat(plain.serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
        assertThat(plain.ssekmsKeyId()).isNull();
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("plain-copy")).asByteArray()).isEqualTo(data);

        s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("kms-copy").destinationBucket(BUCKET)
                .destinationKey("rekeyed").serverSideEncryption("aws:kms").ssekmsKeyId("testkey-2")
                .metadataDirective("REPLACE").contentType("text/plain"));
        HeadObjectResponse rekeyed = s3.headObject(r -> r.bucket(BUCKET).key("rekeyed"));
        assertThat(rekeyed.ssekmsKeyId()).isEqualTo("testkey-2");
        assertThat(rekeyed.contentType()).isEqualTo("text/plain");
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("rekeyed")).asByteArray()).isEqualTo(data);
    }

    @Test
    void bucketDefaultEncryptionWithAwsKmsAppliesToWritesWithoutHeaders(S3Client s3) {
        s3.createBucket(b -> b.bucket("kms-default"));
        assertError(() -> s3.putBucketEncryption(r -> r.bucket("kms-default").serverSideEncryptionConfiguration(c -> c
                .rules(rule("no-such-key")))), 400, "KMS.NotFoundException");
        s3.putBucketEncryption(r -> r.bucket("kms-default").serverSideEncryptionConfiguration(c -> c
                .rules(rule("testkey-2"))));
        var byDefault = s3.getBucketEncryption(r -> r.bucket("kms-default")).serverSideEncryptionConfiguration()
                .rules().get(0).applyServerSideEncryptionByDefault();
        assertThat(byDefault.sseAlgorithm()).isEqualTo(ServerSideEncryption.AWS_KMS);
        assertThat(byDefault.kmsMasterKeyID()).isEqualTo("testkey-2");

        PutObjectResponse put = s3.putObject(r -> r.bucket("kms-default").key("o"), RequestBody.fromString("o"));
        assertThat(put.serverSideEncryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
        assertThat(put.ssekmsKeyId()).isEqualTo("testkey-2");
        ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(r -> r.bucket("kms-default").key("o"));
        assertThat(got.asUtf8String()).isEqualTo("o");
        assertThat(got.response().ssekmsKeyId()).isEqualTo("testkey-2");
        // a request that names its encryption gets that instead
        assertThat(s3.putObject(r -> r.bucket("kms-default").key("s3").serverSideEncryption("AES256"),
                RequestBody.fromString("s")).serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
        assertThat(s3.headObject(r -> r.bucket("kms-default").key("s3")).ssekmsKeyId()).isNull();
        String upload = s3.createMultipartUpload(r -> r.bucket("kms-default").key("mp")).uploadId();
        assertThat(s3.uploadPart(r -> r.bucket("kms-default").key("mp").uploadId(upload).partNumber(1),
                RequestBody.fromString("p")).ssekmsKeyId()).isEqualTo("testkey-2");
    }

    @Test
    void objectWhoseKeyLeftTheKeyringIsRefusedAndReadableOnceItIsBack(S3Client s3) throws Exception {
        byte[] data = bytes(70_000);
        s3.putObject(r -> r.bucket(BUCKET).key("orphan").serverSideEncryption("aws:kms").ssekmsKeyId("testkey-1"),
                RequestBody.fromBytes(data));
        KmsKeyring without = keyring(List.of("testkey-2 " + b64(key(2))));
        Credential c = new Credential(gateway.accessKeyId(), gateway.secretKey(), "tenant");
        try (S3Server other = new S3Server(gateway.engine(), S3ServerOptions.defaults("127.0.0.1", 0,
                new CredentialStore(List.of(c))).withKmsKeys(without),
                new GatewayMetrics(new SimpleMeterRegistry()), new AccessLog(AccessLog.Format.TEXT)).start();
             S3Client client = S3Client.builder().endpointOverride(URI.create("http://127.0.0.1:"
                     + other.address().getPort())).region(Region.US_EAST_1).forcePathStyle(true)
                     .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                             c.accessKeyId(), c.secretKey()))).build()) {
            assertError(() -> client.getObjectAsBytes(r -> r.bucket(BUCKET).key("orphan")), 400,
                    "KMS.NotFoundException");
            // HEAD has no body: only the status shows
            assertError(() -> client.headObject(r -> r.bucket(BUCKET).key("orphan")), 400, null);
        }
        assertThat(gateway.engine().fsck(false).clean()).isTrue();
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("orphan")).asByteArray()).isEqualTo(data);
    }

    private static ServerSideEncryptionRule rule(String keyId) {
        return ServerSideEncryptionRule.builder().applyServerSideEncryptionByDefault(d -> d
                .sseAlgorithm(ServerSideEncryption.AWS_KMS).kmsMasterKeyID(keyId)).build();
    }

    static KmsKeyring keyring(List<String> lines) {
        try {
            return KmsKeyring.parse(lines, "test keyring");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] key(int seed) {
        byte[] k = new byte[32];
        Arrays.fill(k, (byte) seed);
        return k;
    }

    static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 37 + i / 11);
        }
        return b;
    }
}
