package io.coffer.sdk.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.testing.S3ServerFixture;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpMethod;

/** The contract test against {@link S3BlobStore} on the in-process S3 server, plus multipart and key prefixes. */
class S3BlobStoreTest extends BlobStoreContractTest {

    @RegisterExtension
    static final S3ServerFixture S3 = new S3ServerFixture();

    private static final int MIB = 1 << 20;
    private static final String TENANT_PREFIX = "tenant-1/";

    @Override
    protected BlobStore createStore() throws IOException {
        return S3.storeBuilder(S3.createBucket()).listPageSize(3).build();
    }

    @Test
    void largeBlobGoesMultipart() throws IOException {
        String bucket = S3.createBucket();
        try (S3BlobStore multipart = S3.storeBuilder(bucket).multipartThreshold(8L * MIB).partSize(5L * MIB).build()) {
            BlobContent content = TestContents.generated(20L * MIB + 123, 11);
            multipart.put("p/multi", content);

            try (InputStream in = multipart.get("p/multi", 0, -1)) {
                assertThat(TestContents.sha256(in)).isEqualTo(TestContents.sha256(content));
            }
            assertThat(multipart.head("p/multi")).map(BlobInfo::size).contains(20L * MIB + 123);
            assertThat(multipart.read("p/multi", 6L * MIB - 2, 4))
                    .isEqualTo(Arrays.copyOfRange(
                            TestContents.bytes(TestContents.generated(6L * MIB + 2, 11)), 6 * MIB - 2, 6 * MIB + 2));
            assertThat(multipart.client().headObject(r -> r.bucket(bucket).key("p/multi")).eTag()).contains("-");
        }
    }

    @Test
    void uploadsOverHttpAreSignedWithAnUnsignedPayloadUnlessAskedOtherwise() throws IOException {
        String bucket = S3.createBucket();
        List<String> unsigned = new CopyOnWriteArrayList<>();
        List<String> signed = new CopyOnWriteArrayList<>();
        byte[] body = TestContents.bytes(TestContents.generated(100_000, 5));
        try (S3BlobStore lean = S3.storeBuilder(bucket).addInterceptor(contentSha256Into(unsigned)).build();
             S3BlobStore hashed = S3.storeBuilder(bucket).signPayloadOverHttp(true)
                     .addInterceptor(contentSha256Into(signed)).build()) {
            // the server checks every signature: both uploads are accepted and read back intact
            lean.put("p/lean", BlobContent.of(body));
            hashed.put("p/hashed", BlobContent.of(body));
            assertThat(lean.read("p/hashed", 0, body.length)).isEqualTo(body);
            assertThat(hashed.read("p/lean", 0, body.length)).isEqualTo(body);
        }
        assertThat(unsigned).isNotEmpty().allMatch("UNSIGNED-PAYLOAD"::equals);
        assertThat(signed).isNotEmpty().noneMatch(v -> v.contains("UNSIGNED"));
    }

    @Test
    void inMemoryPutsBypassTheSdkPipelineSignedEitherWayAndStreamedPutsDoNot() throws IOException {
        String bucket = S3.createBucket();
        byte[] small = TestContents.bytes(TestContents.generated(4096, 3));
        try (S3BlobStore lean = S3.storeBuilder(bucket).build();
             S3BlobStore hashed = S3.storeBuilder(bucket).signPayloadOverHttp(true).build();
             S3BlobStore oddPrefix = S3.storeBuilder(bucket).keyPrefix("tenant one/").build()) {
            // the server checks every signature: an accepted put was signed right
            lean.put("m/ab/lean", BlobContent.of(small));
            hashed.put("m/ab/hashed", BlobContent.of(small));
            oddPrefix.put("m/ab/odd", BlobContent.of(small));
            lean.put("p/ab/streamed", TestContents.generated(4096, 4));
            byte[] pack = TestContents.bytes(TestContents.generated(3 * MIB + 17, 4));
            lean.put("p/ab/pack", BlobContent.of(pack));

            assertThat(lean.directPuts()).as("the in-memory puts, not the streamed one").isEqualTo(2);
            assertThat(hashed.directPuts()).isEqualTo(1);
            assertThat(oddPrefix.directPuts()).as("a key that needs URL encoding takes the SDK").isZero();
            assertThat(lean.read("m/ab/hashed", 0, small.length)).isEqualTo(small);
            assertThat(hashed.read("m/ab/lean", 0, small.length)).isEqualTo(small);
            assertThat(oddPrefix.read("m/ab/odd", 0, small.length)).isEqualTo(small);
            assertThat(hashed.read("p/ab/pack", 0, pack.length)).isEqualTo(pack);
            assertThat(lean.head("p/ab/streamed")).map(BlobInfo::size).contains(4096L);
        }
    }

