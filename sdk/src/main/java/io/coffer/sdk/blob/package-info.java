/**
 * Flat blob storage the engine writes packs and manifests to: a local directory, S3, or memory, and decorators over any
 * of them ({@link io.coffer.sdk.blob.ForwardingBlobStore}) that add one concern each: retries, metrics, a read-only
 * view.
 */
package io.coffer.sdk.blob;
