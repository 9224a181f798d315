package io.coffer.gateway.s3.sse;

import io.coffer.sdk.KmsKey;
import io.coffer.sdk.ObjectAttributes;

/**
 * Where SSE-KMS keys come from: a local keyring ({@link KmsKeyring}) or a KMS ({@link KmsServiceKeys}); one or the
 * other, never both (docs/OPERATIONS.md, "SSE-KMS keyring" and "SSE-KMS through a KMS").
 */
public interface KmsKeySource extends AutoCloseable {
    /** Whether SSE-KMS requests are served at all (false: they get 501 NotImplemented). */
    boolean configured();

    /**
     * Refuses, with S3's error, a key id (null: the default key) that writes could not use: for a bucket's default
     * encryption, checked when it is set rather than on every later PUT.
     */
    void checkWritable(String requested);

    /**
     * The key a write stores under, for key id {@code requested} (null: the default key) in the bucket whose data-key
     * records are {@code records}; S3's error (400 KMS.NotFoundException, KMS.DisabledException, 503 when a KMS cannot
     * be reached) otherwise, before anything is written.
     */
    KmsKey forWrite(String requested, DataKeyRecords records);

    /** The key an object (or upload) with these attributes, stamped by {@link KmsKey#stamp}, reads with. */
    KmsKey forRead(ObjectAttributes attributes);

    /** Releases what reaching the keys holds (a KMS client's connections); nothing for a keyring. */
    @Override
    default void close() {
    }
}
