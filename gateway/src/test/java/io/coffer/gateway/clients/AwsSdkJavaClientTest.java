package io.coffer.gateway.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;
import software.amazon.awssdk.transfer.s3.S3TransferManager;
import software.amazon.awssdk.transfer.s3.model.CompletedFileDownload;
import software.amazon.awssdk.transfer.s3.model.CompletedFileUpload;

/**
 * The AWS SDK for Java v2 with its default checksum behaviour (CRC32 on every upload, aws-chunked with trailers where
 * the SDK chooses it; response validation on) against the gateway on the real engine, over path-style and
 * virtual-hosted-style addressing: the sync client, the async client on Netty, and S3TransferManager moving a
 * 200 MiB file up and down in parts.
 */
class AwsSdkJavaClientTest {
    static final String BASE_DOMAIN = "s3.localhost";
    private static final long MIB = 1024 * 1024;

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withBaseDomain(BASE_DOMAIN);

    @TempDir
    static Path files;

    enum Addressing { PATH, VIRTUAL }

    private static String bucketFor(String prefix, Addressing addressing) {
        String bucket = prefix + "-" + addressing.name().toLowerCase(Locale.ROOT);
        if (addressing == Addressing.VIRTUAL) {
            LoopbackHostsFile.resolveToLoopback(BASE_DOMAIN, bucket + "." + BASE_DOMAIN);
        }
        return bucket;
    }

    private static URI endpoint(Addressing addressing) {
        return addressing == Addressing.PATH ? gateway.endpoint()
                : URI.create("http://" + BASE_DOMAIN + ":" + gateway.port());
    }

