package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.CountingMetadataStore;
import java.lang.reflect.Method;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A request reads the bucket's record at most once (none while the engine's cached record is fresh), and a GET the
 * object's record once, whatever it checks; and how many metadata calls a small PUT and GET make (issue 23).
 */
class MetadataReadsPerRequestTest {
    private static final String FRESH_OR_ONE = "bucket reads: none while the cached record is fresh, else one each";
    /** Longer than the engine's bucket cache keeps an entry (BucketCache.FRESHNESS, 200 ms). */
    private static final long PAST_FRESHNESS_MS = 300;
    static CountingMetadataStore meta;

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension.withEngine(dir -> {
        meta = new CountingMetadataStore(JdbcMetadataStore.sqlite(dir.resolve("coffer.db")));
        return Coffer.builder().directory(dir).metadataStore(meta.store()).build();
    });

    static String etag;

    @BeforeAll
    static void object() {
        S3Client s3 = gateway.client();
        s3.createBucket(b -> b.bucket("reads"));
        etag = s3.putObject(r -> r.bucket("reads").key("k"), RequestBody.fromString("0123456789")).eTag();
    }

    @BeforeEach
    void reset() {
        meta.reset();
    }

    @Test
    void aPutReadsItsBucketOnce() {
        gateway.client().putObject(r -> r.bucket("reads").key("put"), RequestBody.fromString("x"));
        assertThat(meta.calls("bucket")).as(FRESH_OR_ONE).isBetween(0, 1);
    }

    @Test
    void aDeleteReadsItsBucketOnce() {
        gateway.client().deleteObject(r -> r.bucket("reads").key("gone"));
        assertThat(meta.calls("bucket")).as(FRESH_OR_ONE).isBetween(0, 1);
    }

    @Test
    void aMultiObjectDeleteReadsItsBucketOnce() {
        gateway.client().deleteObjects(r -> r.bucket("reads").delete(d -> d.objects(
                o -> o.key("gone1"), o -> o.key("gone2"), o -> o.key("gone3"))));
        assertThat(meta.calls("bucket")).as(FRESH_OR_ONE).isBetween(0, 1);
    }

    @Test
    void aCopyReadsItsDestinationBucketOnce() {
        gateway.client().copyObject(r -> r.sourceBucket("reads").sourceKey("k")
                .destinationBucket("reads").destinationKey("copy"));
        // one read for the destination's access check, one for the source's: none again in the engine
        assertThat(meta.calls("bucket")).as(FRESH_OR_ONE).isBetween(0, 2);
    }

    @Test
    void aCreateMultipartUploadReadsItsBucketOnce() {
        gateway.client().createMultipartUpload(r -> r.bucket("reads").key("mpu"));
        assertThat(meta.calls("bucket")).as(FRESH_OR_ONE).isBetween(0, 1);
    }

    @Test
    void anUploadPartReadsItsBucketOnce() {
        String upload = upload("part");
        gateway.client().uploadPart(r -> r.bucket("reads").key("part").uploadId(upload).partNumber(1),
                RequestBody.fromString("x"));
        assertThat(meta.calls("bucket")).as(FRESH_OR_ONE).isBetween(0, 1);
    }

    @Test
    void anUploadPartCopyReadsItsDestinationBucketOnce() {
        String upload = upload("partcopy");
        gateway.client().uploadPartCopy(r -> r.sourceBucket("reads").sourceKey("k").destinationBucket("reads")
                .destinationKey("partcopy").uploadId(upload).partNumber(1));
        assertThat(meta.calls("bucket")).as(FRESH_OR_ONE).isBetween(0, 2);
        meta.reset();
        gateway.client().uploadPartCopy(r -> r.sourceBucket("reads").sourceKey("k").destinationBucket("reads")
                .destinationKey("partcopy").uploadId(upload).partNumber(2).copySourceRange("bytes=2-4"));
        assertThat(meta.calls("bucket")).as(FRESH_OR_ONE).isBetween(0, 2);
    }

    @Test
    void aListPartsReadsItsBucketOnce() {
        String upload = upload("list");
        gateway.client().listParts(r -> r.bucket("reads").key("list").uploadId(upload));
        assertThat(meta.calls("bucket")).as(FRESH_OR_ONE).isBetween(0, 1);
    }

