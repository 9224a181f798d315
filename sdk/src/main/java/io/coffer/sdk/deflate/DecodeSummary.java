package io.coffer.sdk.deflate;

/**
 * What one partial decoding read and wrote.
 *
 * @param compressedBytes   gzip bytes read (the whole input, trailing bytes included)
 * @param uncompressedBytes the decompressed size of all members (literals plus match lengths)
 * @param tokenBytes        bytes of the token stream
 * @param sideInfoBytes     bytes of the side information
 * @param members           gzip members
 * @param storedBlocks      stored blocks
 * @param fixedBlocks       fixed-Huffman blocks
 * @param dynamicBlocks     dynamic-Huffman blocks
 * @param trailingBytes     bytes after the last member kept as they came
 * @param feature           the layer's literal/length code-length vector
 */
public record DecodeSummary(long compressedBytes, long uncompressedBytes, long tokenBytes, long sideInfoBytes,
                            int members, long storedBlocks, long fixedBlocks, long dynamicBlocks, long trailingBytes,
                            HuffmanTreeFeature feature) {
}
