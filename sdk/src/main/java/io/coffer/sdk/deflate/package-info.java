/**
 * SimEnc's partially decoded space for gzip objects (issue 20): {@link io.coffer.sdk.deflate.PartialDecoder} stops
 * after Huffman decoding and writes LZ77 tokens plus side information, {@link io.coffer.sdk.deflate.PartialEncoder}
 * re-creates the original gzip bytes bit-exactly from them, {@link io.coffer.sdk.deflate.ReproducibilityVerifier}
 * checks that at PUT time, and {@link io.coffer.sdk.deflate.HuffmanTreeFeature} is a layer's 286-entry code-length
 * vector. The byte formats are in docs/FORMAT.md, "Partially decoded gzip (layer mode)". Internal: not part of the
 * embedder's API.
 */
package io.coffer.sdk.deflate;
