package io.coffer.sdk.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The {@link BlobStore} contract as tests; each implementation's test extends it and supplies a fresh store. */
abstract class BlobStoreContractTest {

    private static final int MIB = 1 << 20;
    private static final String P = "p/";

    /** The store under test, fresh and empty for each test. */
    protected BlobStore store;

    /** A fresh, empty store. */
    protected abstract BlobStore createStore() throws Exception;

    /**
     * The store the tests put and delete through: {@link #store} itself, unless the store under test refuses writes
     * (a read-only view), whose test writes to the store beneath it and reads through the view.
     */
    protected BlobStore writer() {
        return store;
    }

    @BeforeEach
    void openStore() throws Exception {
        store = createStore();
    }

    @AfterEach
    void closeStore() throws Exception {
        if (store != null) {
            store.close();
        }
    }

    @Test
    void roundTripOfAnEmptyBlob() throws IOException {
        writer().put("p/empty", BlobContent.of(new byte[0]));

        assertThat(readAll("p/empty")).isEmpty();
        assertThat(store.head("p/empty")).map(BlobInfo::size).contains(0L);
    }

    @Test
    void aReadThatTellsItsProgressFillsTheRangeAndCountsUpToItsLength() throws IOException {
        byte[] data = new byte[(3 << 20) + 5];
        new Random(7).nextBytes(data);
        writer().put("p/progress", BlobContent.of(data));
        byte[] into = new byte[(2 << 20) + 20];
        List<Integer> counts = new ArrayList<>();

        store.readInto("p/progress", 1_000_003, into, 9, 2 << 20, counts::add);

        assertThat(Arrays.copyOfRange(into, 9, 9 + (2 << 20)))
                .isEqualTo(Arrays.copyOfRange(data, 1_000_003, 1_000_003 + (2 << 20)));
        assertThat(counts).isNotEmpty().isSorted().last().isEqualTo(2 << 20);
        assertThat(counts.get(0)).isPositive();
    }

    @Test
    void roundTripOfOneByte() throws IOException {
        writer().put("p/one", BlobContent.of(new byte[] {42}));

        assertThat(readAll("p/one")).containsExactly(42);
    }

    @Test
    void roundTripOfOneMebibyte() throws IOException {
        BlobContent content = TestContents.generated(MIB, 1);
        writer().put("p/mib", content);

        assertThat(readAll("p/mib")).isEqualTo(TestContents.bytes(content));
    }

    @Test
    void roundTripOfTwentyMebibytesStreamed() throws IOException {
        BlobContent content = TestContents.generated(20L * MIB, 2);
        writer().put("p/big", content);

        try (InputStream in = store.get("p/big", 0, -1)) {
            assertThat(TestContents.sha256(in)).isEqualTo(TestContents.sha256(content));
        }
        assertThat(store.head("p/big")).map(BlobInfo::size).contains(20L * MIB);
    }

