package io.coffer.sdk.engine;

import io.coffer.sdk.blob.BoundedInputStream;
import io.coffer.sdk.chunk.FastCdcChunker;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.deflate.DeflateFormatException;
import io.coffer.sdk.deflate.HuffmanTreeFeature;
import io.coffer.sdk.deflate.PartialDecoder;
import io.coffer.sdk.deflate.ReproducibilityVerifier;
import io.coffer.sdk.deflate.Verdict;
import io.coffer.sdk.deflate.ZlibRecipe;
import io.coffer.sdk.deflate.ZlibRecipeFinder;
import io.coffer.sdk.layer.LayerModePolicy;
import io.coffer.sdk.layer.TarSplit;
import io.coffer.sdk.manifest.ManifestEntry;
import io.coffer.sdk.similarity.ChunkSketch;
import io.coffer.sdk.similarity.FinesseSketcher;
import io.coffer.sdk.similarity.LayerSpacePolicy;
import io.coffer.sdk.similarity.NeighbourKeys;
import io.coffer.sdk.similarity.Sketcher;
import io.coffer.sdk.similarity.SubChunkKeys;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The layer-mode write path (SimEnc, docs/FORMAT.md "Layer-mode objects") for a gzip object already spilled to a
 * file: checks that its partial decoding re-encodes to exactly its bytes, asks the bucket's policy which space it
 * belongs to, and if that is the partially decoded space writes the side information as ordinary chunks and the
 * token stream as 512 KiB chunks, each sketched and assigned to a cluster whose key encrypts its FastCDC
 * sub-chunks. Anything else is left to the ordinary path (the caller stores the spilled file as it came).
 *
 * <p>A sub-chunk's chunk key is HMAC-SHA256(cluster key, label || SHA-256 of the sub-chunk): a synthetic key in the
 * manner of SIV ({@link SubChunkKeys}), so equal sub-chunks under one cluster key give equal ciphertexts
 * (deduplicated by the chunk id derived from the key) and unequal ones never share a key and nonce. The chunk is then
 * sealed as every chunk is (format 3: compressed where it pays, AES-GCM). The manifest entries of sub-chunks carry
 * their cluster key, so the manifest stores them as cluster index, hash and length (FORMAT.md "Manifests").
 * Memory: the 512 KiB chunk being cut and the writer's packs; the temporary files hold the token stream and side
 * information, or the decompressed bytes and their tar split (twice the decompressed size on disk while it is
 * written).
 */
final class LayerWriter {
    private static final Logger LOG = LoggerFactory.getLogger(LayerWriter.class);

    private final EngineContext ctx;
    private final LayerModePolicy policy;
    private final Sketcher sketcher = new FinesseSketcher();
    private final ReproducibilityVerifier verifier = new ReproducibilityVerifier();
    private final ZlibRecipeFinder recipes = new ZlibRecipeFinder();

    LayerWriter(EngineContext ctx, LayerModePolicy policy) {
        this.ctx = ctx;
        this.policy = policy;
    }

    /** What a layer became: the writer holding its packs, what it wrote, and how many entries are side info. */
    record Written(ObjectWriter writer, ObjectWriter.Result result, int sideEntries) {
    }

