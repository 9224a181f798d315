package io.coffer.keyserver.oprf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The published test vectors the tests check against: test resources under {@code vectors/} (README.md there names
 * each source), so the tests read nothing outside the checkout.
 */
final class TestVectors {
    private TestVectors() {}

    static JsonNode load(String name) {
        try (InputStream in = TestVectors.class.getResourceAsStream("/vectors/" + name)) {
            if (in == null) {
                throw new IllegalStateException("test resource vectors/" + name + " is missing");
            }
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    static BigInteger integer(String s) {
        return new BigInteger(s.startsWith("0x") ? s.substring(2) : s, 16);
    }

    /** A string, or a list of strings (batched vectors), decoded from hex. */
    static List<byte[]> hexList(JsonNode node) {
        List<byte[]> out = new ArrayList<>();
        if (node.isArray()) {
            node.forEach(n -> out.add(hex(n.asText())));
        } else {
            out.add(hex(node.asText()));
        }
        return out;
    }
}
