package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.ByteRange;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.chunk.ChunkerSpec;
import io.coffer.sdk.testing.TestData;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Objects of many sizes, with both chunkers, come back byte for byte, whole and in ranges, with the MD5 as ETag.
 * Subclasses run the same properties on each backend and metadata store.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class EngineRoundTripTest {
    private static final long MIB = 1 << 20;
    private final List<Coffer> engines = new ArrayList<>();
    private Coffer fastCdc;
    private Coffer fixed;

    private Path dir;

    /** An engine over this subclass's backend, using {@code chunker}. */
    abstract Coffer open(Path dir, ChunkerSpec chunker) throws Exception;

    @BeforeAll
    void openEngines() throws Exception {
        dir = Files.createTempDirectory("coffer-roundtrip");
        fastCdc = open(dir.resolve("fastcdc"), ChunkerSpec.DEFAULT);
        fixed = open(dir.resolve("fixed"), ChunkerSpec.fixed(1 << 20));
        engines.addAll(List.of(fastCdc, fixed));
        for (Coffer c : engines) {
            c.createBucket("bucket", "tester");
        }
    }

    @AfterAll
    void closeEngines() throws IOException {
        engines.forEach(Coffer::close);
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    static Stream<Arguments> sizes() {
        List<Long> sizes = new ArrayList<>(List.of(0L, 1L, 1023L, 1024L, 65_539L, MIB - 1, MIB, 3 * MIB + 17,
                16 * MIB + 1, 64 * MIB));
        SplittableRandom r = new SplittableRandom(20261122);
        for (int i = 0; i < 6; i++) {
            sizes.add(r.nextLong(1, 24 * MIB));
        }
        return Stream.of("fastcdc", "fixed").flatMap(c -> sizes.stream().map(s -> Arguments.of(c, s)));
    }

    @ParameterizedTest(name = "{0} {1} bytes")
    @MethodSource("sizes")
    void objectRoundTripsWithMd5Etag(String chunker, long size) throws IOException {
        Coffer coffer = chunker.equals("fastcdc") ? fastCdc : fixed;
        long seed = size * 31 + chunker.length();
        String key = "obj/" + chunker + "/" + size;
        // unknown length for every other size: the engine must stream until EOF
        long declared = size % 2 == 0 ? size : -1;
        ObjectInfo put = coffer.putObject(PutObjectRequest.of("bucket", key, declared)
                .withAttributes(new ObjectAttributes("application/x-test", Map.of("color", "blue"), Map.of(),
                        Map.of())), TestData.stream(seed, size));
        String md5 = TestData.md5Hex(TestData.stream(seed, size));
        assertThat(put.etag()).isEqualTo(md5);
        assertThat(put.size()).isEqualTo(size);

        ObjectInfo head = coffer.headObject("bucket", key);
        assertThat(head.etag()).isEqualTo(md5);
        assertThat(head.attributes().contentType()).isEqualTo("application/x-test");
        assertThat(head.attributes().userMetadata()).containsEntry("color", "blue");

        try (ObjectContent c = coffer.getObject("bucket", key)) {
            assertSameBytes(c.stream(), TestData.stream(seed, size), size);
        }
        if (size > 0) {
            SplittableRandom r = new SplittableRandom(seed);
            for (int i = 0; i < 3; i++) {
                long first = r.nextLong(size);
                long last = Math.min(size - 1, first + r.nextLong(Math.max(1, Math.min(size, 5 * MIB))));
                try (ObjectContent c = coffer.getObject("bucket", key, ByteRange.of(first, last))) {
                    assertThat(c.contentLength()).isEqualTo(last - first + 1);
                    InputStream expected = TestData.stream(seed, size);
                    expected.skipNBytes(first);
                    assertSameBytes(c.stream(), expected, last - first + 1);
                }
            }
            try (ObjectContent c = coffer.getObject("bucket", key, ByteRange.suffix(Math.min(size, 1000)))) {
                InputStream expected = TestData.stream(seed, size);
                expected.skipNBytes(size - Math.min(size, 1000));
                assertSameBytes(c.stream(), expected, Math.min(size, 1000));
            }
        }
    }

    private static void assertSameBytes(InputStream actual, InputStream expected, long length) throws IOException {
        byte[] a = new byte[1 << 16];
        byte[] e = new byte[1 << 16];
        long pos = 0;
        while (true) {
            int n = actual.readNBytes(a, 0, a.length);
            int m = expected.readNBytes(e, 0, Math.min(e.length, (int) Math.min(e.length, length - pos)));
            assertThat(n).as("bytes at offset %d", pos).isEqualTo(m);
            if (n == 0) {
                break;
            }
            if (!Arrays.equals(a, 0, n, e, 0, n)) {
                throw new AssertionError("content differs in the block at offset " + pos);
            }
            pos += n;
        }
        assertThat(pos).isEqualTo(length);
    }
}