    @Test
    void anAbortReadsItsBucketOnce() {
        String upload = upload("abort");
        gateway.client().abortMultipartUpload(r -> r.bucket("reads").key("abort").uploadId(upload));
        assertThat(meta.calls("bucket")).as(FRESH_OR_ONE).isBetween(0, 1);
    }

    @Test
    void aListMultipartUploadsReadsItsBucketOnce() {
        gateway.client().listMultipartUploads(r -> r.bucket("reads"));
        assertThat(meta.calls("bucket")).as(FRESH_OR_ONE).isBetween(0, 1);
    }

    @Test
    void aCompleteReadsItsBucketOnce() {
        S3Client s3 = gateway.client();
        String upload = upload("complete");
        String part = s3.uploadPart(r -> r.bucket("reads").key("complete").uploadId(upload).partNumber(1),
                RequestBody.fromString("x")).eTag();
        meta.reset();
        s3.completeMultipartUpload(r -> r.bucket("reads").key("complete").uploadId(upload)
                .multipartUpload(m -> m.parts(p -> p.partNumber(1).eTag(part))));
        assertThat(meta.calls("bucket")).as(FRESH_OR_ONE).isBetween(0, 1);
    }

    @Test
    void aSmallPutMakesThreeMetadataCallsWithItsBucketNotCachedAndOneWithIt() throws Exception {
        S3Client s3 = gateway.client();
        byte[] body = new byte[4096];
        Thread.sleep(PAST_FRESHNESS_MS);
        meta.reset();
        s3.putObject(r -> r.bucket("reads").key("small-cold"), RequestBody.fromBytes(body));
        Map<String, Integer> cold = calls();
        meta.reset();
        s3.putObject(r -> r.bucket("reads").key("small-warm"), RequestBody.fromBytes(body));
        Map<String, Integer> warm = calls();
        System.out.printf("[metadata calls] 4 KiB PUT, bucket not cached: %s; right after another request: %s%n", cold,
                warm);
        // the access check's bucket row, the versioning document, the commit (a 4 KiB object is inline: no chunk
        // lookup); before the bucket cache every PUT made all three
        assertThat(cold).containsOnly(Map.entry("bucket", 1), Map.entry("bucketConfigs", 1),
                Map.entry("commitObject", 1));
        // the second PUT runs within the freshness of the first one's reads unless the machine stalls it
        assertThat(warm).containsEntry("commitObject", 1);
        assertThat(warm.getOrDefault("bucket", 0)).as(FRESH_OR_ONE).isBetween(0, 1);
        assertThat(warm.getOrDefault("bucketConfigs", 0)).as(FRESH_OR_ONE).isBetween(0, 1);
    }

    @Test
    void aSmallGetMakesThreeMetadataCallsWithItsBucketNotCachedAndOneWithIt() throws Exception {
        S3Client s3 = gateway.client();
        Thread.sleep(PAST_FRESHNESS_MS);
        meta.reset();
        s3.getObjectAsBytes(r -> r.bucket("reads").key("k"));
        Map<String, Integer> cold = calls();
        meta.reset();
        s3.getObjectAsBytes(r -> r.bucket("reads").key("k"));
        Map<String, Integer> warm = calls();
        System.out.printf("[metadata calls] small GET, bucket not cached: %s; right after another request: %s%n",
                cold, warm);
        // the bucket's documents tell whether it has Object Lock (the GET then answers its lock headers)
        assertThat(cold).containsOnly(Map.entry("bucket", 1), Map.entry("bucketConfigs", 1), Map.entry("object", 1));
        assertThat(warm).containsEntry("object", 1);
        assertThat(warm.getOrDefault("bucketConfigs", 0)).as(FRESH_OR_ONE).isBetween(0, 1);
        assertThat(warm.getOrDefault("bucket", 0)).as(FRESH_OR_ONE).isBetween(0, 1);
    }

