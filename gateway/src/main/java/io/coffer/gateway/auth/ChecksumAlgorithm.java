package io.coffer.gateway.auth;

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
