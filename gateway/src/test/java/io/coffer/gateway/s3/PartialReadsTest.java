package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * Ranges and parts through the AWS SDK v2 with its default checksum validation, on the real engine: a response that
 * carries less than the whole object carries none of the whole object's checksums (the SDK would fail it), and
 * partNumber answers as S3 does (206 with Content-Range, 416 InvalidPartNumber past the last part, 400 with a Range).
 */
class PartialReadsTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).minPartSize(1).build());

    static final String BUCKET = "partial";
    static final byte[] DATA = new byte[300_000];
    static final byte[][] PARTS = {Arrays.copyOfRange(DATA, 0, 100_000), Arrays.copyOfRange(DATA, 100_000, 250_000),
        Arrays.copyOfRange(DATA, 250_000, 300_000)};

    @BeforeAll
    static void objects() {
        for (int i = 0; i < DATA.length; i++) {
            DATA[i] = (byte) (i * 31 + i / 7);
        }
        for (int p = 0, off = 0; p < PARTS.length; off += PARTS[p].length, p++) {
            PARTS[p] = Arrays.copyOfRange(DATA, off, off + PARTS[p].length);
        }
        S3Client s3 = gateway.client();
        s3.createBucket(b -> b.bucket(BUCKET));
        // the SDK's default: a CRC32 sent as a trailer, stored and returned with x-amz-checksum-mode: ENABLED
        s3.putObject(r -> r.bucket(BUCKET).key("single"), RequestBody.fromBytes(DATA));
        String id = s3.createMultipartUpload(r -> r.bucket(BUCKET).key("multi")).uploadId();
        List<CompletedPart> done = new ArrayList<>();
        for (int p = 0; p < PARTS.length; p++) {
            int n = p + 1;
            String etag = s3.uploadPart(r -> r.bucket(BUCKET).key("multi").uploadId(id).partNumber(n),
                    RequestBody.fromBytes(PARTS[n - 1])).eTag();
            done.add(CompletedPart.builder().partNumber(n).eTag(etag).build());
        }
        s3.completeMultipartUpload(r -> r.bucket(BUCKET).key("multi").uploadId(id).multipartUpload(m -> m.parts(done)));
    }

    @Test
    void wholeObjectCarriesItsChecksum(S3Client s3) {
        ResponseBytes<GetObjectResponse> whole = s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("single")
                .checksumMode(ChecksumMode.ENABLED));
        assertThat(whole.asByteArray()).isEqualTo(DATA);
        assertThat(whole.response().checksumCRC32()).isNotNull();
    }

    @Test
    void rangedGetCarriesNoWholeObjectChecksum(S3Client s3) {
        ResponseBytes<GetObjectResponse> ranged = s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("single")
                .range("bytes=1000-1999").checksumMode(ChecksumMode.ENABLED));
        assertThat(ranged.asByteArray()).isEqualTo(Arrays.copyOfRange(DATA, 1000, 2000));
        assertThat(ranged.response().contentRange()).isEqualTo("bytes 1000-1999/" + DATA.length);
        assertThat(ranged.response().checksumCRC32()).isNull();
        HeadObjectResponse head = s3.headObject(r -> r.bucket(BUCKET).key("single").range("bytes=0-9")
                .checksumMode(ChecksumMode.ENABLED));
        assertThat(head.checksumCRC32()).isNull();
    }

    @Test
    void partOfASinglePutObjectIsTheWholeObjectAs206(S3Client s3) {
        ResponseBytes<GetObjectResponse> part = s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("single")
                .partNumber(1).checksumMode(ChecksumMode.ENABLED));
        assertThat(part.asByteArray()).isEqualTo(DATA);
        assertThat(part.response().sdkHttpResponse().statusCode()).isEqualTo(206);
        assertThat(part.response().contentRange()).isEqualTo("bytes 0-" + (DATA.length - 1) + "/" + DATA.length);
        assertThat(part.response().checksumCRC32()).as("the one part is the whole object").isNotNull();
        HeadObjectResponse head = s3.headObject(r -> r.bucket(BUCKET).key("single").partNumber(1));
        assertThat(head.sdkHttpResponse().statusCode()).isEqualTo(206);
        assertThat(head.contentLength()).isEqualTo(DATA.length);
    }

    @Test
    void partsOfAMultipartObjectAre206WithTheirRange(S3Client s3) {
        long offset = 0;
        for (int n = 1; n <= PARTS.length; n++) {
            int part = n;
            ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("multi")
                    .partNumber(part).checksumMode(ChecksumMode.ENABLED));
            assertThat(got.asByteArray()).isEqualTo(PARTS[n - 1]);
            assertThat(got.response().partsCount()).isEqualTo(PARTS.length);
            assertThat(got.response().contentRange()).isEqualTo("bytes " + offset + "-"
                    + (offset + PARTS[n - 1].length - 1) + "/" + DATA.length);
            HeadObjectResponse head = s3.headObject(r -> r.bucket(BUCKET).key("multi").partNumber(part));
            assertThat(head.sdkHttpResponse().statusCode()).isEqualTo(206);
            assertThat(head.contentLength()).isEqualTo(PARTS[n - 1].length);
            offset += PARTS[n - 1].length;
        }
    }

    @Test
    void partNumberErrorsAreAsS3Answers(S3Client s3) {
        // past the last part: 416 InvalidPartNumber (HEAD: the status alone)
        assertError(() -> s3.getObject(r -> r.bucket(BUCKET).key("multi").partNumber(4)), 416, "InvalidPartNumber");
        assertError(() -> s3.getObject(r -> r.bucket(BUCKET).key("single").partNumber(2)), 416, "InvalidPartNumber");
        assertError(() -> s3.headObject(r -> r.bucket(BUCKET).key("multi").partNumber(4)), 416, null);
        assertError(() -> s3.headObject(r -> r.bucket(BUCKET).key("single").partNumber(2)), 416, null);
        // not a part number at all: 400 InvalidArgument
        assertError(() -> s3.getObject(r -> r.bucket(BUCKET).key("multi").partNumber(0)), 400, "InvalidArgument");
        assertError(() -> s3.getObject(r -> r.bucket(BUCKET).key("multi").partNumber(10001)), 400,
                "InvalidArgument");
        // with a Range: 400 InvalidRequest, whatever the part number
        assertError(() -> s3.getObject(r -> r.bucket(BUCKET).key("multi").partNumber(1).range("bytes=0-1")), 400,
                "InvalidRequest");
        assertError(() -> s3.getObject(r -> r.bucket(BUCKET).key("multi").partNumber(9).range("bytes=0-1")), 400,
                "InvalidRequest");
        // a missing key stays NoSuchKey
        assertError(() -> s3.getObject(r -> r.bucket(BUCKET).key("missing").partNumber(1)), 404, "NoSuchKey");
    }
}
