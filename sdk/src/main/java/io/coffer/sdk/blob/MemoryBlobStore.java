package io.coffer.sdk.blob;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A {@link BlobStore} held in memory, for tests and benchmarks: blobs live in a {@link ConcurrentSkipListMap}, and
 * bytes are copied on the way in and on the way out so that callers can never alias stored data. Nothing is durable.
 */
public final class MemoryBlobStore implements BlobStore {

    private static final String DESCRIPTION_PREFIX = "memory:";

    private final ConcurrentSkipListMap<String, Stored> blobs = new ConcurrentSkipListMap<>();
    private final String label;

    /** An empty store. */
    public MemoryBlobStore() {
        this("default");
    }

    /** An empty store whose {@link #describe()} names it {@code label}. */
    public MemoryBlobStore(String label) {
        this.label = Objects.requireNonNull(label, "label");
    }

    @Override
    public void put(String name, BlobContent content) throws IOException {
        BlobNames.requireValid(name);
        Objects.requireNonNull(content, "content");
        long declared = content.length();
        if (declared < 0 || declared > Integer.MAX_VALUE - 8) {
            throw new IOException("blob " + name + " of " + declared + " bytes does not fit a memory store");
        }
        byte[] bytes;
        try (InputStream in = content.open()) {
            bytes = in.readNBytes((int) declared);
            if (bytes.length != declared || in.read() >= 0) {
                throw new IOException("content of blob " + name + " does not have its declared length " + declared);
            }
        }
        blobs.put(name, new Stored(bytes, Instant.now()));
    }

    @Override
    public InputStream get(String name, long offset, long length) throws IOException {
        BlobNames.checkGet(name, offset);
        Stored stored = blobs.get(name);
        if (stored == null) {
            throw new BlobNotFoundException(name);
        }
        int size = stored.bytes.length;
        int from = (int) Math.min(offset, size);
        int to = length < 0 ? size : (int) Math.min(size, from + Math.min(length, size));
        return new ByteArrayInputStream(Arrays.copyOfRange(stored.bytes, from, to));
    }

    @Override
    public Optional<BlobInfo> head(String name) {
        BlobNames.requireValid(name);
        Stored stored = blobs.get(name);
        return stored == null ? Optional.empty() : Optional.of(stored.info(name));
    }

    @Override
    public void delete(String name) {
        BlobNames.requireValid(name);
        blobs.remove(name);
    }

    @Override
    public BlobListing list(String prefix) {
        BlobNames.requireValidPrefix(prefix);
        return () -> new PrefixIterator(blobs.tailMap(prefix, true).entrySet().iterator(), prefix);
    }

    /** Number of blobs held. */
    public int size() {
        return blobs.size();
    }

    @Override
    public String describe() {
        return DESCRIPTION_PREFIX + label;
    }

    /** One stored blob: its bytes, never handed out, and when it was put. */
    private record Stored(byte[] bytes, Instant lastModified) {
        BlobInfo info(String name) {
            return new BlobInfo(name, bytes.length, lastModified);
        }
    }

    /** Walks a tail map until the first key without the prefix. */
    private static final class PrefixIterator implements Iterator<BlobInfo> {
        private final Iterator<Map.Entry<String, Stored>> entries;
        private final String prefix;
        private BlobInfo next;
        private boolean done;

        PrefixIterator(Iterator<Map.Entry<String, Stored>> entries, String prefix) {
            this.entries = entries;
            this.prefix = prefix;
        }

        @Override
        public boolean hasNext() {
            if (next == null && !done) {
                if (entries.hasNext()) {
                    Map.Entry<String, Stored> e = entries.next();
                    if (e.getKey().startsWith(prefix)) {
                        next = e.getValue().info(e.getKey());
                    } else {
                        done = true;
                    }
                } else {
                    done = true;
                }
            }
            return next != null;
        }

        @Override
        public BlobInfo next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            BlobInfo result = next;
            next = null;
            return result;
        }
    }
}
