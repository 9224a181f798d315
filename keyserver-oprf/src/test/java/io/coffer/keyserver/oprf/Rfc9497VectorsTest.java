package io.coffer.keyserver.oprf;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

class Rfc9497VectorsTest {
    private static final JsonNode SUITE = p256Suite();

    private static JsonNode p256Suite() {
        for (JsonNode s : TestVectors.load("rfc9497-oprf.json").get("suites")) {
            if (s.get("identifier").asText().equals("P256-SHA256")) {
                return s;
            }
        }
        throw new IllegalStateException("P256-SHA256 suite missing");
    }

    @Test
    void deriveKeyPairMatchesPublishedKeysInBothModes() throws Exception {
        for (String modeName : List.of("OPRF Mode", "VOPRF Mode")) {
            JsonNode key = SUITE.get("modes").get(modeName).get("key");
            int mode = modeName.startsWith("V") ? P256Oprf.MODE_VOPRF : P256Oprf.MODE_OPRF;
            byte[] sk = P256Oprf.mode(mode).deriveKeyPair(TestVectors.hex(key.get("Seed").asText()),
                    TestVectors.hex(key.get("KeyInfo").asText()));
            assertThat(sk).isEqualTo(TestVectors.hex(key.get("skSm").asText()));
            if (key.has("pkSm")) {
                assertThat(P256Oprf.publicKey(sk)).isEqualTo(TestVectors.hex(key.get("pkSm").asText()));
            }
        }
    }

    @TestFactory
    Stream<DynamicTest> everyPublishedOprfAndVoprfVectorPasses() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String modeName : List.of("OPRF Mode", "VOPRF Mode")) {
            JsonNode m = SUITE.get("modes").get(modeName);
            boolean verifiable = modeName.startsWith("V");
            P256Oprf oprf = P256Oprf.mode(verifiable ? P256Oprf.MODE_VOPRF : P256Oprf.MODE_OPRF);
            byte[] sk = TestVectors.hex(m.get("key").get("skSm").asText());
            for (JsonNode v : m.get("vectors")) {
                tests.add(DynamicTest.dynamicTest(modeName + " " + v.get("name").asText(), () -> {
                    List<byte[]> inputs = TestVectors.hexList(v.get("Input"));
                    List<byte[]> blinds = TestVectors.hexList(v.get("Blind"));
                    List<byte[]> blinded = TestVectors.hexList(v.get("BlindedElement"));
                    List<byte[]> evaluated = TestVectors.hexList(v.get("EvaluationElement"));
                    List<byte[]> outputs = TestVectors.hexList(v.get("Output"));
                    assertThat(inputs).hasSize(v.get("batchSize").asInt());
                    for (int i = 0; i < inputs.size(); i++) {
                        assertThat(oprf.blind(inputs.get(i), blinds.get(i))).isEqualTo(blinded.get(i));
                    }
                    List<byte[]> mine = oprf.blindEvaluate(sk, blinded);
                    for (int i = 0; i < inputs.size(); i++) {
                        assertThat(mine.get(i)).isEqualTo(evaluated.get(i));
                        assertThat(oprf.finalizeOutput(inputs.get(i), blinds.get(i), evaluated.get(i))).isEqualTo(outputs.get(i));
                        assertThat(oprf.evaluate(sk, inputs.get(i))).isEqualTo(outputs.get(i));
                    }
                    if (verifiable) {
                        byte[] proof = TestVectors.hex(v.get("Proof").asText());
                        byte[] r = TestVectors.hex(v.get("ProofRandomScalar").asText());
                        assertThat(oprf.generateProof(sk, blinded, evaluated, r)).isEqualTo(proof);
                        byte[] pk = TestVectors.hex(m.get("key").get("pkSm").asText());
                        oprf.verifyProof(pk, blinded, evaluated, proof);
                    }
                }));
            }
        }
        assertThat(tests).hasSize(5);
        return tests.stream();
    }
}