    @Test
    void aVersionedOrTaggedSmallPutMakesTheMetadataCallsOfAPlainOne() {
        S3Client s3 = gateway.client();
        s3.createBucket(b -> b.bucket("reads-versioned"));
        s3.putBucketVersioning(r -> r.bucket("reads-versioned").versioningConfiguration(v -> v.status("Enabled")));
        byte[] body = new byte[4096];
        s3.putObject(r -> r.bucket("reads-versioned").key("v"), RequestBody.fromBytes(body));
        s3.putObject(r -> r.bucket("reads").key("p"), RequestBody.fromBytes(body));
        // each measured PUT overwrites a key and comes right after a request to its bucket, so both run with the
        // bucket cached (unless the machine stalls one past the cache's freshness: then the bucket reads may be 1)
        s3.putObject(r -> r.bucket("reads").key("p"), RequestBody.fromBytes(body));
        meta.reset();
        s3.putObject(r -> r.bucket("reads").key("p"), RequestBody.fromBytes(body));
        Map<String, Integer> plain = calls();
        s3.putObject(r -> r.bucket("reads").key("p"), RequestBody.fromBytes(body));
        meta.reset();
        s3.putObject(r -> r.bucket("reads").key("p").tagging("project=coffer&tier=hot"), RequestBody.fromBytes(body));
        Map<String, Integer> tagged = calls();
        s3.putObject(r -> r.bucket("reads-versioned").key("v"), RequestBody.fromBytes(body));
        meta.reset();
        s3.putObject(r -> r.bucket("reads-versioned").key("v"), RequestBody.fromBytes(body));
        Map<String, Integer> versioned = calls();
        System.out.printf("[metadata calls] 4 KiB overwrite, bucket cached: plain %s; tagged %s; versioned %s%n",
                plain, tagged, versioned);
        // tags travel in the sealed manifest and the commit's row; a new version is made inside the same commit
        // (the previous current version moves to object_versions in its transaction): no extra call for either
        for (Map<String, Integer> calls : List.of(plain, tagged, versioned)) {
            assertThat(calls).containsEntry("commitObject", 1);
            assertThat(calls.keySet()).isSubsetOf("commitObject", "bucket", "bucketConfigs");
            assertThat(calls.getOrDefault("bucket", 0)).as(FRESH_OR_ONE).isBetween(0, 1);
            assertThat(calls.getOrDefault("bucketConfigs", 0)).as(FRESH_OR_ONE).isBetween(0, 1);
        }
    }

    /** Every metadata method called since the last reset, with its count. */
    private static Map<String, Integer> calls() {
        Map<String, Integer> out = new TreeMap<>();
        for (Method m : MetadataStore.class.getMethods()) {
            if (meta.calls(m.getName()) > 0) {
                out.put(m.getName(), meta.calls(m.getName()));
            }
        }
        return out;
    }

    /** Starts an upload, then forgets the reads that took. */
    private static String upload(String key) {
        String id = gateway.client().createMultipartUpload(r -> r.bucket("reads").key(key)).uploadId();
        meta.reset();
        return id;
    }

    @Test
    void aConditionalOrRangedGetReadsTheObjectOnce() {
        S3Client s3 = gateway.client();
        assertThat(s3.getObjectAsBytes(r -> r.bucket("reads").key("k").ifMatch(etag)).asUtf8String())
                .isEqualTo("0123456789");
        assertThat(meta.calls("object")).isEqualTo(1);
        meta.reset();
        assertThat(s3.getObjectAsBytes(r -> r.bucket("reads").key("k").range("bytes=2-4")).asUtf8String())
                .isEqualTo("234");
        assertThat(meta.calls("object")).isEqualTo(1);
        meta.reset();
        assertError(() -> s3.getObject(r -> r.bucket("reads").key("k").ifMatch("\"other\"")), 412,
                "PreconditionFailed");
        assertThat(meta.calls("object")).isEqualTo(1);
        meta.reset();
        assertError(() -> s3.getObject(r -> r.bucket("reads").key("k").range("bytes=20-30")), 416, "InvalidRange");
        assertThat(meta.calls("object")).isEqualTo(1);
        meta.reset();
        Instant later = Instant.now().plusSeconds(60);
        assertError(() -> s3.getObject(r -> r.bucket("reads").key("k").ifModifiedSince(later)), 304, null);
        assertThat(meta.calls("object")).isEqualTo(1);
    }
}
