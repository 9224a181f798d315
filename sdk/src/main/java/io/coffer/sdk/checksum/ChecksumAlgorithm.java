package io.coffer.sdk.checksum;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;

/**
 * The additional checksums S3 accepts ({@code x-amz-checksum-*}): values are base64 of the big-endian checksum bytes.
 * CRC32 and CRC32C come from {@code java.util.zip}, SHA-1 and SHA-256 from the JCE, CRC64NVME from {@link Crc64Nvme}.
 */
public enum ChecksumAlgorithm {
    CRC32, CRC32C, CRC64NVME, SHA1, SHA256;

    /** The header (or trailer) that carries this checksum, for example {@code x-amz-checksum-crc32}. */
    public String headerName() {
        return "x-amz-checksum-" + name().toLowerCase(Locale.ROOT);
    }

    public static Optional<ChecksumAlgorithm> fromHeaderName(String header) {
        String h = header.toLowerCase(Locale.ROOT);
        for (ChecksumAlgorithm a : values()) {
            if (a.headerName().equals(h)) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    public static Optional<ChecksumAlgorithm> fromName(String name) {
        for (ChecksumAlgorithm a : values()) {
            if (a.name().equalsIgnoreCase(name)) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    /** True for the CRCs, whose checksums of two byte runs combine into that of both (FULL_OBJECT multipart). */
    public boolean isCrc() {
        return this == CRC32 || this == CRC32C || this == CRC64NVME;
    }

    /** A CRC checksum's value from its base64 (big-endian bytes). */
    long crcValue(String base64) {
        byte[] b = Base64.getDecoder().decode(base64);
        if (b.length != crcWidth() / 8) {
            throw new IllegalArgumentException("not a " + name() + " value");
        }
        long v = 0;
        for (byte x : b) {
            v = (v << 8) | (x & 0xff);
        }
        return v;
    }

    String crcBase64(long crc) {
        int bytes = crcWidth() / 8;
        byte[] out = new byte[bytes];
        for (int i = bytes - 1; i >= 0; i--) {
            out[i] = (byte) crc;
            crc >>>= 8;
        }
        return Base64.getEncoder().encodeToString(out);
    }

    /** The CRC of A followed by B from crc(A), crc(B) and B's length (zlib's crc32_combine, for any reflected CRC). */
    long crcCombine(long crcA, long crcB, long lengthB) {
        return CrcCombine.combine(crcA, crcB, lengthB, crcPolynomial(), crcWidth());
    }

    private int crcWidth() {
        return switch (this) {
            case CRC32, CRC32C -> 32;
            case CRC64NVME -> 64;
            default -> throw new IllegalStateException(name() + " is no CRC");
        };
    }

    /** The reflected polynomial. */
    private long crcPolynomial() {
        return switch (this) {
            case CRC32 -> 0xEDB88320L;
            case CRC32C -> 0x82F63B78L;
            case CRC64NVME -> Crc64Nvme.POLY;
            default -> throw new IllegalStateException(name() + " is no CRC");
        };
    }

    /** A fresh running computation. */
    public Running start() {
        return switch (this) {
            case CRC32 -> new Crc(new CRC32(), 4);
            case CRC32C -> new Crc(new CRC32C(), 4);
            case CRC64NVME -> new Crc(new Crc64Nvme(), 8);
            case SHA1 -> new Digest(digest("SHA-1"));
            case SHA256 -> new Digest(digest("SHA-256"));
        };
    }

    /** The base64 checksum of a byte array. */
    public String of(byte[] data) {
        Running r = start();
        r.update(data, 0, data.length);
        return r.base64();
    }

    private static MessageDigest digest(String name) {
        try {
            return MessageDigest.getInstance(name);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(name + " unavailable", e);
        }
    }

    /** A checksum being computed over a stream. */
    public interface Running {
        void update(byte[] b, int off, int len);

        /** The final value, base64 of the big-endian bytes. */
        String base64();
    }

    private static final class Crc implements Running {
        private final Checksum crc;
        private final int width;

        Crc(Checksum crc, int width) {
            this.crc = crc;
            this.width = width;
        }

        @Override
        public void update(byte[] b, int off, int len) {
            crc.update(b, off, len);
        }

        @Override
        public String base64() {
            ByteBuffer bb = ByteBuffer.allocate(8).putLong(crc.getValue());
            byte[] out = new byte[width];
            System.arraycopy(bb.array(), 8 - width, out, 0, width);
            return Base64.getEncoder().encodeToString(out);
        }
    }

    private static final class Digest implements Running {
        private final MessageDigest md;

        Digest(MessageDigest md) {
            this.md = md;
        }

        @Override
        public void update(byte[] b, int off, int len) {
            md.update(b, off, len);
        }

        @Override
        public String base64() {
            return Base64.getEncoder().encodeToString(md.digest());
        }
    }
}
