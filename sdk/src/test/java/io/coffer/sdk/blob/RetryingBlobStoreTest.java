package io.coffer.sdk.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The contract over {@link RetryingBlobStore}, and which failures it tries again, how often, and which it does not. */
class RetryingBlobStoreTest extends BlobStoreContractTest {

    private static final byte[] DATA = {1, 2, 3, 4, 5};

    private final MemoryBlobStore memory = new MemoryBlobStore("test");
    private final FaultyBlobStore faulty = new FaultyBlobStore(memory);
    private final RetryingBlobStore retrying = retrying(faulty);

    @Override
    protected BlobStore createStore() {
        return retrying(new MemoryBlobStore("test"));
    }

    private static RetryingBlobStore retrying(BlobStore delegate) {
        return new RetryingBlobStore(delegate, 3, Duration.ofMillis(1), Duration.ofMillis(4));
    }

    @Test
    void transientPutFailuresAreTriedAgainUntilOneSucceeds() throws IOException {
        faulty.failNextPuts(2);

        retrying.put("p/a", BlobContent.of(DATA));

        assertThat(memory.read("p/a", 0, DATA.length)).isEqualTo(DATA);
        assertThat(faulty.calls()).isEqualTo(3);
    }

    @Test
    void triesAreBoundedAndTheLastFailureSurfaces() {
        faulty.failNextPuts(10);

        assertThatThrownBy(() -> retrying.put("p/a", BlobContent.of(DATA))).isInstanceOf(IOException.class)
                .hasMessageContaining("injected fault");

        assertThat(faulty.calls()).isEqualTo(3);
        assertThat(memory.size()).isZero();
    }

    @Test
    void aPutWhoseAnswerWasLostIsTriedAgainHarmlessly() throws IOException {
        faulty.failNextPutsAfterWrite(1);

        retrying.put("p/a", BlobContent.of(DATA));

        assertThat(faulty.calls()).isEqualTo(2);
        assertThat(memory.read("p/a", 0, DATA.length)).isEqualTo(DATA);
    }

    @Test
    void readsHeadsDeletesAndListingsAreTriedAgain() throws IOException {
        memory.put("p/a", BlobContent.of(DATA));
        faulty.failNextGets(2).failNext(FaultyBlobStore.Operation.HEAD, 2)
                .failNext(FaultyBlobStore.Operation.LIST, 2).failNext(FaultyBlobStore.Operation.DELETE, 2);

        assertThat(retrying.read("p/a", 1, 3)).containsExactly(2, 3, 4);
        assertThat(retrying.head("p/a")).map(BlobInfo::size).contains(5L);
        assertThat(retrying.list("p/").toList()).extracting(BlobInfo::name).containsExactly("p/a");
        retrying.delete("p/a");

        assertThat(faulty.calls()).isEqualTo(12);
        assertThat(memory.size()).isZero();
    }

    @Test
    void aReadThatTellsItsProgressIsTriedAgainFromWhereItBrokeOff() throws IOException {
        byte[] data = new byte[1000];
        new Random(3).nextBytes(data);
        memory.put("p/a", BlobContent.of(data));
        List<long[]> tries = new ArrayList<>();
        BlobStore breaksOnce = new ForwardingBlobStore(memory) {
            @Override
            public void readInto(String name, long offset, byte[] dst, int dstOffset, int length, Progress progress)
                    throws IOException {
                tries.add(new long[] {offset, dstOffset, length});
                delegate().readInto(name, offset, dst, dstOffset, tries.size() == 1 ? 300 : length);
                progress.arrived(tries.size() == 1 ? 300 : length);
                if (tries.size() == 1) {
                    throw new SocketTimeoutException("read timed out after 300 bytes");
                }
            }
        };
        byte[] into = new byte[910];
        List<Integer> counts = new ArrayList<>();

        retrying(breaksOnce).readInto("p/a", 100, into, 10, 900, counts::add);

        assertThat(tries).containsExactly(new long[] {100, 10, 900}, new long[] {400, 310, 600});
        assertThat(counts).containsExactly(300, 900);
        assertThat(Arrays.copyOfRange(into, 10, 910)).isEqualTo(Arrays.copyOfRange(data, 100, 1000));
    }

    @Test
    void aMissingBlobIsAnAnswerAndAskedOnce() {
        assertThatThrownBy(() -> retrying.get("p/missing", 0, -1)).isInstanceOf(BlobNotFoundException.class);
        assertThatThrownBy(() -> retrying.read("p/missing", 0, 1)).isInstanceOf(BlobNotFoundException.class);

        assertThat(faulty.calls()).isEqualTo(2);
    }

    @Test
    void aBlobShorterThanTheReadIsAnAnswerAndAskedOnce() throws IOException {
        memory.put("p/a", BlobContent.of(DATA));

        assertThatThrownBy(() -> retrying.read("p/a", 3, 10)).isInstanceOf(EOFException.class);

        assertThat(faulty.calls()).isEqualTo(1);
    }

