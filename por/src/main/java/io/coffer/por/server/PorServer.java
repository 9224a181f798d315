package io.coffer.por.server;

import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.audit.AuditResponse;
import io.coffer.por.code.LogState;
import java.util.ArrayList;
import java.util.List;

/**
 * What the PoR server offers its client (section 5: the server stores U, C and H with their sealed checksums and
 * performs every rebuild; the client checks). It never holds a key: sealed checksums are opaque to it. In-process
 * (the embedded server) or across the network ({@code io.coffer.por.net.RemotePorServer}; docs/POR.md, "The PoR
 * server").
 *
 * <p>A write is two calls: {@link #leaf} (the old leaf and its path, for the client's Merkle update) and
 * {@link #write}. H is a deamortised log ({@link io.coffer.por.code.DeamortizedLog}): before the write that completes
 * a batch the client fetches with {@link #sealedInputs} the sealed checksums of the few vectors that add's merge steps
 * read, simulates the add over their checksums and hands the sealed checksums of the vectors it writes to
 * {@link #write} (or {@link #flush}).
 */
public interface PorServer {
    /** The largest epoch a resynchronisation may go to: far beyond use, and C's seal time e * 2^(k+1) fits a long. */
    long MAX_EPOCH = 1L << 32;

    /** Bytes per block. */
    int blockBytes();

    /** The capacity exponent: U holds n = 2^k blocks. */
    int k();

    /** Write batching (section 6.1): 2^b blocks enter H as one vector. 0: every write is an H add. */
    int batchExponent();

    /** Block {@code index} of U with its sealed checksum and Merkle path. */
    ProvenBlock read(int index);

    /**
     * Blocks {@code indices} of U as {@link #read} serves each, in that order: a range of a pack read with one request
     * over the network instead of one per block. Refused as a whole when any one is.
     */
    default List<ProvenBlock> readBlocks(List<Integer> indices) {
        List<ProvenBlock> blocks = new ArrayList<>(indices.size());
        for (int index : indices) {
            blocks.add(read(index));
        }
        return blocks;
    }

    /** The sealed checksum of U[index] and its Merkle path, without the block: the first half of a write. */
    LeafProof leaf(int index);

    /**
     * {@link #leaf} of each of {@code indices}, in that order, all under the tree of now: the paths a client needs for
     * a run of writes, asked for with one request over the network. Refused as a whole when any one is.
     */
    default List<LeafProof> leaves(List<Integer> indices) {
        List<LeafProof> leaves = new ArrayList<>(indices.size());
        for (int index : indices) {
            leaves.add(leaf(index));
        }
        return leaves;
    }

    /**
     * The sealed checksums of the vectors of H that add number {@code count} of the epoch reads and earlier adds wrote
     * ({@link io.coffer.por.code.DeamortizedSchedule#inputs}), for the client to simulate that add: {@code count} must
     * be the next add's (H's t + 1).
     */
    SealedVectors sealedInputs(int count);

    /**
     * Stores {@code block} at U[index] with its sealed checksum and adds it to the pending batch. When the block
     * completes its batch, the batch enters H (a deamortised add: a few butterflies per level) and {@code written}
     * holds the client's sealed checksums of the vectors that add writes
     * ({@link io.coffer.por.code.DeamortizedSchedule#outputs}); otherwise {@code written} is null. A durable server
     * need not have it on disk before the next {@link #flush}.
     */
    void write(int index, byte[] block, byte[] sealedChecksum, SealedVectors written);

    /**
     * Sends a partial batch to H now, padded with zero vectors, with the client's sealed checksums of the vectors
     * that add writes ({@code written}); nothing (and {@code written} null) when no block is pending. When it
     * returns, every call so far is durable.
     */
    void flush(SealedVectors written);

    /** The sealed checksums of all of U (null where never written), for the client to simulate a C rebuild. */
    List<byte[]> sealedU();

    /** CRebuild: encodes U into C, empties H, and keeps the client's sealed checksums {@code c} of C (level k + 1). */
    void rebuildC(SealedLevel c);

    /** Answers an audit: B* over the sampled code blocks and their sealed checksums. */
    AuditResponse audit(AuditChallenge challenge);

