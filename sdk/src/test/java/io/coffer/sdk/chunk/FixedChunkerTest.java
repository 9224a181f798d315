package io.coffer.sdk.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Behaviour of {@link FixedChunker}. */
class FixedChunkerTest {

    @Test
    void cutsEveryChunkAtSizeAndTheLastAtTheRemainder() {
        FixedChunker chunker = new FixedChunker(1000);
        byte[] data = new byte[3500];
        assertThat(FastCdcChunkerTest.chunk(chunker, data)).containsExactly(1000, 1000, 1000, 500);
        assertThat(chunker.nextCut(data, 3000, 500)).isEqualTo(500);
        assertThat(chunker.minSize()).isEqualTo(1000);
        assertThat(chunker.maxSize()).isEqualTo(1000);
    }

    @Test
    void describesItselfAsAParseableSpec() {
        assertThat(new FixedChunker(1 << 20).spec()).isEqualTo("fixed:1m");
        assertThat(new FixedChunker(1000).spec()).isEqualTo("fixed:1000");
        assertThat(ChunkerSpec.parse("fixed:1m").newChunker()).isInstanceOf(FixedChunker.class)
                .extracting(Chunker::maxSize).isEqualTo(1 << 20);
    }

    @Test
    void rejectsSizesOutsideTheLimits() {
        assertThatThrownBy(() -> new FixedChunker(63)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("63");
        assertThatThrownBy(() -> new FixedChunker((64 << 20) + 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FixedChunker(64).nextCut(new byte[4], 0, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
