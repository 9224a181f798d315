package io.coffer.sdk.blob;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A test decorator that injects failures into a {@link BlobStore} on demand, for engine fault tests: failing the next
 * N calls of an operation with an {@link IOException}, storing a blob and then reporting failure, or corrupting what
 * the next gets return (one byte flipped, or the data cut in half), or holding a put back until the test lets it go.
 * Faults not armed pass calls straight through: with none armed it passes the blob store contract.
 */
public final class FaultyBlobStore extends ForwardingBlobStore {

    /** The operations whose next calls can be made to fail. */
    public enum Operation { PUT, GET, HEAD, DELETE, LIST }

    private static final String INJECTED = "injected fault: ";

    private final AtomicInteger[] failures = new AtomicInteger[Operation.values().length];
    private final AtomicInteger putsFailingAfterWrite = new AtomicInteger();
    private final AtomicInteger corruptedGets = new AtomicInteger();
    private final AtomicInteger truncatedGets = new AtomicInteger();
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicReference<Hold> held = new AtomicReference<>();
    private final AtomicReference<String> errorPrefix = new AtomicReference<>();

    /** Wraps {@code delegate}, with no fault armed. */
    public FaultyBlobStore(BlobStore delegate) {
        super(delegate);
        for (int i = 0; i < failures.length; i++) {
            failures[i] = new AtomicInteger();
        }
    }

    /** The next {@code n} calls of {@code operation} throw an {@link IOException} without reaching the store. */
    public FaultyBlobStore failNext(Operation operation, int n) {
        failures[operation.ordinal()].set(n);
        return this;
    }

    /** The next {@code n} puts throw an {@link IOException} without storing anything. */
    public FaultyBlobStore failNextPuts(int n) {
        return failNext(Operation.PUT, n);
    }

    /** The next {@code n} gets throw an {@link IOException}. */
    public FaultyBlobStore failNextGets(int n) {
        return failNext(Operation.GET, n);
    }

    /** The next {@code n} puts store the blob, then throw an {@link IOException}, as a lost response would. */
    public FaultyBlobStore failNextPutsAfterWrite(int n) {
        putsFailingAfterWrite.set(n);
        return this;
    }

    /** The next {@code n} non-empty gets return their data with the first byte's bits inverted. */
    public FaultyBlobStore corruptNextGets(int n) {
        corruptedGets.set(n);
        return this;
    }

    /** The next {@code n} gets return only the first half (rounded down) of their data. */
    public FaultyBlobStore truncateNextGets(int n) {
        truncatedGets.set(n);
        return this;
    }

    /** A put held back: {@code reached} opens when it arrives, and it goes on once {@code release} opens. */
    public record Hold(String prefix, CountDownLatch reached, CountDownLatch release) {
    }

    /**
     * The next put of a blob whose name starts with {@code prefix} waits, before it reaches the store, until the
     * returned hold's {@code release} is counted down (a slow backend, at a moment the test chooses).
     */
    public Hold holdNextPut(String prefix) {
        Hold hold = new Hold(prefix, new CountDownLatch(1), new CountDownLatch(1));
        held.set(hold);
        return hold;
    }

    /**
     * The next put of a blob whose name starts with {@code prefix} throws an {@link AssertionError} (an Error, as a
     * bug in a backend client would) without reaching the store.
     */
    public FaultyBlobStore errorOnNextPut(String prefix) {
        errorPrefix.set(prefix);
        return this;
    }

    /** Disarms every fault. */
    public FaultyBlobStore reset() {
        for (AtomicInteger f : failures) {
            f.set(0);
        }
        putsFailingAfterWrite.set(0);
        corruptedGets.set(0);
        truncatedGets.set(0);
        errorPrefix.set(null);
        Hold hold = held.getAndSet(null);
        if (hold != null) {
            hold.release().countDown();
        }
        return this;
    }

    /** How many calls reached this decorator, failed ones included. */
    public int calls() {
        return calls.get();
    }

    @Override
    public void put(String name, BlobContent content) throws IOException {
        maybeFail(Operation.PUT, name);
        String errorAt = errorPrefix.get();
        if (errorAt != null && name.startsWith(errorAt) && errorPrefix.compareAndSet(errorAt, null)) {
            throw new AssertionError(INJECTED + "put " + name + " died of an Error");
        }
        Hold hold = held.get();
        if (hold != null && name.startsWith(hold.prefix()) && held.compareAndSet(hold, null)) {
            hold.reached().countDown();
            try {
                hold.release().await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("held put interrupted");
            }
        }
        super.put(name, content);
        if (take(putsFailingAfterWrite)) {
            throw new IOException(INJECTED + "put " + name + " stored, then failed");
        }
    }

    @Override
    public InputStream get(String name, long offset, long length) throws IOException {
        maybeFail(Operation.GET, name);
        InputStream in = super.get(name, offset, length);
        boolean corrupt = corruptedGets.get() > 0;
        boolean truncate = truncatedGets.get() > 0;
        if (!corrupt && !truncate) {
            return in;
        }
        byte[] data;
        try (in) {
            data = in.readAllBytes();
        }
        if (take(truncatedGets)) {
            data = Arrays.copyOf(data, data.length / 2);
        }
        if (data.length > 0 && take(corruptedGets)) {
            data[0] ^= (byte) 0xff;
        }
        return new ByteArrayInputStream(data);
    }

    /** Reads through {@link #get}, so that the faults armed for gets apply to reads into arrays too. */
    @Override
    public void readInto(String name, long offset, byte[] dst, int dstOffset, int length) throws IOException {
        try (InputStream in = get(name, offset, length)) {
            int got = in.readNBytes(dst, dstOffset, length);
            if (got != length) {
                throw new EOFException("blob " + name + " has " + got + " of " + length + " bytes at " + offset);
            }
        }
    }

    @Override
    public Optional<BlobInfo> head(String name) throws IOException {
        maybeFail(Operation.HEAD, name);
        return super.head(name);
    }

    @Override
    public void delete(String name) throws IOException {
        maybeFail(Operation.DELETE, name);
        super.delete(name);
    }

    @Override
    public BlobListing list(String prefix) throws IOException {
        maybeFail(Operation.LIST, prefix);
        return super.list(prefix);
    }

    @Override
    public String describe() {
        return "faulty(" + super.describe() + ")";
    }

    private void maybeFail(Operation operation, String name) throws IOException {
        calls.incrementAndGet();
        if (take(failures[operation.ordinal()])) {
            throw new IOException(INJECTED + operation.name().toLowerCase(Locale.ROOT) + " " + name);
        }
    }

    /** Consumes one armed fault if any is left. */
    private static boolean take(AtomicInteger remaining) {
        return remaining.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
    }
}
