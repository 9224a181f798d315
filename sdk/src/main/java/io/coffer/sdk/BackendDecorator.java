package io.coffer.sdk;

import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.MetadataStore;
import java.io.IOException;

/**
 * Wraps the backend once the builder has made its defaults, with access to the metadata store and the master key:
 * for a decorator that keeps its own map in the metadata database and its own keys (the PoR store of module
 * {@code por}). The engine sees the returned store, inside its metering.
 */
@FunctionalInterface
public interface BackendDecorator {
    BlobStore decorate(BlobStore backend, MetadataStore metadata, MasterKey key) throws IOException;
}
