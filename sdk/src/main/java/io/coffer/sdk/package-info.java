/**
 * Coffer's embeddable storage engine: the public API ({@link io.coffer.sdk.Coffer}) that stores objects as
 * encrypted, deduplicated chunks on a {@link io.coffer.sdk.blob.BlobStore}.
 *
 * <p>Embedders use these packages, whose public signatures name no type of any other sdk package
 * ({@code ExportedPackagesTest} checks it):
 * <ul>
 *   <li>{@code io.coffer.sdk}: the API, its requests, results and errors;</li>
 *   <li>{@code io.coffer.sdk.blob}: the {@code BlobStore} backends and their decorators;</li>
 *   <li>{@code io.coffer.sdk.meta} and {@code io.coffer.sdk.meta.jdbc}: the {@code MetadataStore} and its SQLite and
 *       PostgreSQL implementation;</li>
 *   <li>{@code io.coffer.sdk.key}: the {@code KeySource}s and the dedup policy;</li>
 *   <li>{@code io.coffer.sdk.crypto}, {@code io.coffer.sdk.chunk}, {@code io.coffer.sdk.checksum}: the master key,
 *       chunkers and checksum algorithms the builder and the API take (and the chunk ids the metadata store holds).</li>
 *   <li>{@code io.coffer.sdk.layer}: the layer-mode setting ({@code LayerModePolicy}) the builder takes.</li>
 * </ul>
 * {@code engine}, {@code manifest}, {@code pack}, {@code codec} and {@code digest} (the bodies' MD5) are the engine's
 * insides, {@code vector} the choice of Vector API kernels (the engine's and PoR's), and {@code deflate} (partial gzip
 * decoding) and {@code similarity} (SimEnc's similarity keys) the layer mode's; all may change in any release.
 */
package io.coffer.sdk;
