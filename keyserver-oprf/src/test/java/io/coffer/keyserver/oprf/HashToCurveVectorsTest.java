package io.coffer.keyserver.oprf;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.bouncycastle.math.ec.ECPoint;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

class HashToCurveVectorsTest {
    private static final JsonNode ROOT = TestVectors.load("rfc9380-h2c-p256.json");

    @TestFactory
    Stream<DynamicTest> expandMessageXmdMatchesPublishedVectors() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String suite : List.of("expand_message_xmd_SHA256", "expand_message_xmd_SHA256_longDST")) {
            JsonNode s = ROOT.get(suite);
            byte[] dst = s.get("DST").asText().getBytes(StandardCharsets.US_ASCII);
            int i = 0;
            for (JsonNode t : s.get("tests")) {
                tests.add(DynamicTest.dynamicTest(suite + " #" + (i++), () -> {
                    byte[] msg = t.get("msg").asText().getBytes(StandardCharsets.US_ASCII);
                    byte[] out = HashToCurve.expandMessageXmd(msg, dst, t.get("len_in_bytes").asInt());
                    assertThat(out).isEqualTo(TestVectors.hex(t.get("uniform_bytes").asText()));
                }));
            }
        }
        assertThat(tests).hasSize(20);
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> hashToCurveAndEncodeToCurveMatchPublishedVectors() {
        HashToCurve h2c = HashToCurve.p256();
        List<DynamicTest> tests = new ArrayList<>();
        for (String suite : List.of("P256_XMD:SHA-256_SSWU_RO_", "P256_XMD:SHA-256_SSWU_NU_")) {
            JsonNode s = ROOT.get(suite);
            boolean ro = s.get("randomOracle").asBoolean();
            byte[] dst = s.get("dst").asText().getBytes(StandardCharsets.US_ASCII);
            for (JsonNode v : s.get("vectors")) {
                String msgText = v.get("msg").asText();
                tests.add(DynamicTest.dynamicTest(suite + " msg=" + abbreviate(msgText), () -> {
                    byte[] msg = msgText.getBytes(StandardCharsets.US_ASCII);
                    BigInteger[] u = h2c.hashToField(msg, dst, ro ? 2 : 1);
                    for (int i = 0; i < u.length; i++) {
                        assertThat(u[i]).isEqualTo(TestVectors.integer(v.get("u").get(i).asText()));
                    }
                    if (ro) {
                        assertPoint(h2c.mapToCurve(u[0]), v.get("Q0"));
                        assertPoint(h2c.mapToCurve(u[1]), v.get("Q1"));
                    }
                    ECPoint p = ro ? h2c.hashToCurve(msg, dst) : h2c.encodeToCurve(msg, dst);
                    assertPoint(p, v.get("P"));
                }));
            }
        }
        assertThat(tests).hasSize(10);
        return tests.stream();
    }

    private static void assertPoint(ECPoint p, JsonNode expected) {
        ECPoint n = p.normalize();
        assertThat(n.getAffineXCoord().toBigInteger()).isEqualTo(TestVectors.integer(expected.get("x").asText()));
        assertThat(n.getAffineYCoord().toBigInteger()).isEqualTo(TestVectors.integer(expected.get("y").asText()));
    }

    private static String abbreviate(String s) {
        return s.length() > 12 ? s.substring(0, 12) + "..." : s;
    }
}
