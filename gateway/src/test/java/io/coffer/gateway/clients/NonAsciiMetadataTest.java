package io.coffer.gateway.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Non-ASCII user metadata as S3 keeps it, seen by stock clients: RFC 2047 encoded-words are decoded before storing,
 * a raw non-ASCII byte counts as its ISO-8859-1 character, and a value that is not printable US-ASCII comes back as
 * one {@code =?UTF-8?B?...?=} encoded-word, which neither boto3 nor the AWS SDK for Java v2 decodes. boto3's part
 * runs in the test resource clients/python/boto3_unicode_metadata.py.
 */
class NonAsciiMetadataTest {
    private static final String E_ACUTE = "Hello World\u00e9";
    private static final String CJK = "\u4e2d\u6587";

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    @TempDir
    Path work;

    /** What S3 returns for a value: one UTF-8 B encoded-word. */
    private static String encodedWord(String stored) {
        return "=?UTF-8?B?" + Base64.getEncoder().encodeToString(stored.getBytes(StandardCharsets.UTF_8)) + "?=";
    }

    /** The characters a value sent as UTF-8 bytes arrives as: one ISO-8859-1 character per byte. */
    private static String utf8BytesAsLatin1(String sent) {
        return new String(sent.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    @Test
    void awsSdkV2GetsLatin1ValuesBackAsEncodedWordsItDoesNotDecode(S3Client s3) {
        s3.createBucket(b -> b.bucket("sdk-latin1"));
        // Apache HttpClient sends one ISO-8859-1 byte per character
        s3.putObject(r -> r.bucket("sdk-latin1").key("k").metadata(Map.of("meta1", E_ACUTE)),
                RequestBody.fromString("bar"));
        assertThat(s3.headObject(r -> r.bucket("sdk-latin1").key("k")).metadata())
                .containsExactly(Map.entry("meta1", encodedWord(E_ACUTE)));
        assertThat(s3.getObjectAsBytes(r -> r.bucket("sdk-latin1").key("k")).response().metadata())
                .containsExactly(Map.entry("meta1", "=?UTF-8?B?SGVsbG8gV29ybGTDqQ==?="));

        // a character beyond ISO-8859-1 goes out as '?' while the SDK signs the character: refused, as on S3
        assertThatThrownBy(() -> s3.putObject(r -> r.bucket("sdk-latin1").key("cjk").metadata(Map.of("cjk", CJK)),
                RequestBody.fromString("bar"))).isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("SignatureDoesNotMatch"));
    }

    @Test
    void encodedWordsAreStoredDecodedOnPutCopyAndMultipart(S3Client s3) {
        String b = "sdk-encoded";
        s3.createBucket(r -> r.bucket(b));
        Map<String, String> sent = Map.of("meta1", "=?UTF-8?Q?Hello_World=C3=A9?=", "cjk", "=?utf-8?b?5Lit5paH?=",
                "latin", "=?ISO-8859-1?Q?caf=E9?=", "plain", "=?not-a-charset?Q?x?=");
        Map<String, String> returned = Map.of("meta1", encodedWord(E_ACUTE), "cjk", encodedWord(CJK),
                "latin", encodedWord("caf\u00e9"), "plain", "=?not-a-charset?Q?x?=");
        s3.putObject(r -> r.bucket(b).key("put").metadata(sent), RequestBody.fromString("bar"));
        assertThat(s3.headObject(r -> r.bucket(b).key("put")).metadata()).isEqualTo(returned);

        s3.copyObject(r -> r.sourceBucket(b).sourceKey("put").destinationBucket(b).destinationKey("copy")
                .metadataDirective(MetadataDirective.REPLACE)
                .metadata(Map.of("cjk", "=?UTF-8?Q?=E4=B8=AD=E6=96=87?=")));
        assertThat(s3.headObject(r -> r.bucket(b).key("copy")).metadata()).containsExactly(
                Map.entry("cjk", encodedWord(CJK)));

        String upload = s3.createMultipartUpload(r -> r.bucket(b).key("mpu").metadata(Map.of("cjk", sent.get("cjk"))))
                .uploadId();
        String etag = s3.uploadPart(r -> r.bucket(b).key("mpu").uploadId(upload).partNumber(1),
                RequestBody.fromString("part")).eTag();
        s3.completeMultipartUpload(r -> r.bucket(b).key("mpu").uploadId(upload)
                .multipartUpload(m -> m.parts(p -> p.partNumber(1).eTag(etag))));
        assertThat(s3.headObject(r -> r.bucket(b).key("mpu")).metadata()).containsExactly(
                Map.entry("cjk", encodedWord(CJK)));
    }

    @Test
    void theTwoKibLimitCountsDecodedUtf8(S3Client s3) {
        s3.createBucket(r -> r.bucket("sdk-limit"));
        // 700 x U+00E9: 4,200 characters as Q-encoded words, 1,400 bytes of UTF-8 once decoded
        String fits = "=?UTF-8?Q?" + "=C3=A9".repeat(700) + "?=";
        s3.putObject(r -> r.bucket("sdk-limit").key("fits").metadata(Map.of("m", fits)), RequestBody.fromString("x"));
        assertThat(s3.headObject(r -> r.bucket("sdk-limit").key("fits")).metadata().get("m"))
                .isEqualTo(encodedWord("\u00e9".repeat(700)));

        // 1,100 x U+00E9 in B: under 2 KiB of base64 text would not matter, 2,200 bytes decoded do
        String tooLarge = encodedWord("\u00e9".repeat(1100));
        assertThatThrownBy(() -> s3.putObject(r -> r.bucket("sdk-limit").key("large").metadata(Map.of("m", tooLarge)),
                RequestBody.fromString("x"))).isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("MetadataTooLarge"));
    }

    @Test
    void boto3ReadsBackTheEncodedWordsS3Returns() throws Exception {
        String args = "{\"endpoint\": \"" + gateway.endpoint() + "\", \"bucket\": \"boto3-unicode\"}";
        JsonNode r = ExternalClients.boto3Script(gateway, work, "boto3_unicode_metadata.py", args,
                Duration.ofMinutes(2));

        assertThat(r.field("metadata_param").orElseThrow().asString()).isEqualTo("ParamValidationError");
        // botocore sends the UTF-8 bytes, S3 reads each as an ISO-8859-1 character (as ceph/s3-tests sees on AWS)
        Map<String, String> raw = Map.of("meta1", encodedWord(utf8BytesAsLatin1(E_ACUTE)),
                "cjk", encodedWord(utf8BytesAsLatin1(CJK)));
        assertThat(raw.get("meta1")).isEqualTo("=?UTF-8?B?SGVsbG8gV29ybGTDg8Kp?=");
        assertThat(strings(r, "raw_get")).isEqualTo(raw);
        assertThat(strings(r, "raw_head")).isEqualTo(raw);
        assertThat(strings(r, "encoded_get")).isEqualTo(Map.of("meta1", encodedWord(E_ACUTE), "cjk", encodedWord(CJK)));
    }

    private static Map<String, String> strings(JsonNode result, String field) {
        Map<String, String> out = new TreeMap<>();
        result.field(field).orElseThrow(() -> new AssertionError("no " + field + " in " + result)).asObject()
                .forEach((k, v) -> out.put(k, v.asString()));
        return out;
    }
}
