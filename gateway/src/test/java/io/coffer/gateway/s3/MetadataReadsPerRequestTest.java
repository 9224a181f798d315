package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.CountingMetadataStore;
import java.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** A request reads the bucket's record once, and a GET the object's record once, whatever it checks. */
class MetadataReadsPerRequestTest {
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
        assertThat(meta.calls("bucket")).isEqualTo(1);
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
