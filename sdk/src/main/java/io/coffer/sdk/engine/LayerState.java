package io.coffer.sdk.engine;

import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobListing;
import io.coffer.sdk.codec.BinaryReader;
import io.coffer.sdk.codec.BinaryWriter;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.crypto.ChunkIntegrityException;
import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.key.KeySource;
import io.coffer.sdk.key.KeySourceException;
import io.coffer.sdk.layer.LayerModePolicy.KeyAssignment;
import io.coffer.sdk.similarity.ChunkSketch;
import io.coffer.sdk.similarity.ClusterKeyring;
import io.coffer.sdk.similarity.FinesseSketcher;
import io.coffer.sdk.similarity.HuffmanBloomFilter;
import io.coffer.sdk.similarity.LayerSpacePolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * One layer-mode bucket's similarity state: its {@link LayerSpacePolicy} (B-mode counts, the F-mode Bloom filter) and
 * its {@link LayerKeyGroups} (the online assignment of 512 KiB chunks to clusters, or to the LSH-MLE baseline's
 * FirstFit groups when a benchmark asks for them), with the keys of the groups.
 *
 * <p>The state is a function of the order in which layers were decided and chunks assigned, so it is kept as a
 * journal: every decision or assignment batch is appended as a sealed blob {@code s/<tag>/<seq>} (tag: an HMAC of the
 * bucket name under the master key) before it takes effect for anyone else, and a restarted engine replays the
 * journal in sequence order. Losing it would only cost deduplication (every manifest holds its chunks' keys), never
 * data. Thread-safe: one lock per bucket around decisions and assignments.
 */
final class LayerState {
    static final String PREFIX = "s/";
    private static final String PURPOSE = "layer-journal";
    private static final byte[] MAGIC = "CFLJ".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 1;
    private static final int KIND_DECISION = 1;
    private static final int KIND_ASSIGNMENTS = 2;
    private static final int KIND_FIRST_FIT_ASSIGNMENTS = 3;
    private static final int CODE_LONGS = FinesseSketcher.DEFAULT_CODE_BITS / 64;

    private final EngineContext ctx;
    private final String folder;
    private final String mode;
    private final LayerSpacePolicy policy;
    private final KeyAssignment assignment;
    private final LayerKeyGroups groups;
    private final ClusterKeyring keyring;
    private long nextSeq;

    private LayerState(EngineContext ctx, String folder, String mode, int threshold, KeyAssignment assignment) {
        this.ctx = ctx;
        this.folder = folder;
        this.mode = mode;
        this.policy = LayerSpacePolicy.parse(mode);
        this.assignment = assignment;
        this.groups = LayerKeyGroups.of(assignment, threshold);
        KeySource source = ctx.config.keySource();
        this.keyring = new ClusterKeyring(source);
    }

    /**
     * The bucket's state as its journal left it. Assignment records of the other {@link KeyAssignment} (a benchmark's
     * store reopened with the other) are not replayed: that costs deduplication with the chunks they assigned, as a
     * lost journal does, never data.
     */
    static LayerState load(EngineContext ctx, String bucket, String mode, int threshold, KeyAssignment assignment)
            throws IOException {
        LayerState s = new LayerState(ctx, folderOf(ctx.config.masterKey(), bucket), mode, threshold, assignment);
        s.replay();
        return s;
    }

    /** The mode text this state's policy was made from. */
    String mode() {
        return mode;
    }

    static String folderOf(MasterKey master, String bucket) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(master.deriveSecret(PURPOSE), "HmacSHA256"));
            byte[] tag = mac.doFinal(bucket.getBytes(StandardCharsets.UTF_8));
            return PREFIX + HexFormat.of().formatHex(tag, 0, 16) + "/";
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is required of every Java platform", e);
        }
    }

    /** Decides the space of a layer (recording it), {@code vector} null when the layer has no Huffman feature. */
    synchronized LayerSpacePolicy.Space decide(String objectKey, int[] vector) throws IOException {
        BinaryWriter w = header(KIND_DECISION).string(objectKey).u8(vector == null ? 0 : 1);
        if (vector != null) {
            byte[] v = new byte[HuffmanBloomFilter.VECTOR_LENGTH];
            for (int i = 0; i < v.length; i++) {
                v[i] = (byte) vector[i];
            }
            w.raw(v);
        }
        append(w);
        return policy.decide(objectKey, vector);
    }

    /**
     * Assigns the chunks (sketches and SHA-256 hashes, in stream order) to clusters (or FirstFit groups) and returns
     * each one's group key; a chunk whose key the key source cannot give gets a random key (its sub-chunks then do not
     * deduplicate).
     */
    synchronized List<ChunkKey> assign(List<ChunkSketch> sketches, List<byte[]> hashes) throws IOException {
        boolean firstFit = assignment == KeyAssignment.FIRST_FIT;
        BinaryWriter w = header(firstFit ? KIND_FIRST_FIT_ASSIGNMENTS : KIND_ASSIGNMENTS).uvarint(sketches.size());
        for (int i = 0; i < sketches.size(); i++) {
            long[] recorded = firstFit ? sketches.get(i).superFeatures() : sketches.get(i).code();
            if (firstFit) {
                w.u8(recorded.length);
            }
            for (long l : recorded) {
                w.u64(l);
            }
            w.raw(hashes.get(i));
        }
        append(w);
        List<Integer> clusters = new ArrayList<>(sketches.size());
        for (int i = 0; i < sketches.size(); i++) {
            clusters.add(groups.assign(sketches.get(i), hashes.get(i)));
        }
        if (ctx.keySourcePaused()) {
            return randomKeys(clusters.size());
        }
        try {
            return keyring.keysFor(groups::representativeHash, clusters);
        } catch (KeySourceException | RuntimeException e) {
            ctx.pauseKeySource();
            return randomKeys(clusters.size());
        }
    }

    /** Clusters (or FirstFit groups) so far (for tests and stats). */
    synchronized int clusters() {
        return groups.size();
    }

    private List<ChunkKey> randomKeys(int n) {
        ctx.keySourceFallbacks.increment(n);
        List<ChunkKey> keys = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            keys.add(ChunkKey.random());
        }
        return keys;
    }

    private static BinaryWriter header(int kind) {
        return new BinaryWriter(256).raw(MAGIC).u8(VERSION).u8(kind);
    }

    private void append(BinaryWriter w) throws IOException {
        String name = folder + String.format("%016d", nextSeq);
        byte[] sealed = ctx.config.masterKey().seal(PURPOSE, name, w.toByteArray());
        ctx.config.blobs().put(name, BlobContent.of(sealed, 0, sealed.length));
        nextSeq++;
    }

    private void replay() throws IOException {
        List<BlobInfo> records = new ArrayList<>();
        try (BlobListing listing = ctx.config.blobs().list(folder)) {
            listing.forEach(records::add);
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("listing the layer journal failed", e);
        }
        records.sort((a, b) -> a.name().compareTo(b.name()));
        for (BlobInfo b : records) {
            byte[] sealed = ctx.config.blobs().read(b.name(), 0, (int) b.size());
            try {
                apply(new BinaryReader(ctx.config.masterKey().open(PURPOSE, b.name(), sealed)));
            } catch (ChunkIntegrityException | MalformedRecordException e) {
                throw new IOException("layer journal record " + b.name() + " is damaged: " + e.getMessage(), e);
            }
            nextSeq = Long.parseLong(b.name().substring(folder.length())) + 1;
        }
    }

    private void apply(BinaryReader r) throws MalformedRecordException {
        r.expect(MAGIC);
        if (r.u8() != VERSION) {
            throw new MalformedRecordException("unknown layer journal version");
        }
        int kind = r.u8();
        if (kind == KIND_DECISION) {
            String key = r.string();
            int[] vector = null;
            if (r.u8() == 1) {
                byte[] v = r.raw(HuffmanBloomFilter.VECTOR_LENGTH);
                vector = new int[v.length];
                for (int i = 0; i < v.length; i++) {
                    vector[i] = v[i];
                }
            }
            r.finish();
            policy.decide(key, vector);
        } else if (kind == KIND_ASSIGNMENTS) {
            int n = r.uvarintAtMost(r.remaining() / (CODE_LONGS * 8 + 32));
            for (int i = 0; i < n; i++) {
                long[] code = new long[CODE_LONGS];
                for (int j = 0; j < CODE_LONGS; j++) {
                    code[j] = r.u64();
                }
                byte[] hash = r.raw(32);
                if (assignment == KeyAssignment.CLUSTERS) {
                    groups.assign(new ChunkSketch(new long[0], code), hash);
                }
            }
            r.finish();
        } else if (kind == KIND_FIRST_FIT_ASSIGNMENTS) {
            int n = r.uvarintAtMost(r.remaining() / (1 + 32));
            for (int i = 0; i < n; i++) {
                long[] superFeatures = new long[r.u8()];
                for (int j = 0; j < superFeatures.length; j++) {
                    superFeatures[j] = r.u64();
                }
                byte[] hash = r.raw(32);
                if (assignment == KeyAssignment.FIRST_FIT) {
                    groups.assign(new ChunkSketch(superFeatures, new long[0]), hash);
                }
            }
            r.finish();
        } else {
            throw new MalformedRecordException("unknown layer journal record kind " + kind);
        }
    }
}
