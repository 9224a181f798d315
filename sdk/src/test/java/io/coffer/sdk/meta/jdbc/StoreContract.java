package io.coffer.sdk.meta.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.meta.NewChunks;
import java.util.OptionalLong;

/** The store under test and the setup steps the metadata store's contract interfaces share. */
interface StoreContract {
    /** The store under test. */
    JdbcMetadataStore metadata();

    default void bucket(String name) {
        metadata().createBucket(new Bucket(name, "alice", "us-east-1", MetadataStoreContractTest.T0));
    }

    default void put(String bucket, String key, String version, int... chunks) {
        metadata().commitObject(MetadataStoreContractTest.object(bucket, key, version, chunks), NewChunks.NONE,
                Precondition.NONE, null);
    }

    default long refs(int n) {
        OptionalLong refs = metadata().refCount(MetadataStoreContractTest.id(n));
        assertThat(refs).as("chunk %d is indexed", n).isPresent();
        return refs.getAsLong();
    }
}
