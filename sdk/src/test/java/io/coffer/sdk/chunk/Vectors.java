package io.coffer.sdk.chunk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Test access to the FastCDC vectors: test resources under {@code vectors/fastcdc} (README.md there names the
 * source), so the tests read nothing outside the checkout.
 */
final class Vectors {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Vectors() {
    }

    static JsonNode json(String name) {
        try {
            return MAPPER.readTree(bytes(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] bytes(String name) {
        try (InputStream in = Vectors.class.getResourceAsStream("/vectors/fastcdc/" + name)) {
            if (in == null) {
                throw new IllegalStateException("test resource vectors/fastcdc/" + name + " is missing");
            }
            return in.readAllBytes();
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
