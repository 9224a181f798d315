package io.coffer.por.code;

import java.util.Arrays;

/**
 * Write batching (section 6.1): blocks are cached and enter H {@code 2^b} at a time, as one vector that is the
 * concatenation of the batch's tagged vectors, so H sees n / 2^b adds per epoch of n block writes, each as wide as
 * 2^b blocks. C still encodes single blocks. The code works per element, so a batch vector's code is the
 * concatenation of its blocks' codes, and the checksum simulation works unchanged.
 *
 * <p>Two logs: H over batches (capacity exponent k - b, {@code hStore} of width 2^b * block width) and C over blocks
 * (capacity exponent k, {@code cStore} of block width, only its C level used). A batch that must go out before it is
 * full ({@link #flush}) is padded with zero vectors, whose tag names no block ({@link BlockTag#NONE}).
 */
public final class BatchedLog {
    private final WriteLog h;
    private final HierarchicalLog c;
    private final int batchSize;
    private final int blockWidth;
    private final int[] pending;
    private int pendingCount;

    /**
     * A batched log over {@link HierarchicalLog}s: {@code hState} for k - b, {@code cState} for k; the pending batch
     * starts empty (a client persists the blocks of a pending batch itself, like any cached write).
     */
    public BatchedLog(int k, int batchExponent, LevelStore hStore, LogState hState, LevelStore cStore,
            LogState cState) {
        this(checkedExponent(k, batchExponent),
                new HierarchicalLog(new CodeParameters(k - batchExponent), hStore, hState),
                new HierarchicalLog(new CodeParameters(k), cStore, cState), hStore.width(), cStore.width());
    }

    /**
     * A batched log whose H is {@code h} (a {@link DeamortizedLog} for bounded work per batch) of capacity exponent
     * k - b, over vectors of 2^b blocks of {@code c}'s width.
     */
    public BatchedLog(int batchExponent, WriteLog h, int hWidth, HierarchicalLog c, int blockWidth) {
        this(checkedExponent(c.parameters().k(), batchExponent), h, c, hWidth, blockWidth);
        if (h.parameters().k() != c.parameters().k() - batchExponent) {
            throw new IllegalArgumentException("H of capacity 2^" + h.parameters().k() + ", expected 2^"
                    + (c.parameters().k() - batchExponent));
        }
    }

    private BatchedLog(int batchExponent, WriteLog h, HierarchicalLog c, int hWidth, int blockWidth) {
        this.batchSize = 1 << batchExponent;
        this.blockWidth = blockWidth;
        if (hWidth != batchSize * blockWidth) {
            throw new IllegalArgumentException("H store width " + hWidth + ", expected " + batchSize + " * "
                    + blockWidth);
        }
        this.h = h;
        this.c = c;
        this.pending = new int[batchSize * blockWidth];
    }

    private static int checkedExponent(int k, int batchExponent) {
        if (batchExponent < 0 || batchExponent > k) {
            throw new IllegalArgumentException("batch exponent must be in [0, " + k + "]: " + batchExponent);
        }
        return batchExponent;
    }

    /** The log of batches (its state and runs are what an auditor of H needs). */
    public WriteLog h() {
        return h;
    }

    /** The log whose C level encodes U. */
    public HierarchicalLog c() {
        return c;
    }

    /** The number of blocks waiting for their batch to fill. */
    public int pending() {
        return pendingCount;
    }

    /**
     * Adds one tagged block vector; when it completes a batch the batch enters H. Returns {@code true} when the
     * epoch is full: {@link #rebuildC} must run before the next add.
     */
    public boolean add(int[] taggedBlock) {
        if (taggedBlock.length != blockWidth) {
            throw new IllegalArgumentException("block vector of " + taggedBlock.length + " elements, expected "
                    + blockWidth);
        }
        if (h.state().cRebuildDue()) {
            throw new IllegalStateException("the epoch is full: rebuild C first");
        }
        System.arraycopy(taggedBlock, 0, pending, pendingCount * blockWidth, blockWidth);
        pendingCount++;
        return pendingCount == batchSize && flush();
    }

    /** Sends the pending blocks to H as one batch, padded with zero vectors; returns whether C is now due. */
    public boolean flush() {
        if (pendingCount == 0) {
            return h.state().cRebuildDue();
        }
        Arrays.fill(pending, pendingCount * blockWidth, pending.length, 0);
        pendingCount = 0;
        return h.add(pending);
    }

    /** CRebuild: C := the code of U (tagged block vectors), H emptied. Pending blocks must be flushed first. */
    public void rebuildC(VectorSource u) {
        nonePending("flush them first");
        c.rebuildC(u);
        h.newEpoch();
    }

    /**
     * CRebuild of a U whose blocks from 2^{@code usedK} on were never written (a store grown from 2^usedK blocks):
     * their vectors are zero but for their tags, so the butterflies run over the first 2^usedK blocks only
     * ({@link HierarchicalLog#rebuildCWithEmptyTail}); the same C as {@link #rebuildC}, H emptied.
     */
    public void rebuildCOfGrownU(VectorSource u, int usedK) {
        nonePending("flush them first");
        c.rebuildCWithEmptyTail(u, usedK, blockWidth - 1, BlockTag::valueOf);
        h.newEpoch();
    }

    /**
     * CRebuild of a U that was never written (a new store): its vectors are zero but for their tags, so only C's
     * tag position is computed ({@link HierarchicalLog#rebuildCOneElement}); H emptied.
     */
    public void rebuildCOfEmptyU() {
        nonePending("U is not empty");
        c.rebuildCOneElement(blockWidth - 1, BlockTag::valueOf);
        h.newEpoch();
    }

    private void nonePending(String why) {
        if (pendingCount != 0) {
            throw new IllegalStateException(pendingCount + " blocks are pending: " + why);
        }
    }

    /** Splits a decoded batch vector into its blocks' tagged vectors, padding included. */
    public static int[][] split(int[] batch, int blockWidth) {
        int[][] blocks = new int[batch.length / blockWidth][];
        for (int i = 0; i < blocks.length; i++) {
            blocks[i] = Arrays.copyOfRange(batch, i * blockWidth, (i + 1) * blockWidth);
        }
        return blocks;
    }
}
