package io.coffer.por.store;

import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobNotFoundException;
import io.coffer.sdk.blob.BlobStore;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * U's blocks as objects of a {@link BlobStore} (a bucket through the sdk's S3 store): block i is
 * {@code <prefix>u/<i>}. A put is durable when it returns, so {@link #force} has nothing to do. A block that is gone
 * from the bucket reads as null and counts as lost: reads report it, a C rebuild waits for repair to decode it.
 */
final class BlobUBlocks implements UBlocks {
    private final BlobStore objects;
    private final String prefix;
    private final int blockBytes;

    BlobUBlocks(BlobStore objects, String prefix, int blockBytes) {
        this.objects = objects;
        this.prefix = prefix;
        this.blockBytes = blockBytes;
    }

    @Override
    public byte[] read(int index) {
        try {
            return objects.read(name(index), 0, blockBytes);
        } catch (BlobNotFoundException e) {
            return null; // deleted from the bucket: lost, for repair to decode
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot read " + name(index) + " from "
                    + objects.describe(), e);
        }
    }

    @Override
    public boolean present(int index) {
        try {
            return objects.head(name(index)).isPresent();
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot look up " + name(index) + " in "
                    + objects.describe(), e);
        }
    }

    @Override
    public void write(int index, byte[] block) {
        try {
            objects.put(name(index), BlobContent.of(block.clone()));
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot write " + name(index) + " to "
                    + objects.describe(), e);
        }
    }

    @Override
    public void force() {
        // every put is durable when it returns
    }

    @Override
    public void close() {
        // the caller owns the blob store
    }

    private String name(int index) {
        return prefix + "u/" + index;
    }
}