    /**
     * Whether the C rebuild that ends an epoch is paced (docs/POR.md, "C's rebuild paced"): {@link #rebuildC} then
     * freezes H beside the old C, which stay until the switch point (add ceil(stepsToComplete(k) / 2^b) of the next
     * epoch), audited with {@link #auditFrozen} and {@link #audit}; the new C is audited after it. A client asks at
     * each epoch's end and keeps the answer with its state. Either answer is safe for the client: each view encodes
     * all of U.
     */
    default boolean pacesCRebuild() {
        return false;
    }

    /**
     * Whether, besides pacing its own part ({@link #pacesCRebuild}), the server takes the next C's sealed checksums
     * from the client a part at a time in the window ({@link #rebuildCPaced}, {@link #snapshotSealedU},
     * {@link #putNextSealedC}), so that the client's part is paced too (docs/POR.md, "C's rebuild paced"). A client
     * asks at each epoch's end; a server that answers no gets them all at the epoch's end ({@link #rebuildC}).
     */
    default boolean pacesClientPart() {
        return false;
    }

    /**
     * The C rebuild that ends an epoch on a server that paces the client's part: as {@link #rebuildC} on a server that
     * paces, without the next C's sealed checksums; they come with {@link #putNextSealedC} before the switch point,
     * and the server refuses the H add that would switch while any is missing.
     */
    default void rebuildCPaced() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not pace the client's part");
    }

    /**
     * U's sealed checksums at indices [{@code from}, {@code from + count}) as they were at the window's epoch end
     * (null where never written), whatever the writes since: the client's part of the rebuild downloads them all and
     * checks them against the root it kept. Only in a window opened by {@link #rebuildCPaced}.
     */
    default List<byte[]> snapshotSealedU(int from, int count) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not pace the client's part");
    }

    /**
     * Keeps the client's sealed checksums of the next C at positions [{@code from}, {@code from + x.length}) of X and
     * Y ({@code y} as long as {@code x}; a durable server has them on disk before it returns). Only in a window opened
     * by {@link #rebuildCPaced}, before its switch; a part sent again replaces the former.
     */
    default void putNextSealedC(int from, byte[][] x, byte[][] y) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not pace the client's part");
    }

    /** Answers an audit of the frozen H's runs (the ended epoch's) in a paced rebuild's window, before the switch. */
    default AuditResponse auditFrozen(AuditChallenge challenge) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not pace C's rebuild");
    }

    /** Blocks of U decoded from C and H (not read from U), each with its sealed checksum and path, to repair U. */
    List<ProvenBlock> decode(List<Integer> indices);

    /**
     * Tells the server that {@link #decode} will be asked for these blocks (in parts, for a repair of many): it may
     * decode them all now, each level of C and H once, and answer the later decode requests from the result until H
     * or C next changes. A hint only: decode answers the same without it, at the cost of a decode per request.
     */
    default void prepareDecode(List<Integer> indices) {
        // decode works alone
    }

    /** Puts back a block the client decoded and verified, where U lost or damaged it. */
    void restore(int index, byte[] block);

    /**
     * The server's log state (H's t and the epoch), for a client resynchronising after it lost track of the server
     * (docs/POR.md, "Resynchronisation"). The client does not trust it; it only picks an epoch beyond it.
     */
    default LogState logState() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot resynchronise a client");
    }

    /**
     * Resynchronisation: discards H and any pending batch (their blocks are in U), encodes U into C as the C rebuild
     * that starts {@code epoch} (later than the server's own epoch) and keeps the client's sealed checksums {@code c}
     * of that C. Refused while a block of U is lost.
     */
    default void resync(long epoch, SealedLevel c) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot resynchronise a client");
    }

    /** The largest capacity exponent this server grows to ({@link #resize}); its k where it cannot grow. */
    default int maxK() {
        return k();
    }

    /**
     * Resizing (appendix A.3): U grows to 2^{@code k} blocks (k above the server's, at most {@link #maxK}; the new
     * indices hold the empty block of their index, as an unused index does) or shrinks to them (k below the server's:
     * the indices from 2^k on are dropped, the client having checked that each holds the empty block), H and any
     * pending batch are discarded (their blocks are in U), U is encoded into C for 2^k blocks as the C rebuild that
     * starts {@code epoch} (later than the server's own epoch) and the client's sealed checksums {@code c} of that C
     * are kept: a resynchronisation at another capacity. Refused while a block of U is lost.
     */
    default void resize(int k, long epoch, SealedLevel c) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot resize");
    }
}
