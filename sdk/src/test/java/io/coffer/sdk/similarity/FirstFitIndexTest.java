package io.coffer.sdk.similarity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FirstFitIndexTest {

    private static ChunkSketch sf(long... features) {
        return new ChunkSketch(features, new long[4]);
    }

    @Test
    void aChunkSharingAnySuperFeatureTakesTheFirstMatchingBase() {
        FirstFitIndex<String> index = new FirstFitIndex<>();
        assertThat(index.matchOrAdd(sf(1, 2, 3), "a")).isEqualTo("a");
        assertThat(index.matchOrAdd(sf(4, 5, 6), "b")).isEqualTo("b");
        assertThat(index.matchOrAdd(sf(9, 2, 9), "c")).as("matches a on super-feature 1").isEqualTo("a");
        assertThat(index.matchOrAdd(sf(4, 2, 9), "d")).as("super-feature 0 is tried first").isEqualTo("b");
        // a matching chunk registers nothing: its own features stay unknown
        assertThat(index.matchOrAdd(sf(9, 7, 7), "e")).isEqualTo("e");
        assertThat(index.matchOrAdd(sf(8, 8, 3), "f")).as("the same value at another index").isEqualTo("a");
        assertThat(index.matchOrAdd(sf(3, 8, 8), "g")).as("no match across indexes").isEqualTo("g");
    }

    @Test
    void similarRealChunksShareAKey() {
        FinesseSketcher sketcher = new FinesseSketcher();
        byte[] a = SyntheticChunks.text(40, 64 << 10);
        byte[] near = SyntheticChunks.edited(a, 1, 2, 16);
        byte[] other = SyntheticChunks.text(41, 64 << 10);
        FirstFitIndex<Integer> index = new FirstFitIndex<>();
        assertThat(index.matchOrAdd(sketcher.sketch(a, 0, a.length), 1)).isEqualTo(1);
        assertThat(index.matchOrAdd(sketcher.sketch(other, 0, other.length), 2)).isEqualTo(2);
        assertThat(index.matchOrAdd(sketcher.sketch(near, 0, near.length), 3)).isEqualTo(1);
    }

    @Test
    void theOwnValueIsAskedForOnlyWhenAChunkMatchesNothing() {
        FirstFitIndex<String> index = new FirstFitIndex<>();
        int[] asked = new int[1];
        assertThat(index.matchOrAdd(sf(1, 2), () -> {
            asked[0]++;
            return "a";
        })).isEqualTo("a");
        assertThat(index.matchOrAdd(sf(3, 2), () -> {
            asked[0]++;
            return "b";
        })).isEqualTo("a");
        assertThat(asked[0]).isEqualTo(1);
        assertThatThrownBy(() -> index.matchOrAdd(sf(5, 6), () -> null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(index.matchOrAdd(sf(5, 9), "c")).as("the refused chunk registered nothing").isEqualTo("c");
    }
}
