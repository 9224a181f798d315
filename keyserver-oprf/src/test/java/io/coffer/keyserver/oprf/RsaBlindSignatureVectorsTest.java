package io.coffer.keyserver.oprf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * RFC 9474's blind/blindSign/finalize arithmetic with the published inputs. The message representative is
 * the vector's EMSA-PSS encoding (encoded_msg, or sig^e mod n where the source omits it); the encoding
 * itself is RFC 9474's, not the RSA-OPRF's full-domain hash.
 */
class RsaBlindSignatureVectorsTest {
    @TestFactory
    Stream<DynamicTest> blindSignAndFinalizeReproducePublishedVectors() {
        JsonNode root = TestVectors.load("rfc9474-rsabssa.json");
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode v : root.get("vectors")) {
            tests.add(DynamicTest.dynamicTest(v.get("name").asText(), () -> {
                BigInteger p = TestVectors.integer(v.get("p").asText());
                BigInteger q = TestVectors.integer(v.get("q").asText());
                BigInteger e = TestVectors.integer(v.get("e").asText());
                BigInteger d = TestVectors.integer(v.get("d").asText());
                RsaOprfPrivateKey sk = RsaOprfPrivateKey.of(p, q, e, d);
                RsaOprfPublicKey pk = sk.publicKey();
                assertThat(pk.modulus()).isEqualTo(TestVectors.integer(v.get("n").asText()));
                BigInteger sig = new BigInteger(1, TestVectors.hex(v.get("sig").asText()));
                BigInteger encoded = v.has("encoded_msg")
                        ? new BigInteger(1, TestVectors.hex(v.get("encoded_msg").asText()))
                        : sig.modPow(e, pk.modulus());
                BigInteger inv = TestVectors.integer(v.get("inv").asText());
                BigInteger r = inv.modInverse(pk.modulus());

                BigInteger blinded = RsaBlinding.blind(pk, encoded, r);
                assertThat(blinded).isEqualTo(new BigInteger(1, TestVectors.hex(v.get("blinded_msg").asText())));
                BigInteger blindSig = RsaBlinding.blindSign(sk, blinded, new SecureRandom());
                assertThat(blindSig).isEqualTo(new BigInteger(1, TestVectors.hex(v.get("blind_sig").asText())));
                assertThat(RsaBlinding.finalizeSignature(pk, encoded, blindSig, inv)).isEqualTo(sig);
                BigInteger tampered = blindSig.flipBit(7);
                assertThatThrownBy(() -> RsaBlinding.finalizeSignature(pk, encoded, tampered, inv))
                        .isInstanceOf(OprfException.class);
            }));
        }
        assertThat(tests).hasSize(4);
        return tests.stream();
    }
}
