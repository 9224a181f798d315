/**
 * Coffer's embeddable storage engine: the public API ({@link io.coffer.sdk.Coffer}) that stores objects as
 * encrypted, deduplicated chunks on a {@link io.coffer.sdk.blob.BlobStore}.
 */
package io.coffer.sdk;
