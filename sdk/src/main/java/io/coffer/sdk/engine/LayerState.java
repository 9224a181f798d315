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
import java.util.function.IntFunction;
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
    /** Kinds 2 and 3 with a SHA-256 only for the chunks that founded a group (issue 20, dedup3). */
    private static final int KIND_SPARSE_ASSIGNMENTS = 4;
    private static final int KIND_SPARSE_FIRST_FIT_ASSIGNMENTS = 5;
    /** LayerModePolicy's bound on the threshold. */
    private static final int MAX_THRESHOLD = 256;
    private static final int CODE_LONGS = FinesseSketcher.DEFAULT_CODE_BITS / 64;

    private final EngineContext ctx;
    private final String folder;
    private final String mode;
    private final int threshold;
    private final KeyAssignment assignment;
    private final ClusterKeyring keyring;
    private LayerSpacePolicy policy;
    private LayerKeyGroups groups;
    private long nextSeq;
    /** An assignment batch changed the groups but its record was not written: rebuild from the journal first. */
    private boolean stale;

    private LayerState(EngineContext ctx, String folder, String mode, int threshold, KeyAssignment assignment) {
        this.ctx = ctx;
        this.folder = folder;
        this.mode = mode;
        this.threshold = threshold;
        this.assignment = assignment;
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
        s.reload();
        return s;
    }

    /** The state rebuilt from the journal alone. */
    private void reload() throws IOException {
        stale = true;
        policy = LayerSpacePolicy.parse(mode);
        groups = LayerKeyGroups.of(assignment, threshold);
        nextSeq = 0;
        replay();
        stale = false;
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
        if (stale) {
            reload();
        }
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
     * Assigns the chunks (sketches in stream order) to clusters (or FirstFit groups) and returns each one's group key;
     * {@code hashOf} gives chunk i's SHA-256 and is asked only for the chunks that found a group. A chunk whose key
     * the key source cannot give gets a random key (its sub-chunks then do not deduplicate).
     *
     * <p>The groups change before the record is written (which chunks found a group, and so which hashes the record
     * carries, is known only then); if writing it fails, the next call rebuilds the state from the journal.
     */
    synchronized List<ChunkKey> assign(List<ChunkSketch> sketches, IntFunction<byte[]> hashOf) throws IOException {
        if (stale) {
            reload();
        }
        stale = true;
        byte[][] founders = new byte[sketches.size()][];
        List<Integer> clusters = new ArrayList<>(sketches.size());
        for (int i = 0; i < sketches.size(); i++) {
            int chunk = i;
            clusters.add(groups.assign(sketches.get(i), () -> founders[chunk] = hashOf.apply(chunk)));
        }
        append(assignments(sketches, founders));
        stale = false;
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

    /** A sparse assignment record: each chunk's code (or super-features), a flag, its hash if it founded a group. */
    private BinaryWriter assignments(List<ChunkSketch> sketches, byte[][] founders) {
        boolean firstFit = assignment == KeyAssignment.FIRST_FIT;
        BinaryWriter w = header(firstFit ? KIND_SPARSE_FIRST_FIT_ASSIGNMENTS : KIND_SPARSE_ASSIGNMENTS)
                .uvarint(sketches.size());
        if (!firstFit) {
            w.uvarint(threshold);
        }
        for (int i = 0; i < sketches.size(); i++) {
            long[] recorded = firstFit ? sketches.get(i).superFeatures() : sketches.get(i).code();
            if (firstFit) {
                w.u8(recorded.length);
            }
            for (long l : recorded) {
                w.u64(l);
            }
            w.u8(founders[i] == null ? 0 : 1);
            if (founders[i] != null) {
                w.raw(founders[i]);
            }
        }
        return w;
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
        } else if (kind == KIND_ASSIGNMENTS || kind == KIND_SPARSE_ASSIGNMENTS) {
            boolean sparse = kind == KIND_SPARSE_ASSIGNMENTS;
            int n = r.uvarintAtMost(r.remaining() / (CODE_LONGS * 8 + (sparse ? 1 : 32)));
            // a sparse record replays only under the threshold it was written with: under another, its chunks could
            // found groups it carries no hash for; skipping it costs deduplication, as a lost journal does
            int written = sparse ? r.uvarintAtMost(MAX_THRESHOLD) : threshold;
            boolean replayed = assignment == KeyAssignment.CLUSTERS && written == threshold;
            for (int i = 0; i < n; i++) {
                long[] code = new long[CODE_LONGS];
                for (int j = 0; j < CODE_LONGS; j++) {
                    code[j] = r.u64();
                }
                byte[] hash = sparse ? optionalHash(r) : r.raw(32);
                if (replayed) {
                    replayAssignment(new ChunkSketch(new long[0], code), hash, sparse, i);
                }
            }
            r.finish();
        } else if (kind == KIND_FIRST_FIT_ASSIGNMENTS || kind == KIND_SPARSE_FIRST_FIT_ASSIGNMENTS) {
            boolean sparse = kind == KIND_SPARSE_FIRST_FIT_ASSIGNMENTS;
            int n = r.uvarintAtMost(r.remaining() / (1 + (sparse ? 1 : 32)));
            for (int i = 0; i < n; i++) {
                long[] superFeatures = new long[r.u8()];
                for (int j = 0; j < superFeatures.length; j++) {
                    superFeatures[j] = r.u64();
                }
                byte[] hash = sparse ? optionalHash(r) : r.raw(32);
                if (assignment == KeyAssignment.FIRST_FIT) {
                    replayAssignment(new ChunkSketch(superFeatures, new long[0]), hash, sparse, i);
                }
            }
            r.finish();
        } else {
            throw new MalformedRecordException("unknown layer journal record kind " + kind);
        }
    }

    /** A sparse record's flag and, if it is 1, the hash that follows it. */
    private static byte[] optionalHash(BinaryReader r) throws MalformedRecordException {
        int flag = r.u8();
        if (flag > 1) {
            throw new MalformedRecordException("hash flag " + flag);
        }
        return flag == 1 ? r.raw(32) : null;
    }

    /**
     * Re-runs one recorded assignment. In a sparse record a chunk carries a hash exactly when it founded a group, so
     * replay that needs a hash the record lacks, or leaves a carried one unused, has diverged from what was written.
     */
    private void replayAssignment(ChunkSketch sketch, byte[] hash, boolean sparse, int chunk)
            throws MalformedRecordException {
        boolean[] asked = new boolean[1];
        try {
            groups.assign(sketch, () -> {
                asked[0] = true;
                if (hash == null) {
                    throw new MissingHash();
                }
                return hash;
            });
        } catch (MissingHash e) {
            throw new MalformedRecordException("chunk " + chunk + " founds a group on replay, but the record carries "
                    + "no hash for it");
        }
        if (sparse && hash != null && !asked[0]) {
            throw new MalformedRecordException("the record carries a hash for chunk " + chunk + ", which founds no "
                    + "group on replay");
        }
    }

    /** A replayed chunk needed a hash its record does not carry. */
    private static final class MissingHash extends RuntimeException {
        MissingHash() {
            super(null, null, false, false);
        }
    }
}