    @Test
    void rangedGets() throws IOException {
        byte[] data = TestContents.bytes(TestContents.generated(1000, 3));
        writer().put("p/r", BlobContent.of(data));

        assertThat(read("p/r", 0, 10)).isEqualTo(Arrays.copyOfRange(data, 0, 10));
        assertThat(read("p/r", 400, 100)).isEqualTo(Arrays.copyOfRange(data, 400, 500));
        assertThat(read("p/r", 990, -1)).isEqualTo(Arrays.copyOfRange(data, 990, 1000));
        assertThat(read("p/r", 990, 100)).isEqualTo(Arrays.copyOfRange(data, 990, 1000));
        assertThat(read("p/r", 999, 1)).containsExactly(data[999]);
        assertThat(read("p/r", 0, 1000)).isEqualTo(data);
        assertThat(read("p/r", 500, 0)).isEmpty();
        assertThat(read("p/r", 1000, -1)).isEmpty();
        assertThat(read("p/r", 1000, 10)).isEmpty();
        assertThat(read("p/r", 5000, 10)).isEmpty();
        assertThat(store.read("p/r", 100, 5)).isEqualTo(Arrays.copyOfRange(data, 100, 105));
        assertThatThrownBy(() -> store.read("p/r", 995, 10)).isInstanceOf(EOFException.class);
        assertThatThrownBy(() -> store.get("p/r", -1, 10)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void overwriteReplacesTheBlob() throws IOException {
        writer().put("p/o", BlobContent.of(TestContents.filled(MIB, 1)));
        writer().put("p/o", BlobContent.of(TestContents.filled(1000, 2)));

        assertThat(readAll("p/o")).isEqualTo(TestContents.filled(1000, 2));
        assertThat(store.head("p/o")).map(BlobInfo::size).contains(1000L);
        assertThat(names(P)).containsExactly("p/o");
    }

    @Test
    void readersSeeTheOldOrTheNewBlobNeverAMix() throws Exception {
        byte[] a = TestContents.filled(256 * 1024, 'a');
        byte[] b = TestContents.filled(128 * 1024, 'b');
        writer().put("p/flip", BlobContent.of(a));
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> reader = pool.submit(() -> {
                int reads = 0;
                while (writing.get() || reads == 0) {
                    byte[] seen = readAll("p/flip");
                    assertThat(Arrays.equals(seen, a) || Arrays.equals(seen, b))
                            .as("read %d bytes that are neither version", seen.length).isTrue();
                    reads++;
                }
                return reads;
            });
            for (int i = 0; i < 20; i++) {
                writer().put("p/flip", BlobContent.of(i % 2 == 0 ? b : a));
            }
            writing.set(false);
            assertThat(reader.get(30, TimeUnit.SECONDS)).isPositive();
        } finally {
            writing.set(false);
            pool.shutdownNow();
        }
    }

    @Test
    void missingBlob() throws IOException {
        assertThatThrownBy(() -> store.get("p/missing", 0, -1)).isInstanceOf(BlobNotFoundException.class);
        assertThatThrownBy(() -> store.get("p/missing", 10, 5)).isInstanceOf(BlobNotFoundException.class);
        assertThatThrownBy(() -> store.get("p/missing", 0, 0)).isInstanceOf(BlobNotFoundException.class);
        assertThatThrownBy(() -> store.read("p/missing", 0, 1)).isInstanceOf(BlobNotFoundException.class);
        assertThat(store.head("p/missing")).isEmpty();
    }

    @Test
    void headReportsSizeAndModificationTime() throws IOException {
        Instant before = Instant.now().minus(Duration.ofMinutes(5));
        writer().put("p/h", BlobContent.of(TestContents.filled(1234, 9)));

        BlobInfo info = store.head("p/h").orElseThrow();
        assertThat(info.name()).isEqualTo("p/h");
        assertThat(info.size()).isEqualTo(1234);
        assertThat(info.lastModified()).isBetween(before, Instant.now().plus(Duration.ofMinutes(5)));
    }

    @Test
    void deleteIsIdempotent() throws IOException {
        writer().delete("p/never");
        writer().put("p/d", BlobContent.of(new byte[] {1, 2, 3}));

        writer().delete("p/d");
        writer().delete("p/d");

        assertThat(store.head("p/d")).isEmpty();
        assertThatThrownBy(() -> store.get("p/d", 0, -1)).isInstanceOf(BlobNotFoundException.class);
        assertThat(names("")).isEmpty();
    }

    @Test
    void listByPrefixInAscendingOrder() throws IOException {
        for (String name : List.of("q/x", "p/b", "p/ab", "p/a")) {
            writer().put(name, BlobContent.of(name.getBytes(StandardCharsets.US_ASCII)));
        }

        assertThat(names("")).containsExactly("p/a", "p/ab", "p/b", "q/x");
        assertThat(names(P)).containsExactly("p/a", "p/ab", "p/b");
        assertThat(names("p/a")).containsExactly("p/a", "p/ab");
        assertThat(names("p/ab")).containsExactly("p/ab");
        assertThat(names("p")).containsExactly("p/a", "p/ab", "p/b");
        assertThat(names("q/")).containsExactly("q/x");
        assertThat(names("z")).isEmpty();
        assertThat(names("p/c")).isEmpty();
        try (BlobListing listing = store.list(P)) {
            assertThat(listing.toList()).extracting(BlobInfo::size).containsExactly(3L, 4L, 3L);
        }
    }

    @Test
    void listOrdersNamesByCharacterAcrossLevels() throws IOException {
        List<String> names = List.of("r/a/y", "r/a0", "r/a-b", "r/a/x", "r/a.b", "r/a_c", "r/b/c/d", "r/b-");
        for (String name : names) {
            writer().put(name, BlobContent.of(new byte[] {1}));
        }

        assertThat(names("r/")).containsExactlyElementsOf(names.stream().sorted().collect(Collectors.toList()));
        assertThat(names("r/a")).containsExactly("r/a-b", "r/a.b", "r/a/x", "r/a/y", "r/a0", "r/a_c");
        assertThat(names("r/a/")).containsExactly("r/a/x", "r/a/y");
    }

    @Test
    void listSpanningManyPages() throws IOException {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            String name = String.format("m/%02d", i);
            expected.add(name);
            writer().put(name, BlobContent.of(new byte[] {(byte) i}));
        }
        writer().put("n/other", BlobContent.of(new byte[] {1}));

        assertThat(names("m/")).containsExactlyElementsOf(expected);
        assertThat(names("m/0")).containsExactlyElementsOf(expected.subList(0, 10));
    }

