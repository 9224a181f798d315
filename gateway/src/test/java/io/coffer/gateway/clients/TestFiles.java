package io.coffer.gateway.clients;

import io.coffer.sdk.testing.TestData;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Generated files on disk and the ETags S3 gives them. */
final class TestFiles {
    private TestFiles() {
    }

    /** Writes {@code size} pseudo-random bytes from {@code seed} (the same seed, the same bytes) to {@code file}. */
    static Path write(Path file, long seed, long size) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (InputStream in = TestData.stream(seed, size); OutputStream out = Files.newOutputStream(file)) {
            in.transferTo(out);
        }
        return file;
    }

    static String md5Hex(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return TestData.md5Hex(in);
        }
    }

    /** The ETag (without quotes) of a single-part upload: the MD5 of the content. */
    static String singlePartEtag(Path file) throws IOException {
        return md5Hex(file);
    }

    /** The ETag (without quotes) of a multipart upload in {@code partSize} parts: MD5 of the part MD5s, "-", count. */
    static String multipartEtag(Path file, long partSize) throws IOException {
        MessageDigest ofParts = md5();
        long size = Files.size(file);
        int parts = 0;
        byte[] buf = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(file)) {
            for (long offset = 0; offset < size; offset += partSize) {
                MessageDigest part = md5();
                long left = Math.min(partSize, size - offset);
                while (left > 0) {
                    int n = in.read(buf, 0, (int) Math.min(buf.length, left));
                    if (n < 0) {
                        throw new IOException(file + " shrank while reading");
                    }
                    part.update(buf, 0, n);
                    left -= n;
                }
                ofParts.update(part.digest());
                parts++;
            }
        }
        return HexFormat.of().formatHex(ofParts.digest()) + "-" + parts;
    }

    static String unquote(String etag) {
        return etag.startsWith("\"") && etag.endsWith("\"") ? etag.substring(1, etag.length() - 1) : etag;
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