    /**
     * Writes {@code original} (a spilled gzip object of {@code size} bytes with MD5 {@code md5}) in the partially
     * decoded space if it is reproducible and the bucket's policy puts it there; null when it is to be stored as it
     * came.
     */
    Written write(LayerState state, String bucket, String key, Path original, long size, byte[] md5)
            throws IOException {
        Path decompressed = Files.createTempFile("coffer-layer-", ".data");
        Path split = null;
        try {
            Optional<ZlibRecipe> recipe = policy.zlibRecipes() ? recipes.find(original, size, decompressed)
                    : Optional.empty();
            if (recipe.isPresent()) {
                if (state.decide(key, featureVector(original)) != LayerSpacePolicy.Space.PARTIALLY_DECODED) {
                    return null;
                }
                split = Files.createTempFile("coffer-layer-", ".split");
                long metadata = TarSplit.split(decompressed, split);
                if (metadata > 0 && joinsBack(split, metadata, decompressed)) {
                    return writeDecoded(state, bucket, key,
                            new ByteArrayInputStream(recipe.get().withTarMetadata(metadata).toBytes()), split,
                            LayerModePolicy.DECOMPRESSED_SUB_CHUNK_AVERAGE, metadata, size, md5);
                }
                return writeDecoded(state, bucket, key, new ByteArrayInputStream(recipe.get().toBytes()), decompressed,
                        LayerModePolicy.DECOMPRESSED_SUB_CHUNK_AVERAGE, 0, size, md5);
            }
        } finally {
            Files.deleteIfExists(decompressed);
            if (split != null) {
                Files.deleteIfExists(split);
            }
        }
        Path tokens = Files.createTempFile("coffer-layer-", ".tokens");
        Path side = Files.createTempFile("coffer-layer-", ".side");
        try {
            Verdict verdict;
            try (InputStream in = Files.newInputStream(original)) {
                verdict = verifier.verify(in, tokens, side);
            }
            HuffmanTreeFeature feature = verdict.summary() == null ? null : verdict.summary().feature();
            int[] vector = verdict.reproducible() && feature != null
                    && feature.source() != HuffmanTreeFeature.Source.NONE ? feature.lengths() : null;
            LayerSpacePolicy.Space space = state.decide(key, vector);
            if (!verdict.reproducible()) {
                LOG.debug("{}/{} stored as it came: {}", bucket, key, verdict.reason());
                return null;
            }
            if (space != LayerSpacePolicy.Space.PARTIALLY_DECODED) {
                return null;
            }
            try (InputStream sideIn = Files.newInputStream(side)) {
                return writeDecoded(state, bucket, key, sideIn, tokens, policy.subChunkAverage(), 0, size, md5);
            }
        } finally {
            Files.deleteIfExists(tokens);
            Files.deleteIfExists(side);
        }
    }

    /**
     * Whether the split tar in {@code split} joins back to exactly {@code decompressed}: the recipe's segment hashes
     * would catch a difference at GET, too late to store the layer another way.
     */
    private static boolean joinsBack(Path split, long metadata, Path decompressed) throws IOException {
        long total = Files.size(split);
        try (InputStream meta = new BoundedInputStream(Files.newInputStream(split), metadata);
             InputStream bodies = Files.newInputStream(split);
             InputStream joined = TarSplit.join(meta, metadata, skipped(bodies, metadata));
             InputStream expected = Files.newInputStream(decompressed)) {
            byte[] a = new byte[64 << 10];
            byte[] b = new byte[a.length];
            for (int n = joined.readNBytes(a, 0, a.length); ; n = joined.readNBytes(a, 0, a.length)) {
                if (expected.readNBytes(b, 0, n) != n || !Arrays.equals(a, 0, n, b, 0, n)) {
                    return false;
                }
                if (n < a.length) {
                    return expected.read() < 0 && total == Files.size(decompressed);
                }
            }
        } catch (IOException e) {
            LOG.warn("a tar split did not join back, stored unsplit: {}", e.toString());
            return false;
        }
    }

    private static InputStream skipped(InputStream in, long n) throws IOException {
        in.skipNBytes(n);
        return in;
    }

    /**
     * Writes a layer in a decoded space: {@code side} (side information, or a zlib recipe) as ordinary chunks, then
     * {@code data} (the token stream, or the decompressed bytes, split as a tar when {@code tarMetadata > 0}: no
     * sub-chunk crosses from its metadata into its bodies) in 512 KiB chunks under their clusters' keys.
     */
    private Written writeDecoded(LayerState state, String bucket, String key, InputStream side, Path data,
                                 int subChunkAverage, long tarMetadata, long size, byte[] md5)
            throws IOException {
        ObjectWriter writer = new ObjectWriter(ctx, bucket, key, -1, 0);
        try {
            writer.appendStream(side);
            int sideEntries = writer.entryCount();
            List<ChunkKey> clusterKeys = clusterKeys(state, data);
            List<ChunkKey> entryClusters = writeTokens(writer, data, clusterKeys, subChunkAverage, tarMetadata);
            ObjectWriter.Result result = withClusterKeys(writer.finishAppended(size, md5), sideEntries,
                    entryClusters);
            return new Written(writer, result, sideEntries);
        } catch (IOException | RuntimeException | Error e) {
            writer.abandonAppended();
            throw e;
        }
    }

    /** The layer's Huffman-tree vector (its first dynamic block's code lengths), null where it has none. */
    private static int[] featureVector(Path original) throws IOException {
        try (InputStream in = Files.newInputStream(original)) {
            HuffmanTreeFeature f = new PartialDecoder().feature(in);
            return f.source() == HuffmanTreeFeature.Source.NONE ? null : f.lengths();
        } catch (DeflateFormatException e) {
            return null;
        }
    }

