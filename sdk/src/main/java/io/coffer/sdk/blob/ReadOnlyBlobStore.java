package io.coffer.sdk.blob;

import java.io.IOException;
import java.util.Collection;

/**
 * A view of a store that reads and never writes, for fsck, audits and tools that must not change a backend: every
 * {@link #put} and {@link #delete} is refused with a {@link ReadOnlyBlobStoreException} before it reaches the store.
 * {@link #prepareFolders} is a hint that may be ignored, so it does nothing here rather than create folders.
 */
public final class ReadOnlyBlobStore extends ForwardingBlobStore {

    public ReadOnlyBlobStore(BlobStore delegate) {
        super(delegate);
    }

    @Override
    public void put(String name, BlobContent content) throws IOException {
        throw new ReadOnlyBlobStoreException("put", name, describe());
    }

    @Override
    public void delete(String name) throws IOException {
        throw new ReadOnlyBlobStoreException("delete", name, describe());
    }

    @Override
    public void readInto(String name, long offset, byte[] dst, int dstOffset, int length, Progress progress)
            throws IOException {
        delegateReadInto(name, offset, dst, dstOffset, length, progress);
    }

    @Override
    public void prepareFolders(Collection<String> prefixes) {
        // a hint, not a request: a read-only view creates nothing
    }

    @Override
    public String describe() {
        return "read-only(" + delegate().describe() + ")";
    }
}
