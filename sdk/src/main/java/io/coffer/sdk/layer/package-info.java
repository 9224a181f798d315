/**
 * Configuration of SimEnc's layer mode (issue 20): which buckets keep reproducible gzip objects in the partially
 * decoded space, chunked and keyed by similarity, and the split of a layer's tar into metadata and bodies
 * ({@code TarSplit}). The write and read paths are in {@code io.coffer.sdk.engine}
 * ({@code LayerWriter}, {@code LayerReader}); docs/FORMAT.md, "Layer-mode objects", describes what is stored.
 */
package io.coffer.sdk.layer;
