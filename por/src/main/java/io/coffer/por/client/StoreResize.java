package io.coffer.por.client;

import io.coffer.por.PorVerificationException;
import io.coffer.por.checksum.Checksum;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.LogState;
import io.coffer.por.merkle.MerkleHash;
import io.coffer.por.merkle.MerkleRootStream;
import io.coffer.por.merkle.MerkleTree;
import io.coffer.por.server.PorServer;
import io.coffer.por.server.SealedLevel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Resizing (appendix A.3) of a {@link PorClient}'s store to 2^k blocks: a grow (insertions past the capacity) or a
 * shrink (consolidation, once every index from 2^k on holds the empty block). One path for both: U's sealed checksums
 * are downloaded and checked against the client's root; for a shrink each cut one must open to the checksum of the
 * empty block of its index (never written, or deleted: the zero block has the same checksum); the new root is
 * computed here (a grow: the old root beside empty subtrees; a shrink: the tree over the first 2^k leaves, the old
 * root's left subtree), so the server's tree is never trusted; C's checksums for 2^k blocks are simulated over the
 * kept (and empty) checksums, sealed with k bound ({@link ChecksumSealer#boundTo}) under a fresh epoch
 * ({@link #resizeEpoch}) and sent with {@link PorServer#resize}. H and a pending batch are dropped (their blocks are
 * in U, which the new C encodes). Not thread-safe: the client's caller serialises it with every other call.
 */
final class StoreResize {
    private final PorClient client;
    private final PorServer server;
    private final ChecksumSealer sealer;
    /** The epoch of this client's last resize attempt (0: none), so a retry never seals C under its time again. */
    private long lastEpoch;

    StoreResize(PorClient client, PorServer server, ChecksumSealer sealer) {
        this.client = client;
        this.server = server;
        this.sealer = sealer;
    }

    void grow(int k) {
        int from = client.state().k();
        int most = Math.min(server.maxK(), CodeParameters.MAX_K);
        if (k <= from || k > most) {
            throw new IllegalArgumentException("a store of 2^" + from + " blocks grows to 2^k with k in (" + from
                    + ", " + most + "], not k = " + k);
        }
        resize(k);
    }

    void shrink(int k) {
        int from = client.state().k();
        int least = client.state().batchExponent();
        if (k >= from || k < least) {
            throw new IllegalArgumentException("a store of 2^" + from + " blocks shrinks to 2^k with k in [" + least
                    + ", " + from + "), not k = " + k);
        }
        resize(k);
    }

    private void resize(int k) {
        ClientState state = client.state();
        int from = state.k();
        client.forgetPaths();
        List<byte[]> sealedU = client.downloadSealedU();
        if (!Arrays.equals(MerkleRootStream.of(sealedU), state.root())) {
            throw new PorVerificationException("U's checksums do not match the Merkle root: stale or altered");
        }
        int n = 1 << k;
        List<byte[]> resized;
        byte[] root;
        if (k > from) {
            resized = new ArrayList<>(sealedU);
            resized.addAll(Collections.nCopies(n - sealedU.size(), null)); // never written
            root = state.root();
            for (int size = sealedU.size(); size < n; size <<= 1) {
                root = MerkleHash.node(root, MerkleTree.emptyRoot(size));
            }
        } else {
            List<Integer> inUse = new ArrayList<>();
            for (int i = n; i < sealedU.size(); i++) {
                byte[] sealed = sealedU.get(i);
                if (sealed != null && !sealer.openU(i, sealed).equals(client.neverWritten(i))) {
                    inUse.add(i);
                }
            }
            if (!inUse.isEmpty()) {
                throw new BlocksInUseException(k, inUse);
            }
            resized = new ArrayList<>(sealedU.subList(0, n));
            root = MerkleRootStream.of(resized);
        }
        long epoch = resizeEpoch(state.hLog().epoch(), lastEpoch);
        lastEpoch = epoch; // a later attempt (this one refused or its answer lost) seals beyond it
        if (epoch > PorServer.MAX_EPOCH) {
            throw new PorVerificationException("no epoch is left to resize to");
        }
        SealedLevel c = client.encodeC(resized, epoch - 1, new CodeParameters(k));
        server.resize(k, epoch, c);
        client.traffic().up(12 + c.wireBytes());
        client.resized(state.with(new LogState(k - state.batchExponent(), 0, epoch), 0, Checksum.zero(), root)
                .bound());
    }

    /**
     * The epoch a resize seals C for: after any this client may have sealed C for (epoch + 2, as a resync), after an
     * earlier attempt's, and above {@link PorServer#MAX_EPOCH} / 2. With k bound into C's associated data a C of
     * another capacity never opens whatever its epoch; the offset is what kept grows apart before (C's seal time
     * e * 2^(k+1) at 2^k blocks: a grown store's E * 2^(k'+1) is the time of epoch E * 2^(k'-k) at the old k, beyond
     * the largest epoch), kept so that a version 2 client's grows and this one's never share an epoch.
     */
    static long resizeEpoch(long epoch, long lastAttempt) {
        long beyond = epoch > PorServer.MAX_EPOCH / 2 ? epoch : PorServer.MAX_EPOCH / 2 + epoch;
        return Math.max(beyond, lastAttempt) + 2;
    }
}
