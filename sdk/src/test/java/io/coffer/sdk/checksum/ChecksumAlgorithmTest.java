package io.coffer.sdk.checksum;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ChecksumAlgorithmTest {
    @Test
    void crc64NvmeMatchesCatalogueCheckValue() {
        Crc64Nvme crc = new Crc64Nvme();
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        crc.update(check, 0, check.length);
        assertThat(crc.getValue()).isEqualTo(0xAE8B14860A799888L);
    }

    @Test
    void crc64NvmeOfEmptyBodyIsS3sDocumentedValue() {
        assertThat(ChecksumAlgorithm.CRC64NVME.of(new byte[0])).isEqualTo("AAAAAAAAAAA=");
    }

    @Test
    void crc64NvmeSliceBy8AgreesWithBytewise() {
        byte[] data = new byte[1000];
        new Random(3).nextBytes(data);
        Crc64Nvme fast = new Crc64Nvme();
        fast.update(data, 0, data.length);
        Crc64Nvme slow = new Crc64Nvme();
        for (byte b : data) {
            slow.update(b);
        }
        assertThat(fast.getValue()).isEqualTo(slow.getValue());
    }

    @Test
    void crc32IsBase64OfBigEndianValue() {
        // CRC-32 of "123456789" is 0xCBF43926
        assertThat(ChecksumAlgorithm.CRC32.of("123456789".getBytes(StandardCharsets.US_ASCII))).isEqualTo("y/Q5Jg==");
    }
}
