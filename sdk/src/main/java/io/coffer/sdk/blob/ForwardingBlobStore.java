package io.coffer.sdk.blob;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link BlobStore} that passes every call to another one, for decorators that change one concern and inherit the
 * rest (Guava's {@code Forwarding*} pattern). It forwards {@link #readInto} too, so that a store's own faster reads
 * (a directory's positional reads, S3's direct ranged GET) survive decoration; {@link #read} is left to its default,
 * which reads through this decorator's {@code readInto}.
 */
public abstract class ForwardingBlobStore implements BlobStore {

    private final BlobStore delegate;

    protected ForwardingBlobStore(BlobStore delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The store calls are passed to. */
    public BlobStore delegate() {
        return delegate;
    }

    @Override
    public void put(String name, BlobContent content) throws IOException {
        delegate.put(name, content);
    }

    @Override
    public InputStream get(String name, long offset, long length) throws IOException {
        return delegate.get(name, offset, length);
    }

    @Override
    public void readInto(String name, long offset, byte[] dst, int dstOffset, int length) throws IOException {
        delegate.readInto(name, offset, dst, dstOffset, length);
    }

    /**
     * Forwards a read that tells its progress only to this class's own {@link #readInto(String, long, byte[], int,
     * int)} (the interface's default), so that a decorator which overrides that one sees every read; a decorator that
     * keeps the store's progress forwards this one itself.
     */
    @Override
    public void readInto(String name, long offset, byte[] dst, int dstOffset, int length, Progress progress)
            throws IOException {
        BlobStore.super.readInto(name, offset, dst, dstOffset, length, progress);
    }

    /** For decorators that keep the store's progress: the delegate's read that tells it. */
    protected final void delegateReadInto(String name, long offset, byte[] dst, int dstOffset, int length,
            Progress progress) throws IOException {
        delegate.readInto(name, offset, dst, dstOffset, length, progress);
    }

    @Override
    public Optional<BlobInfo> head(String name) throws IOException {
        return delegate.head(name);
    }

    @Override
    public void delete(String name) throws IOException {
        delegate.delete(name);
    }

    @Override
    public BlobListing list(String prefix) throws IOException {
        return delegate.list(prefix);
    }

    @Override
    public void prepareFolders(Collection<String> prefixes) throws IOException {
        delegate.prepareFolders(prefixes);
    }

    @Override
    public String describe() {
        return delegate.describe();
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
