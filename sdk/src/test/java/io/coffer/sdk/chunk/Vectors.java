package io.coffer.sdk.chunk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Test access to the external FastCDC vectors in {@code shared/vectors/fastcdc}, found by walking up from the working
 * directory to the first folder that contains {@code shared/vectors}.
 */
final class Vectors {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Vectors() {
    }

    /** The {@code shared/vectors/fastcdc} folder; fails loudly when it cannot be found. */
    static Path fastCdcDir() {
        Path start = Paths.get("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared").resolve("vectors");
            if (Files.isDirectory(candidate)) {
                return candidate.resolve("fastcdc");
            }
        }
        throw new IllegalStateException("no folder containing shared/vectors above " + start);
    }

    static JsonNode json(String name) {
        try {
            return MAPPER.readTree(fastCdcDir().resolve(name).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] bytes(String name) {
        try {
            return Files.readAllBytes(fastCdcDir().resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An unsigned 64-bit JSON number (or {@code 0x} hex string) as a Java long (two's complement). */
    static long u64(JsonNode node) {
        String text = node.asText();
        if (text.startsWith("0x")) {
            return Long.parseUnsignedLong(text.substring(2), 16);
        }
        return Long.parseUnsignedLong(text);
    }

    static String sha256(byte[] data, int offset, int length) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(data, offset, length);
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
