package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.PartInfo;
import io.coffer.sdk.checksum.ChecksumAlgorithm;
import io.coffer.sdk.checksum.ChecksumType;
import io.coffer.sdk.checksum.MultipartChecksum;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upload created with a checksum algorithm: the engine computes each part's checksum as it stores it, makes the
 * object's (full-object or composite) on Complete, checks what the client claims, and keeps both in the manifest so a
 * rebuilt metadata store has them too.
 */
class MultipartChecksumsTest {
    private static final int PART = 1 << 20;
    @TempDir
    Path dir;

    @Test
    void partAndObjectChecksumsAreComputedCheckedAndSurviveReindex() throws Exception {
        byte[] one = TestData.bytes(1, PART);
        byte[] two = TestData.bytes(2, 1000);
        byte[] all = new byte[one.length + two.length];
        System.arraycopy(one, 0, all, 0, one.length);
        System.arraycopy(two, 0, all, one.length, two.length);
        ChecksumAlgorithm crc = ChecksumAlgorithm.CRC32C;
        try (TestEngine e = TestEngine.open(dir, b -> b.minPartSize(PART))) {
            Coffer c = e.coffer;
            c.createBucket("sums", "alice");
            String id = c.createMultipartUpload("sums", "k", null,
                    new MultipartChecksum(crc, ChecksumType.FULL_OBJECT));
            PartInfo p1 = c.uploadPart("sums", "k", id, 1, one.length, new ByteArrayInputStream(one));
            PartInfo p2 = c.uploadPart("sums", "k", id, 2, two.length, new ByteArrayInputStream(two));
            assertThat(p1.checksums()).containsExactly(Map.entry("CRC32C", crc.of(one)));
            assertThat(c.listParts("sums", "k", id, 0, 10).parts()).extracting(PartInfo::checksums)
                    .containsExactly(Map.of("CRC32C", crc.of(one)), Map.of("CRC32C", crc.of(two)));

            List<CompletedPart> wrongPart = List.of(new CompletedPart(1, p1.etag(), Map.of("CRC32C", crc.of(two))),
                    new CompletedPart(2, p2.etag()));
            assertThatThrownBy(() -> c.completeMultipartUpload("sums", "k", id, wrongPart, null, Map.of()))
                    .isInstanceOfSatisfying(CofferException.class,
                            x -> assertThat(x.code()).isEqualTo(ErrorCode.INVALID_PART));
            List<CompletedPart> parts = List.of(new CompletedPart(1, p1.etag(), Map.of("CRC32C", crc.of(one))),
                    new CompletedPart(2, p2.etag()));
            assertThatThrownBy(() -> c.completeMultipartUpload("sums", "k", id, parts, null,
                    Map.of("CRC32C", crc.of(one))))
                    .isInstanceOfSatisfying(CofferException.class,
                            x -> assertThat(x.code()).isEqualTo(ErrorCode.BAD_DIGEST));

            ObjectInfo done = c.completeMultipartUpload("sums", "k", id, parts, null, Map.of("CRC32C", crc.of(all)));
            assertThat(done.attributes().checksums()).containsExactly(Map.entry("CRC32C", crc.of(all)));
            assertThat(done.partChecksums()).containsExactly(crc.of(one), crc.of(two));
            assertThat(c.headObject("sums", "k").partChecksums()).containsExactly(crc.of(one), crc.of(two));
        }
        try (Coffer rebuilt = Coffer.builder().directory(dir).metadataStore(JdbcMetadataStore.sqlite(
                dir.resolve("rebuilt.db"))).build()) {
            rebuilt.reindex();
            ObjectInfo info = rebuilt.headObject("sums", "k");
            assertThat(info.attributes().checksums()).containsExactly(Map.entry("CRC32C", crc.of(all)));
            assertThat(info.partChecksums()).containsExactly(crc.of(one), crc.of(two));
        }
    }

    @Test
    void compositeChecksumNamesThePartCount() throws Exception {
        byte[] one = TestData.bytes(3, 5000);
        try (TestEngine e = TestEngine.open(dir, b -> b.minPartSize(PART))) {
            Coffer c = e.coffer;
            c.createBucket("sums", "alice");
            String id = c.createMultipartUpload("sums", "k", null,
                    new MultipartChecksum(ChecksumAlgorithm.SHA256, ChecksumType.COMPOSITE));
            PartInfo p1 = c.uploadPart("sums", "k", id, 1, one.length, new ByteArrayInputStream(one));
            ObjectInfo done = c.completeMultipartUpload("sums", "k", id, List.of(new CompletedPart(1, p1.etag())));
            String part = ChecksumAlgorithm.SHA256.of(one);
            assertThat(done.attributes().checksums()).containsExactly(Map.entry("SHA256",
                    ChecksumAlgorithm.SHA256.of(Base64.getDecoder().decode(part)) + "-1"));
            assertThat(done.partChecksums()).containsExactly(part);
        }
    }

    @Test
    void uploadWithoutAlgorithmKeepsNoChecksums() throws Exception {
        try (TestEngine e = TestEngine.open(dir, b -> b.minPartSize(PART))) {
            Coffer c = e.coffer;
            c.createBucket("sums", "alice");
            String id = c.createMultipartUpload("sums", "k");
            PartInfo p1 = c.uploadPart("sums", "k", id, 1, 10, TestData.stream(4, 10));
            assertThat(p1.checksums()).isEmpty();
            ObjectInfo done = c.completeMultipartUpload("sums", "k", id, List.of(new CompletedPart(1, p1.etag(),
                    Map.of("CRC32", "AAAAAA=="))), null, Map.of("CRC32", "AAAAAA=="));
            assertThat(done.attributes().checksums()).isEmpty();
            assertThat(done.partChecksums()).isEmpty();
        }
    }
}