    /**
     * First pass over the tokens: each 512 KiB chunk's sketch, then their clusters' keys. A chunk's SHA-256 is
     * needed only when it founds a cluster (about one chunk in five), so only those chunks are read again and hashed.
     */
    private List<ChunkKey> clusterKeys(LayerState state, Path tokens) throws IOException {
        List<ChunkSketch> sketches = new ArrayList<>();
        byte[] chunk = new byte[LayerModePolicy.CHUNK_SIZE];
        try (InputStream in = Files.newInputStream(tokens)) {
            for (int n = in.readNBytes(chunk, 0, chunk.length); n > 0; n = in.readNBytes(chunk, 0, chunk.length)) {
                sketches.add(sketcher.sketch(chunk, 0, n));
            }
        }
        try (FileChannel channel = FileChannel.open(tokens, StandardOpenOption.READ)) {
            return state.assign(sketches, i -> chunkHash(channel, i, chunk));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** SHA-256 of the 512 KiB chunk {@code index} of the token file, read into {@code buffer}. */
    private byte[] chunkHash(FileChannel channel, int index, byte[] buffer) {
        ByteBuffer into = ByteBuffer.wrap(buffer);
        long position = (long) index * buffer.length;
        try {
            while (into.hasRemaining()) {
                int n = channel.read(into, position + into.position());
                if (n < 0) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading chunk " + index + " of the token stream again failed", e);
        }
        return ctx.cipher().hash(buffer, 0, into.position());
    }

    /**
     * Second pass: each 512 KiB chunk cut into FastCDC sub-chunks, each stored under a key from its cluster's; returns
     * each sub-chunk's cluster key, in order.
     */
    private List<ChunkKey> writeTokens(ObjectWriter writer, Path tokens, List<ChunkKey> clusterKeys, int avg,
                                       long boundary) throws IOException {
        FastCdcChunker cdc = new FastCdcChunker(avg / 2, avg, avg * 4);
        byte[] chunk = new byte[LayerModePolicy.CHUNK_SIZE];
        List<ChunkKey> entryClusters = new ArrayList<>();
        int index = 0;
        long position = 0;
        try (InputStream in = Files.newInputStream(tokens)) {
            for (int n = in.readNBytes(chunk, 0, chunk.length); n > 0; n = in.readNBytes(chunk, 0, chunk.length)) {
                if (index >= clusterKeys.size()) {
                    throw new IOException("the token stream grew while it was being stored");
                }
                SubChunkKeys keys = new SubChunkKeys(clusterKeys.get(index));
                List<SubChunkKeys> neighbours = NeighbourKeys.of(clusterKeys, index++);
                for (int at = 0; at < n; ) {
                    int cut = cdc.nextCut(chunk, at, position < boundary ? (int) Math.min(n - at, boundary - position)
                            : n - at);
                    position += cut;
                    byte[] hash = ctx.cipher().hash(chunk, at, cut);
                    NeighbourKeys.Choice chosen = NeighbourKeys.choose(keys, neighbours, hash, ctx.cipher()::idFor,
                            this::isStored);
                    writer.appendKeyed(chunk, at, cut, hash, chosen.key(), chosen.id());
                    entryClusters.add(chosen.keys().clusterKey());
                    at += cut;
                }
            }
        }
        return entryClusters;
    }

    /** Whether the sub-chunk {@code id} is stored (committed or written by this object). */
    private boolean isStored(ChunkId id) {
        return ctx.locate(List.of(id)).containsKey(id);
    }

    /** The token entries marked with their cluster keys, so that the manifest stores them derived (FORMAT.md). */
    private static ObjectWriter.Result withClusterKeys(ObjectWriter.Result r, int sideEntries,
                                                       List<ChunkKey> entryClusters) throws IOException {
        if (r.entries().size() != sideEntries + entryClusters.size()) {
            throw new IOException("the layer wrote " + r.entries().size() + " entries, not "
                    + (sideEntries + entryClusters.size()));
        }
        List<ManifestEntry> marked = new ArrayList<>(r.entries().subList(0, sideEntries));
        for (int i = 0; i < entryClusters.size(); i++) {
            ManifestEntry e = r.entries().get(sideEntries + i);
            marked.add(new ManifestEntry(e.id(), e.key(), e.hash(), e.length(), entryClusters.get(i)));
        }
        return new ObjectWriter.Result(List.copyOf(marked), r.newChunks(), r.size(), r.md5(), r.inline());
    }
}
