package io.coffer.sdk.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Behaviour of {@link ChunkReader}: streaming gives the same chunks as chunking the whole input at once. */
class ChunkReaderTest {

    /** Returns 1..7 bytes per read, like a slow network stream. */
    private static final class TrickleInputStream extends InputStream {
        private final byte[] data;
        private final Random random;
        private int pos;
        boolean closed;

        TrickleInputStream(byte[] data, long seed) {
            this.data = data;
            this.random = new Random(seed);
        }

        @Override
        public int read() {
            return pos < data.length ? data[pos++] & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            if (pos >= data.length) {
                return -1;
            }
            int n = Math.min(Math.min(len, 1 + random.nextInt(7)), data.length - pos);
            System.arraycopy(data, pos, b, off, n);
            pos += n;
            return n;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private record Piece(long streamOffset, byte[] bytes) {
    }

    private static List<Piece> readAll(ChunkReader reader) throws IOException {
        List<Piece> pieces = new ArrayList<>();
        for (Chunk c = reader.next(); c != null; c = reader.next()) {
            assertThat(c.array().length).as("buffer stays within 2 * maxSize")
                    .isLessThanOrEqualTo(2 * reader.chunker().maxSize());
            pieces.add(new Piece(c.streamOffset(), c.toByteArray()));
        }
        assertThat(reader.next()).as("stays at end").isNull();
        return pieces;
    }

    @ParameterizedTest
    @ValueSource(strings = {"fastcdc:64:256:1024", "fastcdc:1k:4k:32k:level=2", "fastcdc:2k:8k:64k:level=0",
        "fixed:1000"})
    void trickledStreamGivesTheSameChunksAsTheWholeArray(String spec) throws IOException {
        Chunker chunker = ChunkerSpec.parse(spec).newChunker();
        byte[] data = FastCdcChunkerTest.randomBytes(300_000 + 7, 9);
        List<Integer> expected = FastCdcChunkerTest.chunk(chunker, data);

        List<Piece> pieces;
        try (ChunkReader reader = new ChunkReader(new TrickleInputStream(data, 5), chunker)) {
            pieces = readAll(reader);
            assertThat(reader.position()).isEqualTo(data.length);
        }

        assertThat(pieces).extracting(p -> p.bytes().length).containsExactlyElementsOf(expected);
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        long offset = 0;
        for (Piece p : pieces) {
            assertThat(p.streamOffset()).isEqualTo(offset);
            joined.write(p.bytes());
            offset += p.bytes().length;
        }
        assertThat(joined.toByteArray()).isEqualTo(data);
        assertThat(pieces.subList(0, pieces.size() - 1)).allSatisfy(p ->
                assertThat(p.bytes().length).isBetween(chunker.minSize(), chunker.maxSize()));
        assertThat(pieces.get(pieces.size() - 1).bytes().length).isBetween(1, chunker.maxSize());
    }

    @Test
    void fixtureStreamedGivesTheVectorChunks() throws IOException {
        byte[] fixture = Vectors.bytes("SekienAkashita.jpg");
        Chunker chunker = new FastCdcChunker(4096, 16384, 65535);
        try (ChunkReader reader = new ChunkReader(new TrickleInputStream(fixture, 1), chunker)) {
            assertThat(readAll(reader)).extracting(p -> p.bytes().length)
                    .containsExactly(21325, 17140, 28084, 18217, 24700);
        }
    }

    @Test
    void emptyStreamGivesNoChunks() throws IOException {
        try (ChunkReader reader = new ChunkReader(new ByteArrayInputStream(new byte[0]), ChunkerSpec.DEFAULT
                .newChunker())) {
            assertThat(reader.next()).isNull();
            assertThat(reader.position()).isZero();
        }
    }

    @Test
    void inputShorterThanMinIsOneChunk() throws IOException {
        byte[] data = FastCdcChunkerTest.randomBytes(1000, 2);
        try (ChunkReader reader = new ChunkReader(new ByteArrayInputStream(data), ChunkerSpec.DEFAULT.newChunker())) {
            Chunk only = reader.next();
            assertThat(only.length()).isEqualTo(1000);
            assertThat(only.streamOffset()).isZero();
            assertThat(only.toByteArray()).isEqualTo(data);
            assertThat(only.asByteBuffer().remaining()).isEqualTo(1000);
            assertThat(reader.next()).isNull();
        }
    }

    @Test
    void inputLargerThanTheBufferStreamsWithBoundedMemory() throws IOException {
        FixedChunker chunker = new FixedChunker(4096);
        byte[] data = FastCdcChunkerTest.randomBytes(4096 * 50 + 3, 4);
        try (ChunkReader reader = new ChunkReader(new ByteArrayInputStream(data), chunker)) {
            List<Piece> pieces = readAll(reader);
            assertThat(pieces).hasSize(51);
            assertThat(pieces.get(50).bytes()).hasSize(3);
            assertThat(pieces.get(50).streamOffset()).isEqualTo(4096L * 50);
        }
    }

    @Test
    void aGivenBufferOfAWholeWindowGivesTheSameChunksAndIsNeverReplaced() throws IOException {
        Chunker chunker = ChunkerSpec.parse("fastcdc:1k:4k:32k").newChunker();
        byte[] data = FastCdcChunkerTest.randomBytes(300_000 + 7, 11);
        byte[] buffer = FastCdcChunkerTest.randomBytes(ChunkReader.windowSize(chunker), 12); // a previous use's bytes
        List<byte[]> arrays = new ArrayList<>();

        List<Piece> pieces = new ArrayList<>();
        try (ChunkReader reader = new ChunkReader(new TrickleInputStream(data, 6), chunker, null, buffer)) {
            for (Chunk c = reader.next(); c != null; c = reader.next()) {
                arrays.add(c.array());
                pieces.add(new Piece(c.streamOffset(), c.toByteArray()));
            }
        }

        assertThat(pieces).extracting(p -> p.bytes().length)
                .containsExactlyElementsOf(FastCdcChunkerTest.chunk(chunker, data));
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        pieces.forEach(p -> joined.writeBytes(p.bytes()));
        assertThat(joined.toByteArray()).isEqualTo(data);
        assertThat(arrays).allSatisfy(a -> assertThat(a).isSameAs(buffer));
    }

    @Test
    void aGivenBufferLargerThanTheWindowOrEmptyIsRefused() {
        FixedChunker chunker = new FixedChunker(4096);
        InputStream in = new ByteArrayInputStream(new byte[10]);
        assertThatThrownBy(() -> new ChunkReader(in, chunker, null, new byte[2 * 4096 + 1]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ChunkReader(in, chunker, null, new byte[0]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void closingTheReaderClosesTheStream() throws IOException {
        TrickleInputStream in = new TrickleInputStream(new byte[10], 1);
        new ChunkReader(in, new FixedChunker(64)).close();
        assertThat(in.closed).isTrue();
    }

    @Test
    void misbehavingChunkerIsReported() {
        Chunker broken = new Chunker() {
            @Override
            public int minSize() {
                return 64;
            }

            @Override
            public int maxSize() {
                return 128;
            }

            @Override
            public int nextCut(byte[] data, int offset, int length) {
                return length + 1;
            }

            @Override
            public String spec() {
                return "broken";
            }
        };
        ChunkReader reader = new ChunkReader(new ByteArrayInputStream(new byte[500]), broken);
        assertThatThrownBy(reader::next).isInstanceOf(IllegalStateException.class).hasMessageContaining("cut");
    }

    /**
     * A tap that keeps every range it was handed and checks, when the reader releases it and at the end, that the
     * bytes under the range are still the ones it was handed: a reader that overwrote them early would be caught.
     */
    private static final class LaggingTap implements ChunkReader.ReadTap {
        private record Handed(byte[] buf, int off, byte[] copy, long streamOffset) {
        }

        private final ArrayDeque<Handed> pending = new ArrayDeque<>();
        final ByteArrayOutputStream seen = new ByteArrayOutputStream();
        long handed;
        int releases;

        @Override
        public void read(byte[] buf, int off, int len) {
            pending.add(new Handed(buf, off, Arrays.copyOfRange(buf, off, off + len), handed));
            handed += len;
        }

        @Override
        public void release(long end) {
            releases++;
            while (!pending.isEmpty() && pending.peek().streamOffset() < end) {
                consume(pending.poll());
            }
        }

        void finish() {
            while (!pending.isEmpty()) {
                consume(pending.poll());
            }
        }

        private void consume(Handed h) {
            byte[] now = Arrays.copyOfRange(h.buf(), h.off(), h.off() + h.copy().length);
            assertThat(now).as("bytes at stream offset %d unchanged until released", h.streamOffset())
                    .isEqualTo(h.copy());
            seen.writeBytes(now);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 7, 4096, 1 << 20})
    void tapSeesEveryByteInOrderAndNothingIsOverwrittenBeforeItsRelease(int trickle) throws IOException {
        Chunker chunker = ChunkerSpec.parse("fastcdc:1k:4k:16k").newChunker();
        byte[] data = FastCdcChunkerTest.randomBytes(400_000, 3);
        LaggingTap tap = new LaggingTap();
        InputStream in = trickle == 7 ? new TrickleInputStream(data, 11) : new ByteArrayInputStream(data) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, trickle));
            }
        };
        List<Piece> pieces;
        try (ChunkReader reader = new ChunkReader(in, chunker, tap)) {
            pieces = readAll(reader);
        }
        tap.finish();

        assertThat(tap.seen.toByteArray()).isEqualTo(data);
        assertThat(tap.handed).isEqualTo(data.length);
        assertThat(tap.releases).as("the buffer was reused, so the reader had to release").isPositive();
        assertThat(pieces.stream().map(p -> p.bytes().length).toList())
                .isEqualTo(FastCdcChunkerTest.chunk(chunker, data));
    }

    @Test
    void aTappedReaderThatGrowsItsBufferLetsTheOldOneGoOnlyOnceTheTapIsDoneWithIt() throws IOException {
        Chunker chunker = ChunkerSpec.parse("fastcdc:64k:256k:1m").newChunker(); // grows from 64 KiB to 2 MiB
        byte[] data = FastCdcChunkerTest.randomBytes(3_000_000, 13);
        List<String> problems = new ArrayList<>();
        ChunkReader.ReadTap tap = new ChunkReader.ReadTap() {
            private byte[] current;
            private long tapped;
            private long released;

            @Override
            public void read(byte[] buf, int off, int len) {
                if (current != null && buf != current && released < tapped) {
                    problems.add("a new buffer at " + tapped + " with only " + released + " released");
                }
                current = buf;
                tapped += len;
            }

            @Override
            public void release(long end) {
                released = Math.max(released, Math.min(end, tapped));
            }
        };
        int arrays = 0;
        byte[] last = null;
        try (ChunkReader reader = new ChunkReader(new ByteArrayInputStream(data), chunker, tap, null)) {
            for (Chunk c = reader.next(); c != null; c = reader.next()) {
                if (c.array() != last) {
                    arrays++;
                    last = c.array();
                }
            }
        }
        assertThat(arrays).as("the buffer grew").isGreaterThan(1);
        assertThat(problems).isEmpty();
    }
}
