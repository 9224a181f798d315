/**
 * SimEnc's similarity-preserving keys for the layer mode (internal; may change in any release): chunk sketches
 * ({@link io.coffer.sdk.similarity.Sketcher}, {@link io.coffer.sdk.similarity.FinesseSketcher}), the LSH-MLE baseline's
 * FirstFit matching ({@link io.coffer.sdk.similarity.FirstFitIndex}), Algorithm 1's adaptive-epsilon DBSCAN in Hamming
 * space ({@link io.coffer.sdk.similarity.SimilarityClustering}), the online assignment of new chunks to clusters
 * ({@link io.coffer.sdk.similarity.ClusterIndex}), one key per cluster through the key source
 * ({@link io.coffer.sdk.similarity.ClusterKeyring}), and the choice of space per layer
 * ({@link io.coffer.sdk.similarity.LayerSpacePolicy}, {@link io.coffer.sdk.similarity.HuffmanBloomFilter}).
 *
 * <p>Paper: SimEnc (§4.2 fast similarity space selection, §4.3 Algorithm 1, §5 baselines). The learned semantic hash
 * of the paper is not built: {@link io.coffer.sdk.similarity.FinesseSketcher} gives a one-permutation MinHash bit code
 * in its place, whose Hamming distance estimates the chunks' resemblance; a learned hash can implement
 * {@link io.coffer.sdk.similarity.Sketcher} later.
 */
package io.coffer.sdk.similarity;
