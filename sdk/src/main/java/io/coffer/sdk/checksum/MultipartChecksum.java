package io.coffer.sdk.checksum;

import java.io.ByteArrayOutputStream;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * The checksum a multipart upload was created with (CreateMultipartUpload's algorithm and type), and how its object's
 * checksum is made from its parts' (S3 User Guide, "Checking object integrity").
 */
public record MultipartChecksum(ChecksumAlgorithm algorithm, ChecksumType type) {
    public MultipartChecksum {
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(type, "type");
        if (!type.allows(algorithm)) {
            throw new IllegalArgumentException(type + " is not offered with " + algorithm);
        }
    }

    /**
     * The object's checksum from its parts' checksums (base64) and sizes, in order. COMPOSITE: the algorithm over the
     * concatenated binary part checksums, then {@code -N}; FULL_OBJECT: the parts' CRCs combined into the CRC of the
     * whole object.
     */
    public String combine(List<String> partChecksums, List<Long> partSizes) {
        if (partChecksums.isEmpty() || partChecksums.size() != partSizes.size()) {
            throw new IllegalArgumentException("one checksum per part");
        }
        if (type == ChecksumType.COMPOSITE) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (String c : partChecksums) {
                all.writeBytes(Base64.getDecoder().decode(c));
            }
            return algorithm.of(all.toByteArray()) + "-" + partChecksums.size();
        }
        long crc = algorithm.crcValue(partChecksums.get(0));
        for (int i = 1; i < partChecksums.size(); i++) {
            crc = algorithm.crcCombine(crc, algorithm.crcValue(partChecksums.get(i)), partSizes.get(i));
        }
        return algorithm.crcBase64(crc);
    }
}