    @Test
    void concurrentPutsOfDifferentNames() throws Exception {
        int threads = 8;
        int perThread = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                tasks.add(() -> {
                    for (int i = 0; i < perThread; i++) {
                        String name = "c/" + thread + "/" + i;
                        writer().put(name, TestContents.generated(10_000 + thread * 100 + i, thread * 100 + i));
                    }
                    return null;
                });
            }
            for (Future<Void> f : pool.invokeAll(tasks, 60, TimeUnit.SECONDS)) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(names("c/")).hasSize(threads * perThread);
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < perThread; i++) {
                BlobContent expected = TestContents.generated(10_000 + t * 100 + i, t * 100 + i);
                assertThat(readAll("c/" + t + "/" + i)).isEqualTo(TestContents.bytes(expected));
            }
        }
    }

    @Test
    void putWhoseContentFailsLeavesNoBlob() throws IOException {
        assertThatThrownBy(() -> writer().put("p/fail", TestContents.failingAfter(MIB, MIB / 2)))
                .isInstanceOf(IOException.class);

        assertThat(store.head("p/fail")).isEmpty();
        assertThatThrownBy(() -> store.get("p/fail", 0, -1)).isInstanceOf(BlobNotFoundException.class);
        assertThat(names("")).isEmpty();
    }

    @Test
    void failedOverwriteKeepsThePreviousBlob() throws IOException {
        byte[] old = TestContents.filled(5000, 5);
        writer().put("p/keep", BlobContent.of(old));

        assertThatThrownBy(() -> writer().put("p/keep", TestContents.failingAfter(MIB, 1000)))
                .isInstanceOf(IOException.class);

        assertThat(readAll("p/keep")).isEqualTo(old);
    }

    @Test
    void putWhoseContentIsShorterThanDeclaredLeavesNoBlob() throws IOException {
        assertThatThrownBy(() -> writer().put("p/short", TestContents.mislabelled(1000, 500)))
                .isInstanceOf(IOException.class);

        assertThat(store.head("p/short")).isEmpty();
    }

    @Test
    void invalidNamesAreRejected() {
        String tooLong = "a".repeat(BlobNames.MAX_LENGTH + 1);
        for (String bad : List.of("", "/a", "a/../b", "..", "A", "a b", "a\\b", "caf\u00e9", "a?b", tooLong)) {
            assertThatThrownBy(() -> writer().put(bad, BlobContent.of(new byte[1])))
                    .as("put %s", bad).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> store.get(bad, 0, -1))
                    .as("get %s", bad).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> store.head(bad))
                    .as("head %s", bad).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> writer().delete(bad))
                    .as("delete %s", bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> store.list("../")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.list("/p")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void longestValidNameRoundTrips() throws IOException {
        StringBuilder name = new StringBuilder();
        while (name.length() < BlobNames.MAX_LENGTH) {
            name.append(name.length() % 101 == 100 ? '/' : (char) ('a' + name.length() % 26));
        }
        String longest = name.toString();
        assertThat(longest).hasSize(BlobNames.MAX_LENGTH);
        writer().put(longest, BlobContent.of(new byte[] {7}));

        assertThat(readAll(longest)).containsExactly(7);
        assertThat(names(longest.substring(0, 200))).containsExactly(longest);
    }

    @Test
    void describeNamesTheStore() {
        assertThat(store.describe()).isNotBlank();
    }

    /** The whole blob. */
    protected byte[] readAll(String name) throws IOException {
        return read(name, 0, -1);
    }

    /** What {@link BlobStore#get} returns for the range, read to the end. */
    protected byte[] read(String name, long offset, long length) throws IOException {
        try (InputStream in = store.get(name, offset, length)) {
            return in.readAllBytes();
        }
    }

    /** Names listed under {@code prefix}, in listing order. */
    protected List<String> names(String prefix) throws IOException {
        try (BlobListing listing = store.list(prefix)) {
            return listing.toList().stream().map(BlobInfo::name).collect(Collectors.toList());
        }
    }
}
