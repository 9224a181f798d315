package io.coffer.keyserver.oprf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Reads the shared published test vectors in place: from the directory named by the system property
 * {@code coffer.vectors}, else the first {@code shared/vectors} found walking up from the module directory.
 */
final class TestVectors {
    private TestVectors() {}

    static Path directory() {
        String configured = System.getProperty("coffer.vectors");
        if (configured != null) {
            return Paths.get(configured);
        }
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve("shared").resolve("vectors");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("shared/vectors not found above " + Paths.get("").toAbsolutePath());
    }

    static JsonNode load(String name) {
        try {
            return new ObjectMapper().readTree(directory().resolve(name).toFile());
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