    @Test
    void aPutWhoseContentFailsIsNotTriedAgain() {
        assertThatThrownBy(() -> retrying.put("p/a", TestContents.failingAfter(1000, 500)))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> retrying.put("p/b", TestContents.mislabelled(1000, 500)))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> retrying.put("p/c", TestContents.mislabelled(500, 1000)))
                .isInstanceOf(IOException.class);

        assertThat(faulty.calls()).isEqualTo(3);
        assertThat(memory.size()).isZero();
    }

    @Test
    void aRefusedWriteIsNotTriedAgain() {
        FaultyBlobStore overReadOnly = new FaultyBlobStore(new ReadOnlyBlobStore(memory));
        RetryingBlobStore store = retrying(overReadOnly);

        assertThatThrownBy(() -> store.put("p/a", BlobContent.of(DATA)))
                .isInstanceOf(ReadOnlyBlobStoreException.class);
        assertThatThrownBy(() -> store.delete("p/a")).isInstanceOf(ReadOnlyBlobStoreException.class);

        assertThat(overReadOnly.calls()).isEqualTo(2);
    }

    @Test
    void invalidNamesAreNotTriedAgain() {
        assertThatThrownBy(() -> retrying.put("../a", BlobContent.of(DATA)))
                .isInstanceOf(IllegalArgumentException.class);

        assertThat(faulty.calls()).isEqualTo(1);
    }

    @Test
    void aStreamThatFailsWhileReadIsNotReopened() throws IOException {
        memory.put("p/a", BlobContent.of(DATA));
        AtomicInteger gets = new AtomicInteger();
        BlobStore breaksMidStream = new ForwardingBlobStore(memory) {
            @Override
            public InputStream get(String name, long offset, long length) throws IOException {
                gets.incrementAndGet();
                return new FailsAfterOneByte(super.get(name, offset, length));
            }
        };
        RetryingBlobStore store = retrying(breaksMidStream);

        try (InputStream in = store.get("p/a", 0, -1)) {
            assertThat(in.read()).isEqualTo(1);
            assertThatThrownBy(in::read).isInstanceOf(IOException.class).hasMessageContaining("connection reset");
        }

        assertThat(gets).hasValue(1);
    }

    @Test
    void anInterruptedThreadStopsTrying() {
        faulty.failNextPuts(2);
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> retrying.put("p/a", BlobContent.of(DATA))).isInstanceOf(IOException.class);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }

        assertThat(faulty.calls()).isEqualTo(1);
    }

    @Test
    void answersAndInterruptsAreNotTransientOtherFailuresAre() {
        assertThat(RetryingBlobStore.isTransient(new IOException("disk hiccup"))).isTrue();
        assertThat(RetryingBlobStore.isTransient(new SocketTimeoutException("read timed out"))).isTrue();
        assertThat(RetryingBlobStore.isTransient(new BlobNotFoundException("p/a"))).isFalse();
        assertThat(RetryingBlobStore.isTransient(new NoSuchFileException("p/a"))).isFalse();
        assertThat(RetryingBlobStore.isTransient(new FileNotFoundException("p/a"))).isFalse();
        assertThat(RetryingBlobStore.isTransient(new EOFException())).isFalse();
        assertThat(RetryingBlobStore.isTransient(new AccessDeniedException("p/a"))).isFalse();
        assertThat(RetryingBlobStore.isTransient(new InterruptedIOException())).isFalse();
        assertThat(RetryingBlobStore.isTransient(new ClosedByInterruptException())).isFalse();
        assertThat(RetryingBlobStore.isTransient(new ReadOnlyBlobStoreException("put", "p/a", "memory:x")))
                .isFalse();
    }

    @Test
    void theLongestWaitDoublesPerTryUpToTheMax() {
        RetryingBlobStore store = new RetryingBlobStore(memory, 50, Duration.ofMillis(10), Duration.ofMillis(100));
        RetryingBlobStore hours = new RetryingBlobStore(memory, 50, Duration.ofHours(1), Duration.ofDays(1));

        assertThat(List.of(1, 2, 3, 4, 5, 49)).map(store::backoffCap).map(Duration::ofNanos).containsExactly(
                Duration.ofMillis(10), Duration.ofMillis(20), Duration.ofMillis(40), Duration.ofMillis(80),
                Duration.ofMillis(100), Duration.ofMillis(100));
        assertThat(hours.backoffCap(49)).isEqualTo(Duration.ofDays(1).toNanos());
        assertThat(new RetryingBlobStore(memory, 5, Duration.ZERO, Duration.ZERO).backoffCap(4)).isZero();
    }

    @Test
    void settingsAreChecked() {
        assertThatThrownBy(() -> new RetryingBlobStore(memory, 0, Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RetryingBlobStore(memory, 2, Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(retrying.describe()).isEqualTo("faulty(memory:test)");
    }

    /** Delivers one byte, then fails as a dropped connection would. */
    private static final class FailsAfterOneByte extends FilterInputStream {
        private int delivered;

        FailsAfterOneByte(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            if (delivered++ > 0) {
                throw new IOException("connection reset");
            }
            return super.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int c = read();
            if (c < 0) {
                return -1;
            }
            b[off] = (byte) c;
            return 1;
        }
    }
}
