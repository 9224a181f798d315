package io.coffer.sdk.checksum;

/**
 * How a multipart object's checksum covers it (S3's {@code x-amz-checksum-type}): COMPOSITE is the checksum of the
 * parts' checksums followed by {@code -N}; FULL_OBJECT is the checksum of all its bytes, which only a CRC can be
 * combined into from its parts'. A single PUT's checksum is always FULL_OBJECT.
 */
public enum ChecksumType {
    COMPOSITE, FULL_OBJECT;

    /** S3's default when CreateMultipartUpload names no type: FULL_OBJECT for CRC64NVME, COMPOSITE for the others. */
    public static ChecksumType defaultFor(ChecksumAlgorithm algorithm) {
        return algorithm == ChecksumAlgorithm.CRC64NVME ? FULL_OBJECT : COMPOSITE;
    }

    /** Whether S3 offers this type with the algorithm: SHA-1 and SHA-256 only COMPOSITE, CRC64NVME only FULL_OBJECT. */
    public boolean allows(ChecksumAlgorithm algorithm) {
        return this == COMPOSITE ? algorithm != ChecksumAlgorithm.CRC64NVME : algorithm.isCrc();
    }

    /** The type of a stored checksum value: composite values end in {@code -N} (base64 has no '-'). */
    public static ChecksumType ofValue(String value) {
        return value.indexOf('-') >= 0 ? COMPOSITE : FULL_OBJECT;
    }
}