    private static StaticCredentialsProvider credentials() {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(gateway.accessKeyId(),
                gateway.secretKey()));
    }

    private static S3Client syncClient(Addressing addressing) {
        return S3Client.builder().endpointOverride(endpoint(addressing)).region(Region.US_EAST_1)
                .forcePathStyle(addressing == Addressing.PATH).credentialsProvider(credentials()).build();
    }

    private static S3AsyncClientBuilder asyncClient(Addressing addressing) {
        return S3AsyncClient.builder().endpointOverride(endpoint(addressing)).region(Region.US_EAST_1)
                .forcePathStyle(addressing == Addressing.PATH).credentialsProvider(credentials())
                .httpClientBuilder(NettyNioAsyncHttpClient.builder());
    }

    private static String crc32Base64(Path file) throws Exception {
        CRC32 crc = new CRC32();
        crc.update(Files.readAllBytes(file));
        long v = crc.getValue();
        byte[] b = {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
        return Base64.getEncoder().encodeToString(b);
    }

    @ParameterizedTest
    @EnumSource(Addressing.class)
    void syncClientRoundTripsObjectsCopiesAndMultipartUploads(Addressing addressing) throws Exception {
        String bucket = bucketFor("sdk-sync", addressing);
        Path file = TestFiles.write(files.resolve("sync-" + addressing + ".bin"), 11, 6 * MIB + 5);
        try (S3Client s3 = syncClient(addressing)) {
            s3.createBucket(b -> b.bucket(bucket));
            PutObjectResponse put = s3.putObject(r -> r.bucket(bucket).key("dir/object.bin"),
                    RequestBody.fromFile(file));
            assertThat(TestFiles.unquote(put.eTag())).isEqualTo(TestFiles.singlePartEtag(file));
            assertThat(put.checksumCRC32()).as("the SDK sends CRC32 by default and the gateway verified it")
                    .isEqualTo(crc32Base64(file));

            Path back = files.resolve("sync-back-" + addressing + ".bin");
            s3.getObject(r -> r.bucket(bucket).key("dir/object.bin"), ResponseTransformer.toFile(back));
            assertThat(TestFiles.md5Hex(back)).isEqualTo(TestFiles.md5Hex(file));

            HeadObjectResponse head = s3.headObject(r -> r.bucket(bucket).key("dir/object.bin"));
            assertThat(head.eTag()).isEqualTo(put.eTag());
            assertThat(head.contentLength()).isEqualTo(Files.size(file));

            CopyObjectResponse copy = s3.copyObject(r -> r.sourceBucket(bucket).sourceKey("dir/object.bin")
                    .destinationBucket(bucket).destinationKey("copy.bin"));
            assertThat(copy.copyObjectResult().eTag()).isEqualTo(put.eTag());

            CreateMultipartUploadResponse mpu = s3.createMultipartUpload(r -> r.bucket(bucket).key("multi.bin"));
            List<CompletedPart> parts = new ArrayList<>();
            byte[] all = Files.readAllBytes(file);
            long partSize = 5 * MIB;
            for (int n = 1; (n - 1) * partSize < all.length; n++) {
                int from = (int) ((n - 1) * partSize);
                int to = (int) Math.min(all.length, from + partSize);
                int number = n;
                UploadPartResponse part = s3.uploadPart(r -> r.bucket(bucket).key("multi.bin")
                        .uploadId(mpu.uploadId()).partNumber(number),
                        RequestBody.fromBytes(Arrays.copyOfRange(all, from, to)));
                parts.add(CompletedPart.builder().partNumber(number).eTag(part.eTag())
                        .checksumCRC32(part.checksumCRC32()).build());
            }
            String etag = s3.completeMultipartUpload(r -> r.bucket(bucket).key("multi.bin").uploadId(mpu.uploadId())
                    .multipartUpload(u -> u.parts(parts))).eTag();
            assertThat(TestFiles.unquote(etag)).isEqualTo(TestFiles.multipartEtag(file, partSize));
            assertThat(s3.getObjectAsBytes(r -> r.bucket(bucket).key("multi.bin")).asByteArray()).isEqualTo(all);

            List<String> keys = s3.listObjectsV2Paginator(r -> r.bucket(bucket).maxKeys(2)).contents().stream()
                    .map(S3Object::key).toList();
            assertThat(keys).containsExactly("copy.bin", "dir/object.bin", "multi.bin");
            for (String key : keys) {
                s3.deleteObject(r -> r.bucket(bucket).key(key));
            }
            s3.deleteBucket(r -> r.bucket(bucket));
            assertThat(s3.listBuckets().buckets()).noneMatch(b -> b.name().equals(bucket));
        }
    }

    @ParameterizedTest
    @EnumSource(Addressing.class)
    void asyncNettyClientRoundTripsFiles(Addressing addressing) throws Exception {
        String bucket = bucketFor("sdk-async", addressing);
        Path file = TestFiles.write(files.resolve("async-" + addressing + ".bin"), 12, 9 * MIB + 3);
        try (S3AsyncClient s3 = asyncClient(addressing).build()) {
            s3.createBucket(b -> b.bucket(bucket)).join();
            PutObjectResponse put = s3.putObject(r -> r.bucket(bucket).key("async.bin"),
                    AsyncRequestBody.fromFile(file)).join();
            assertThat(TestFiles.unquote(put.eTag())).isEqualTo(TestFiles.singlePartEtag(file));
            assertThat(put.checksumCRC32()).isEqualTo(crc32Base64(file));

            Path back = files.resolve("async-back-" + addressing + ".bin");
            s3.getObject(r -> r.bucket(bucket).key("async.bin"), AsyncResponseTransformer.toFile(back)).join();
            assertThat(TestFiles.md5Hex(back)).isEqualTo(TestFiles.md5Hex(file));
            assertThat(s3.headObject(r -> r.bucket(bucket).key("async.bin")).join().eTag()).isEqualTo(put.eTag());
            assertThat(s3.listObjectsV2(r -> r.bucket(bucket)).join().contents()).extracting(S3Object::key)
                    .containsExactly("async.bin");
            s3.deleteObject(r -> r.bucket(bucket).key("async.bin")).join();
            s3.deleteBucket(r -> r.bucket(bucket)).join();
        }
    }

    @Test
    void transferManagerMovesTwoHundredMebibytesInParts() throws Exception {
        long partSize = 16 * MIB;
        Path file = TestFiles.write(files.resolve("tm-200m.bin"), 13, 200 * MIB);
        Path back = files.resolve("tm-200m-back.bin");
        try (S3AsyncClient s3 = asyncClient(Addressing.PATH).multipartEnabled(true)
                .multipartConfiguration(m -> m.minimumPartSizeInBytes(partSize).thresholdInBytes(partSize)).build();
             S3TransferManager tm = S3TransferManager.builder().s3Client(s3).build()) {
            s3.createBucket(b -> b.bucket("transfer-manager")).join();
            CompletedFileUpload up = tm.uploadFile(u -> u.source(file)
                    .putObjectRequest(p -> p.bucket("transfer-manager").key("big.bin"))).completionFuture().join();
            String expectedEtag = TestFiles.multipartEtag(file, partSize);
            assertThat(TestFiles.unquote(up.response().eTag())).isEqualTo(expectedEtag);

            CompletedFileDownload down = tm.downloadFile(d -> d.destination(back)
                    .getObjectRequest(g -> g.bucket("transfer-manager").key("big.bin"))).completionFuture().join();
            assertThat(TestFiles.unquote(down.response().eTag())).isEqualTo(expectedEtag);
            assertThat(Files.size(back)).isEqualTo(Files.size(file));
            assertThat(TestFiles.md5Hex(back)).isEqualTo(TestFiles.md5Hex(file));
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(back);
        }
    }
}
