package io.coffer.sdk.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Parsing, validation and canonical form of {@link ChunkerSpec}. */
class ChunkerSpecTest {

    @Test
    void defaultIsFastCdc256kTo4mAroundOneMebibyte() {
        ChunkerSpec spec = ChunkerSpec.DEFAULT;
        assertThat(spec.algorithm()).isEqualTo(ChunkerSpec.Algorithm.FASTCDC);
        assertThat(spec.minSize()).isEqualTo(256 * 1024);
        assertThat(spec.avgSize()).isEqualTo(1024 * 1024);
        assertThat(spec.maxSize()).isEqualTo(4 * 1024 * 1024);
        assertThat(spec.level()).isEqualTo(1);
        assertThat(spec).hasToString("fastcdc:256k:1m:4m");
        assertThat(spec.newChunker().spec()).isEqualTo("fastcdc:256k:1m:4m");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "fastcdc:256k:1m:4m | fastcdc:256k:1m:4m",
        "FastCDC:256K:1M:4M | fastcdc:256k:1m:4m",
        "fastcdc:262144:1048576:4194304 | fastcdc:256k:1m:4m",
        "fastcdc:256kib:1MiB:4mb | fastcdc:256k:1m:4m",
        "fastcdc:256k:1m:4m:level=1 | fastcdc:256k:1m:4m",
        "fastcdc:2k:8k:64k:level=2 | fastcdc:2k:8k:64k:level=2",
        "fastcdc:4096:16384:65535:level=0 | fastcdc:4k:16k:65535:level=0",
        "fastcdc:64:256:1024:seed=666:level=3 | fastcdc:64:256:1k:level=3:seed=0x29a",
        "fastcdc:1000:3000:9000:seed=0x29A | fastcdc:1000:3000:9000:seed=0x29a",
        "fastcdc:16m:32m:64m:level=0 | fastcdc:16m:32m:64m:level=0",
        "fixed:1m | fixed:1m",
        "fixed:64 | fixed:64",
        "fixed:1536k | fixed:1536k",
        " fixed:64m  | fixed:64m",
    })
    void parsesGoodSpecsToTheirCanonicalForm(String text, String canonical) {
        ChunkerSpec spec = ChunkerSpec.parse(text);
        assertThat(spec).hasToString(canonical);
        assertThat(ChunkerSpec.parse(canonical)).isEqualTo(spec).hasSameHashCodeAs(spec);
        assertThat(spec.newChunker().spec()).isEqualTo(canonical);
    }

    @Test
    void carriesLevelAndSeedIntoTheChunker() {
        Chunker chunker = ChunkerSpec.parse("fastcdc:1k:4k:32k:level=3:seed=42").newChunker();
        assertThat(chunker).isInstanceOfSatisfying(FastCdcChunker.class, c -> {
            assertThat(c.level()).isEqualTo(3);
            assertThat(c.seed()).isEqualTo(42L);
            assertThat(c.avgSize()).isEqualTo(4096);
        });
    }

    @ParameterizedTest(name = "[{index}] \"{0}\"")
    @CsvSource(delimiter = '|', value = {
        "'' | unknown algorithm",
        "rabin:1k:2k:4k | unknown algorithm 'rabin'",
        "fastcdc | expected fastcdc:MIN:AVG:MAX",
        "fastcdc:1k:2k | expected fastcdc:MIN:AVG:MAX",
        "fastcdc:1k:x:4k | avg 'x' is not a size",
        "fastcdc:1k:-2k:4k | avg '-2k' is not a size",
        "fastcdc:1.5k:2k:4k | min '1.5k' is not a size",
        "fastcdc:4k:2k:8k | min < avg < max",
        "fastcdc:2k:2k:8k | min < avg < max",
        "fastcdc:1k:8k:8k | min < avg < max",
        "fastcdc:32:256:1k | min 32 B is outside",
        "fastcdc:1m:4m:128m | max 128m exceeds the limit of 64 MiB",
        "fastcdc:1m:4m:1g | max 1g exceeds the limit of 64 MiB",
        "fastcdc:64:100:1k:level=3 | needs masks for 4..10 bits",
        "fastcdc:1m:32m:64m | needs masks for 24..26 bits",
        "fastcdc:1k:4k:8k:level=4 | level 4 is outside 0..3",
        "fastcdc:1k:4k:8k:level=x | level 'x' is not a number",
        "fastcdc:1k:4k:8k:level=1:level=2 | level given twice",
        "fastcdc:1k:4k:8k:speed=2 | unknown option 'speed'",
        "fastcdc:1k:4k:8k:2 | option '2' is not key=value",
        "fastcdc:1k:4k:8k:seed=abc | seed 'abc' is not an unsigned 64-bit number",
        "fixed | expected fixed:SIZE",
        "fixed:1m:2m | expected fixed:SIZE",
        "fixed:0 | size 0 B is outside",
        "fixed:99999999999 | exceeds the limit of 64 MiB",
    })
    void rejectsBadSpecsWithAClearMessage(String text, String message) {
        assertThatThrownBy(() -> ChunkerSpec.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("invalid chunker spec '" + text + "': ")
                .hasMessageContaining(message);
    }

    @Test
    void factoryMethodsValidateToo() {
        assertThatThrownBy(() -> ChunkerSpec.fastCdc(1024, 512, 4096)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("min < avg < max");
        assertThatThrownBy(() -> ChunkerSpec.fixed(10)).isInstanceOf(IllegalArgumentException.class);
        assertThat(ChunkerSpec.fixed(4096).algorithm()).isEqualTo(ChunkerSpec.Algorithm.FIXED);
    }
}
