package io.coffer.sdk.checksum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A multipart object's checksum made from its parts' checksums, as S3 makes it. */
class MultipartChecksumTest {

    @Test
    void fullObjectCrcOfPartsEqualsTheCrcOfAllTheBytes() {
        Random random = new Random(7);
        for (ChecksumAlgorithm crc : List.of(ChecksumAlgorithm.CRC32, ChecksumAlgorithm.CRC32C,
                ChecksumAlgorithm.CRC64NVME)) {
            for (int round = 0; round < 20; round++) {
                ByteArrayOutputStream all = new ByteArrayOutputStream();
                List<String> sums = new ArrayList<>();
                List<Long> sizes = new ArrayList<>();
                int parts = 1 + random.nextInt(5);
                for (int p = 0; p < parts; p++) {
                    byte[] part = new byte[random.nextInt(3) == 0 ? random.nextInt(3) : random.nextInt(70_000)];
                    random.nextBytes(part);
                    all.writeBytes(part);
                    sums.add(crc.of(part));
                    sizes.add((long) part.length);
                }
                String combined = new MultipartChecksum(crc, ChecksumType.FULL_OBJECT).combine(sums, sizes);
                assertThat(combined).as("%s of %s", crc, sizes).isEqualTo(crc.of(all.toByteArray()));
            }
        }
    }

    /** The values ceph/s3-tests computed with RGW for three 5 MiB parts of 'A', 'B' and 'C'. */
    @Test
    void knownValuesOfThreeFiveMebibyteParts() {
        List<Long> sizes = List.of(5L << 20, 5L << 20, 5L << 20);
        List<String> parts = new ArrayList<>();
        for (char c : new char[] {'A', 'B', 'C'}) {
            byte[] b = new byte[5 << 20];
            Arrays.fill(b, (byte) c);
            parts.add(ChecksumAlgorithm.SHA256.of(b));
        }
        assertThat(new MultipartChecksum(ChecksumAlgorithm.SHA256, ChecksumType.COMPOSITE).combine(parts, sizes))
                .isEqualTo("uWBwpe1dxI4Vw8Gf0X9ynOdw/SS6VBzfWm9giiv1sf4=-3");
        assertThat(new MultipartChecksum(ChecksumAlgorithm.CRC32, ChecksumType.FULL_OBJECT)
                .combine(List.of("JRTCyQ==", "QoZTGg==", "YAgjqw=="), sizes)).isEqualTo("WgDhBQ==");
        assertThat(new MultipartChecksum(ChecksumAlgorithm.CRC64NVME, ChecksumType.FULL_OBJECT)
                .combine(List.of("L/E4WYn8v98=", "xW1l19VobYM=", "cK5MnNaWrW4="), sizes)).isEqualTo("i+6LR0y3eFo=");
    }

    @Test
    void compositeIsTheChecksumOfThePartChecksumsAndTheirCount() {
        String part = ChecksumAlgorithm.CRC32C.of(new byte[] {1, 2, 3});
        byte[] raw = Base64.getDecoder().decode(part);
        byte[] twice = new byte[raw.length * 2];
        System.arraycopy(raw, 0, twice, 0, raw.length);
        System.arraycopy(raw, 0, twice, raw.length, raw.length);
        assertThat(new MultipartChecksum(ChecksumAlgorithm.CRC32C, ChecksumType.COMPOSITE)
                .combine(List.of(part, part), List.of(3L, 3L))).isEqualTo(ChecksumAlgorithm.CRC32C.of(twice) + "-2");
        assertThat(ChecksumType.ofValue("abc=-2")).isEqualTo(ChecksumType.COMPOSITE);
        assertThat(ChecksumType.ofValue("abc=")).isEqualTo(ChecksumType.FULL_OBJECT);
    }

    @Test
    void typesS3DoesNotOfferAreRefused() {
        assertThatThrownBy(() -> new MultipartChecksum(ChecksumAlgorithm.SHA256, ChecksumType.FULL_OBJECT))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MultipartChecksum(ChecksumAlgorithm.CRC64NVME, ChecksumType.COMPOSITE))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