    @Test
    void anInMemoryBodyWithoutAnArrayIsPutDirectlyToo() throws IOException {
        byte[] pack = TestContents.bytes(TestContents.generated(MIB + 5, 8));
        ByteBuffer offHeap = ByteBuffer.allocateDirect(pack.length).put(pack).flip();
        BlobContent content = new BlobContent() {
            @Override public long length() { return pack.length; }
            @Override public InputStream open() { return new ByteArrayInputStream(pack); }
            @Override public ByteBuffer inMemory() { return offHeap.asReadOnlyBuffer(); }
        };
        try (S3BlobStore lean = S3.storeBuilder(S3.createBucket()).build()) {
            lean.put("p/ab/off-heap", content);

            assertThat(lean.directPuts()).isEqualTo(1);
            assertThat(lean.read("p/ab/off-heap", 0, pack.length)).isEqualTo(pack);
        }
    }

    @Test
    void rangedReadsIntoAnArrayBypassTheSdkPipelineAndFallBackOnAnythingElse() throws IOException {
        String bucket = S3.createBucket();
        byte[] pack = TestContents.bytes(TestContents.generated(3 * MIB + 17, 6));
        try (S3BlobStore lean = S3.storeBuilder(bucket).build();
             S3BlobStore hashed = S3.storeBuilder(bucket).signPayloadOverHttp(true).build();
             S3BlobStore oddPrefix = S3.storeBuilder(bucket).keyPrefix("tenant one/").build()) {
            lean.put("p/ab/pack", BlobContent.of(pack));
            oddPrefix.put("p/ab/pack", BlobContent.of(pack));
            byte[] into = new byte[MIB + 10];
            lean.readInto("p/ab/pack", 2 * MIB, into, 5, MIB);
            assertThat(Arrays.copyOfRange(into, 5, 5 + MIB))
                    .isEqualTo(Arrays.copyOfRange(pack, 2 * MIB, 3 * MIB));
            assertThat(hashed.read("p/ab/pack", 0, pack.length)).isEqualTo(pack);
            assertThat(oddPrefix.read("p/ab/pack", 7, 100)).isEqualTo(Arrays.copyOfRange(pack, 7, 107));
            assertThat(lean.directReads()).isEqualTo(1);
            assertThat(hashed.directReads()).as("the server checks the signature of the payload-signing store too")
                    .isEqualTo(1);
            assertThat(oddPrefix.directReads()).as("a key that needs URL encoding takes the SDK").isZero();

            // a short range and a missing blob are answered by the SDK's path, with its errors
            assertThatThrownBy(() -> lean.read("p/ab/pack", pack.length - 10, 20))
                    .isInstanceOf(EOFException.class);
            assertThatThrownBy(() -> lean.read("p/ab/missing", 0, 10)).isInstanceOf(BlobNotFoundException.class);
            assertThat(lean.directReads()).isEqualTo(1);
            // and the pooled connection is still good after those aborted answers
            assertThat(lean.read("p/ab/pack", 1, 3)).isEqualTo(Arrays.copyOfRange(pack, 1, 4));
            assertThat(lean.directReads()).isEqualTo(2);
        }
    }

