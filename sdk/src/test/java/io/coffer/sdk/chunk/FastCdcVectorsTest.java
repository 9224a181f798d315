package io.coffer.sdk.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * FastCDC against the external fastcdc-rs vectors ({@code expected.json}), the locally derived ones
 * ({@code derived.json}) and the published tables ({@code gear.json}). The ronomon vectors are a different algorithm
 * and are not used.
 */
class FastCdcVectorsTest {

    private static final byte[] FIXTURE = Vectors.bytes("SekienAkashita.jpg");

    static Stream<Arguments> gearVectors() {
        List<Arguments> out = new ArrayList<>();
        addVectors(out, "expected.json");
        addVectors(out, "derived.json");
        return out.stream();
    }

    private static void addVectors(List<Arguments> out, String file) {
        for (JsonNode v : Vectors.json(file).get("vectors")) {
            String variant = v.get("variant").asText();
            if (variant.equals("v2016") || variant.equals("v2020")) {
                String name = file + " " + v.path("test").asText("derived") + " " + variant + " " + v.get("min")
                        + "/" + v.get("avg") + "/" + v.get("max") + " level " + v.get("normalization") + " seed "
                        + v.get("seed");
                out.add(Arguments.of(name, v));
            }
        }
    }

    @Test
    void fixtureIsTheUpstreamFile() {
        JsonNode fixture = Vectors.json("expected.json").get("fixture");
        assertThat(FIXTURE).hasSize(fixture.get("size").asInt());
        assertThat(Vectors.sha256(FIXTURE, 0, FIXTURE.length)).isEqualTo(fixture.get("sha256").asText());
    }

    @Test
    void gearTableMatchesGearJsonAndItsMd5Definition() throws Exception {
        JsonNode gear = Vectors.json("gear.json").get("gear_hex");
        assertThat(gear).hasSize(256);
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        for (int i = 0; i < 256; i++) {
            byte[] input = new byte[64];
            Arrays.fill(input, (byte) i);
            byte[] digest = md5.digest(input);
            long expected = 0;
            for (int k = 0; k < 8; k++) {
                expected = (expected << 8) | (digest[k] & 0xff);
            }
            assertThat(FastCdcChunker.GEAR[i]).as("GEAR[%d] from MD5", i).isEqualTo(expected);
            assertThat(FastCdcChunker.GEAR[i]).as("GEAR[%d] from gear.json", i).isEqualTo(Vectors.u64(gear.get(i)));
            assertThat(FastCdcChunker.GEAR_LS[i]).as("GEAR_LS[%d]", i).isEqualTo(expected << 1);
        }
    }

    @Test
    void masksMatchGearJson() {
        JsonNode masks = Vectors.json("gear.json").get("masks_hex");
        assertThat(FastCdcChunker.MASKS).hasSize(masks.size());
        for (int i = 0; i < masks.size(); i++) {
            assertThat(FastCdcChunker.MASKS[i]).as("MASKS[%d]", i).isEqualTo(Vectors.u64(masks.get(i)));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gearVectors")
    void chunksTheFixtureExactlyAsTheVector(String name, JsonNode v) {
        int min = v.get("min").asInt();
        int avg = v.get("avg").asInt();
        int max = v.get("max").asInt();
        int level = v.get("normalization").asInt();
        long seed = v.get("seed").asLong();
        boolean v2020 = v.get("variant").asText().equals("v2020");
        FastCdcChunker chunker = new FastCdcChunker(min, avg, max, level, seed);

        JsonNode expected = v.get("chunks");
        int offset = 0;
        int index = 0;
        while (offset < FIXTURE.length) {
            assertThat(index).as("more chunks than the vector's %d", expected.size()).isLessThan(expected.size());
            JsonNode e = expected.get(index);
            FastCdcChunker.Cut cut = chunker.cutWithHash(FIXTURE, offset, FIXTURE.length - offset);
            assertThat(offset).as("offset of chunk %d", index).isEqualTo(e.get("offset").asInt());
            assertThat(cut.length()).as("length of chunk %d", index).isEqualTo(e.get("length").asInt());
            assertThat(chunker.nextCut(FIXTURE, offset, FIXTURE.length - offset)).isEqualTo(cut.length());
            assertThat(Vectors.sha256(FIXTURE, offset, cut.length())).as("sha256 of chunk %d", index)
                    .isEqualTo(e.get("sha256").asText());
            long expectedHash = Vectors.u64(e.get("gear_hash"));
            if (v2020) {
                assertThat(cut.gearHash()).as("v2020 gear hash of chunk %d", index).isEqualTo(expectedHash);
            } else {
                long[] ref = ReferenceFastCdc.cut(FIXTURE, offset, FIXTURE.length - offset, min, avg, max, level,
                        seed);
                assertThat(ref[0]).as("reference length of chunk %d", index).isEqualTo(cut.length());
                assertThat(ref[1]).as("v2016 gear hash of chunk %d", index).isEqualTo(expectedHash);
            }
            offset += cut.length();
            index++;
        }
        assertThat(index).as("chunk count").isEqualTo(expected.size());
    }

    @Test
    void allZerosGiveMaxSizeChunksWithTheVectorHash() {
        JsonNode zeros = Vectors.json("expected.json").get("all_zeros");
        assertThat(zeros.get("input").asText()).isEqualTo("10240 zero bytes");
        assertThat(zeros.get("v2016_v2020").get("chunks").asText()).isEqualTo("10 chunks of 1024 bytes");
        long expectedHash = Vectors.u64(zeros.get("v2016_v2020").get("gear_hash_each"));
        int min = zeros.get("min").asInt();
        int avg = zeros.get("avg").asInt();
        int max = zeros.get("max").asInt();
        FastCdcChunker chunker = new FastCdcChunker(min, avg, max);
        byte[] data = new byte[10240];

        List<Integer> lengths = new ArrayList<>();
        for (int offset = 0; offset < data.length; ) {
            FastCdcChunker.Cut cut = chunker.cutWithHash(data, offset, data.length - offset);
            assertThat(cut.gearHash()).isEqualTo(expectedHash);
            assertThat(ReferenceFastCdc.cut(data, offset, data.length - offset, min, avg, max, 1, 0L)[1])
                    .isEqualTo(expectedHash);
            lengths.add(cut.length());
            offset += cut.length();
        }
        assertThat(lengths).hasSize(10).containsOnly(1024);
    }

    @Test
    void seededChunkerXorsEveryGearEntry() {
        FastCdcChunker seeded = new FastCdcChunker(4096, 16384, 65535, 1, 666);
        FastCdcChunker plain = new FastCdcChunker(4096, 16384, 65535, 1, 0);
        assertThat(seeded.nextCut(FIXTURE, 0, FIXTURE.length)).isEqualTo(10605);
        assertThat(plain.nextCut(FIXTURE, 0, FIXTURE.length)).isEqualTo(21325);
        assertThat(seeded.spec()).isEqualTo("fastcdc:4k:16k:65535:seed=0x29a");
    }
}
