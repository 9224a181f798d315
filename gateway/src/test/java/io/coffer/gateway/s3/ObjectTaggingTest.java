package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.auth.Credential;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.Tag;
import software.amazon.awssdk.services.s3.model.TaggingDirective;

/**
 * Object tagging as S3 defines it, through the AWS SDK v2 on the real engine: x-amz-tagging on PutObject,
 * CreateMultipartUpload and CopyObject (tagging directive COPY/REPLACE), Put/Get/DeleteObjectTagging, S3's limits
 * (InvalidTag), x-amz-tagging-count on GET and HEAD.
 */
class ObjectTaggingTest {
    static final Credential OTHER = new Credential("TAGSOTHERKEY", "tags-other-secret", "tenant-b");

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withCredential(OTHER);

    static final String BUCKET = "tagging";

    @BeforeAll
    static void bucket() {
        gateway.client().createBucket(b -> b.bucket(BUCKET));
    }

    @Test
    void tagsPutWithTheObjectAreReadBackAndCountedOnGetAndHead(S3Client s3) {
        s3.putObject(r -> r.bucket(BUCKET).key("put").tagging("project=coffer&note=a%20b%2Bc%2F%40&empty="),
                RequestBody.fromString("tagged"));
        assertThat(tags(s3, "put")).containsExactlyInAnyOrderEntriesOf(
                Map.of("project", "coffer", "note", "a b+c/@", "empty", ""));
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("put")).response().tagCount()).isEqualTo(3);
        HeadObjectResponse head = s3.headObject(r -> r.bucket(BUCKET).key("put"));
        assertThat(head.sdkHttpResponse().firstMatchingHeader("x-amz-tagging-count")).contains("3");

        s3.putObject(r -> r.bucket(BUCKET).key("plain"), RequestBody.fromString("plain"));
        assertThat(tags(s3, "plain")).isEmpty();
        assertThat(s3.headObject(r -> r.bucket(BUCKET).key("plain")).sdkHttpResponse()
                .firstMatchingHeader("x-amz-tagging-count")).isEmpty();
    }

    @Test
    void putObjectTaggingReplacesTheSetAndKeepsBytesEtagAndTime(S3Client s3) {
        s3.putObject(r -> r.bucket(BUCKET).key("retag").tagging("a=1"), RequestBody.fromString("bytes"));
        HeadObjectResponse before = s3.headObject(r -> r.bucket(BUCKET).key("retag"));
        s3.putObjectTagging(r -> r.bucket(BUCKET).key("retag").tagging(t -> t.tagSet(
                Tag.builder().key("b").value("2").build(), Tag.builder().key("c").value("3").build())));
        assertThat(tags(s3, "retag")).containsExactlyInAnyOrderEntriesOf(Map.of("b", "2", "c", "3"));
        HeadObjectResponse after = s3.headObject(r -> r.bucket(BUCKET).key("retag"));
        assertThat(after.eTag()).isEqualTo(before.eTag());
        assertThat(after.lastModified()).isEqualTo(before.lastModified());
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("retag")).asUtf8String()).isEqualTo("bytes");

        s3.deleteObjectTagging(r -> r.bucket(BUCKET).key("retag"));
        assertThat(tags(s3, "retag")).isEmpty();
        s3.putObjectTagging(r -> r.bucket(BUCKET).key("retag").tagging(t -> t.tagSet(
                Tag.builder().key("d").value("4").build())));
        s3.putObjectTagging(r -> r.bucket(BUCKET).key("retag").tagging(t -> t.tagSet(List.of())));
        assertThat(tags(s3, "retag")).isEmpty();
    }

    @Test
    void multipartUploadsAndCopiesCarryTagsByTheirDirective(S3Client s3) {
        String upload = s3.createMultipartUpload(r -> r.bucket(BUCKET).key("mpu").tagging("kind=multipart"))
                .uploadId();
        String e1 = s3.uploadPart(r -> r.bucket(BUCKET).key("mpu").uploadId(upload).partNumber(1),
                RequestBody.fromString("only part")).eTag();
        s3.completeMultipartUpload(r -> r.bucket(BUCKET).key("mpu").uploadId(upload)
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(e1).build())));
        assertThat(tags(s3, "mpu")).containsExactlyEntriesOf(Map.of("kind", "multipart"));

        s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("mpu").destinationBucket(BUCKET).destinationKey("c1"));
        assertThat(tags(s3, "c1")).containsExactlyEntriesOf(Map.of("kind", "multipart"));
        s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("mpu").destinationBucket(BUCKET).destinationKey("c2")
                .taggingDirective(TaggingDirective.REPLACE).tagging("kind=copy&extra=1"));
        assertThat(tags(s3, "c2")).containsExactlyInAnyOrderEntriesOf(Map.of("kind", "copy", "extra", "1"));
        s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("mpu").destinationBucket(BUCKET).destinationKey("c3")
                .taggingDirective(TaggingDirective.REPLACE));
        assertThat(tags(s3, "c3")).isEmpty();
        s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("mpu").destinationBucket(BUCKET).destinationKey("c4")
                .metadataDirective("REPLACE").contentType("text/plain"));
        assertThat(tags(s3, "c4")).containsExactlyEntriesOf(Map.of("kind", "multipart"));
        assertError(() -> s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("mpu").destinationBucket(BUCKET)
                .destinationKey("c5").taggingDirective("MERGE")), 400, "InvalidArgument");
    }

    @Test
    void tagSetsBreakingS3sLimitsAreInvalidTagAndStoreNothing(S3Client s3) {
        s3.putObject(r -> r.bucket(BUCKET).key("limits").tagging("keep=me"), RequestBody.fromString("x"));
        List<Tag> eleven = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            eleven.add(Tag.builder().key("k" + i).value("v").build());
        }
        List<List<Tag>> bad = List.of(eleven,
                List.of(Tag.builder().key("k".repeat(129)).value("v").build()),
                List.of(Tag.builder().key("k").value("v".repeat(257)).build()),
                List.of(Tag.builder().key("dup").value("1").build(), Tag.builder().key("dup").value("2").build()),
                List.of(Tag.builder().key("aws:reserved").value("v").build()),
                List.of(Tag.builder().key("semi;colon").value("v").build()));
        for (List<Tag> set : bad) {
            assertError(() -> s3.putObjectTagging(r -> r.bucket(BUCKET).key("limits").tagging(t -> t.tagSet(set))),
                    400, "InvalidTag");
        }
        assertThat(tags(s3, "limits")).containsExactlyEntriesOf(Map.of("keep", "me"));
        s3.putObjectTagging(r -> r.bucket(BUCKET).key("limits").tagging(t -> t.tagSet(eleven.subList(0, 10))));
        assertThat(tags(s3, "limits")).hasSize(10);

        String elevenHeader = eleven.stream().map(t -> t.key() + "=v").collect(Collectors.joining("&"));
        assertError(() -> s3.putObject(r -> r.bucket(BUCKET).key("refused").tagging(elevenHeader),
                RequestBody.fromString("x")), 400, "InvalidTag");
        assertError(() -> s3.putObject(r -> r.bucket(BUCKET).key("refused").tagging("a=1&a=2"),
                RequestBody.fromString("x")), 400, "InvalidTag");
        assertError(() -> s3.createMultipartUpload(r -> r.bucket(BUCKET).key("refused").tagging("a=%ZZ")),
                400, "InvalidTag");
        assertError(() -> s3.headObject(r -> r.bucket(BUCKET).key("refused")), 404, null);
    }

    @Test
    void taggingAMissingOrForeignObjectFails(S3Client s3) {
        s3.putObject(r -> r.bucket(BUCKET).key("mine"), RequestBody.fromString("x"));
        assertError(() -> s3.putObjectTagging(r -> r.bucket(BUCKET).key("missing")
                .tagging(t -> t.tagSet(List.of()))), 404, "NoSuchKey");
        assertError(() -> s3.getObjectTagging(r -> r.bucket(BUCKET).key("missing")), 404, "NoSuchKey");
        assertError(() -> s3.deleteObjectTagging(r -> r.bucket(BUCKET).key("missing")), 404, "NoSuchKey");
        try (S3Client other = gateway.newClient(OTHER.accessKeyId(), OTHER.secretKey())) {
            assertError(() -> other.putObjectTagging(r -> r.bucket(BUCKET).key("mine")
                    .tagging(t -> t.tagSet(Tag.builder().key("a").value("b").build()))), 403, "AccessDenied");
            assertError(() -> other.deleteObjectTagging(r -> r.bucket(BUCKET).key("mine")), 403, "AccessDenied");
        }
        assertThat(tags(s3, "mine")).isEmpty();
    }

    private static Map<String, String> tags(S3Client s3, String key) {
        Map<String, String> out = new TreeMap<>();
        s3.getObjectTagging(r -> r.bucket(BUCKET).key(key)).tagSet().forEach(t -> out.put(t.key(), t.value()));
        return out;
    }
}