    @Test
    void onlyKeysNoHttpLayerCanRewriteAreSentDirectly() {
        assertThat(DirectRequests.handles("m/ab/0123abcd")).isTrue();
        assertThat(DirectRequests.handles("tenant-1/p/ab/x.y_z~")).isTrue();
        for (String key : List.of("/m/x", "m//x", "m/./x", "m/../x", "m/x/", "m/..", "tenant one/m/x", "m/x?y",
                "m/x%41", "m/é")) {
            assertThat(DirectRequests.handles(key)).as(key).isFalse();
        }
    }

    @Test
    void aRefusedDirectPutFallsBackToTheSdkAndItsError() throws IOException {
        try (S3BlobStore nowhere = S3.storeBuilder("coffer-no-such-bucket").maxAttempts(1).build()) {
            assertThatThrownBy(() -> nowhere.put("m/ab/x", BlobContent.of(new byte[] {1})))
                    .isInstanceOf(IOException.class).hasMessageContaining("bucket does not exist");
            assertThat(nowhere.directPuts()).isZero();
        }
    }

    /** Records the x-amz-content-sha256 header of every PUT as it goes on the wire. */
    private static ExecutionInterceptor contentSha256Into(List<String> seen) {
        return new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                if (context.httpRequest().method() == SdkHttpMethod.PUT) {
                    seen.add(context.httpRequest().firstMatchingHeader("x-amz-content-sha256").orElse("none"));
                }
            }
        };
    }

    @Test
    void failedMultipartUploadIsAborted() throws IOException {
        String bucket = S3.createBucket();
        try (S3BlobStore multipart = S3.storeBuilder(bucket).multipartThreshold(6L * MIB).partSize(5L * MIB).build()) {
            assertThatThrownBy(() -> multipart.put("p/fail", TestContents.failingAfter(12L * MIB, 7L * MIB)))
                    .isInstanceOf(IOException.class).hasMessageContaining("simulated failure");

            assertThat(multipart.head("p/fail")).isEmpty();
            assertThat(multipart.client().listMultipartUploads(r -> r.bucket(bucket)).uploads()).isEmpty();
        }
    }

    @Test
    void keyPrefixIsAddedOnWriteAndStrippedOnList() throws IOException {
        String bucket = S3.createBucket();
        try (S3BlobStore prefixed = S3.storeBuilder(bucket).keyPrefix(TENANT_PREFIX).build();
             S3BlobStore whole = S3.storeBuilder(bucket).build()) {
            prefixed.put("p/a", BlobContent.of(new byte[] {1}));
            whole.put("p/b", BlobContent.of(new byte[] {2}));

            assertThat(prefixed.list("").toList()).extracting(BlobInfo::name).containsExactly("p/a");
            assertThat(whole.list("").toList()).extracting(BlobInfo::name)
                    .containsExactly("p/b", TENANT_PREFIX + "p/a");
            assertThat(whole.read(TENANT_PREFIX + "p/a", 0, 1)).containsExactly(1);
            assertThat(prefixed.describe()).contains(bucket).contains(TENANT_PREFIX);
        }
    }

    @Test
    void describeNeverShowsCredentials() {
        assertThat(store.describe()).contains(S3.endpoint().toString())
                .doesNotContain(S3ServerFixture.SECRET_KEY).doesNotContain(S3ServerFixture.ACCESS_KEY);
    }

    @Test
    void missingBucketIsAnErrorNotAMissingBlob() throws IOException {
        try (S3BlobStore nowhere = S3.storeBuilder("coffer-no-such-bucket").maxAttempts(1).build()) {
            assertThatThrownBy(() -> nowhere.get("p/x", 0, -1)).isInstanceOf(IOException.class)
                    .isNotInstanceOf(BlobNotFoundException.class);
            assertThatThrownBy(() -> nowhere.list("").toList()).isInstanceOf(IOException.class);
        }
    }

    @Test
    void createBucketIfMissingIsIdempotent() throws IOException {
        String bucket = S3.createBucket();
        try (S3BlobStore again = S3.storeBuilder(bucket).build()) {
            again.createBucketIfMissing();
            again.put("p/x", BlobContent.of(new byte[] {1}));
            again.createBucketIfMissing();

            assertThat(again.head("p/x")).isPresent();
        }
    }
}
