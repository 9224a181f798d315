package io.coffer.sdk.deflate;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Tokens and side information that do not fit each other are refused, never encoded into other bytes. */
class PartialEncoderTest {
    private static final byte[] TEXT = JavaZipRoundTripTest.corpus(20_000, 5);

    private static void encode(byte[] tokens, byte[] side) throws IOException {
        new PartialEncoder().encode(new ByteArrayInputStream(tokens), new ByteArrayInputStream(side),
                OutputStream.nullOutputStream());
    }

    @Test
    void aMatchInsideAStoredBlockIsRefused() throws IOException {
        RoundTrip rt = RoundTrip.assertExact(Gzip.member(TEXT, 0));
        byte[] tokens = rt.tokens.clone();
        tokens[0] = (byte) 0xFE;
        tokens[1] = (byte) 0x80;
        assertThatThrownBy(() -> encode(tokens, rt.side)).isInstanceOf(DeflateFormatException.class)
                .hasMessageContaining("is not a literal");
    }

    @Test
    void tokensLeftOverOrMissingAreRefused() throws IOException {
        RoundTrip rt = RoundTrip.assertExact(Gzip.member(TEXT, 6));
        assertThatThrownBy(() -> encode(Gzip.concat(rt.tokens, new byte[] {'x'}), rt.side))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("tokens left over");
        assertThatThrownBy(() -> encode(Arrays.copyOf(rt.tokens, rt.tokens.length - 2), rt.side))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("ends inside a block");
        assertThatThrownBy(() -> encode(Arrays.copyOf(rt.tokens, rt.tokens.length - 1), rt.side))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("ends inside a token");
    }

    @Test
    void anUnknownEscapeTagIsRefused() throws IOException {
        RoundTrip rt = RoundTrip.assertExact(Gzip.member(TEXT, 6));
        byte[] tokens = Gzip.concat(new byte[] {(byte) 0xFE, 0x05}, rt.tokens);
        assertThatThrownBy(() -> encode(tokens, rt.side)).isInstanceOf(DeflateFormatException.class)
                .hasMessageContaining("escape tag 5");
    }

    @Test
    void aMatchReachingBeforeTheMembersStartIsRefused() throws IOException {
        RoundTrip rt = RoundTrip.assertExact(Gzip.member(TEXT, 6));
        byte[] tokens = Gzip.concat(new byte[] {(byte) 0xFE, (byte) 0x80, 0x04, 0x00}, rt.tokens);
        assertThatThrownBy(() -> encode(tokens, rt.side)).isInstanceOf(DeflateFormatException.class)
                .hasMessageContaining("before the member's start");
    }

    @Test
    void malformedSideInformationIsRefused() throws IOException {
        RoundTrip rt = RoundTrip.assertExact(Gzip.member(TEXT, 6));
        byte[] magic = rt.side.clone();
        magic[0] = 'x';
        assertThatThrownBy(() -> encode(rt.tokens, magic)).isInstanceOf(DeflateFormatException.class)
                .hasMessageContaining("magic");
        assertThatThrownBy(() -> encode(rt.tokens, Arrays.copyOf(rt.side, rt.side.length - 3)))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("ends inside a record");
        assertThatThrownBy(() -> encode(rt.tokens, Gzip.concat(rt.side, new byte[] {0})))
                .isInstanceOf(DeflateFormatException.class).hasMessageContaining("left over");
        byte[] tag = rt.side.clone();
        tag[4] = 0x09;
        assertThatThrownBy(() -> encode(rt.tokens, tag)).isInstanceOf(DeflateFormatException.class)
                .hasMessageContaining("record tag 9");
        byte[] noMember = {'c', 'p', 'd', 1, 0};
        assertThatThrownBy(() -> encode(new byte[0], noMember)).isInstanceOf(DeflateFormatException.class)
                .hasMessageContaining("does not start with a gzip member");
    }

    @Test
    void wrongPaddingIsRefused() throws IOException {
        RoundTrip rt = RoundTrip.assertExact(Gzip.member(TEXT, 6));
        byte[] side = rt.side.clone();
        // the member-end record: tag 5, padding count, padding bits, 8 trailer bytes, then the end tag
        int end = side.length - 1 - 8 - 2 - 1;
        side[end + 1] = (byte) ((side[end + 1] + 1) % 8);
        assertThatThrownBy(() -> encode(rt.tokens, side)).isInstanceOf(DeflateFormatException.class)
                .hasMessageContaining("padding");
    }

    @Test
    void randomlyCorruptedTokensOrSideInformationAreRefusedOrEncodedNeverACrash() throws IOException {
        byte[] gzip = Gzip.concat(Gzip.member(TEXT, 6), Gzip.member(TEXT, 0), Gzip.member("fixed".getBytes(), 6),
                new byte[] {7, 7});
        RoundTrip rt = RoundTrip.assertExact(gzip);
        java.util.Random r = new java.util.Random(20);
        int refused = 0;
        for (int trial = 0; trial < 2000; trial++) {
            byte[] tokens = rt.tokens.clone();
            byte[] side = rt.side.clone();
            byte[] target = trial % 2 == 0 ? tokens : side;
            target[r.nextInt(target.length)] ^= (byte) (1 << r.nextInt(8));
            try {
                encode(tokens, side);
            } catch (DeflateFormatException e) {
                refused++;
            }
        }
        org.assertj.core.api.Assertions.assertThat(refused).as("corruptions refused").isPositive();
    }
}
