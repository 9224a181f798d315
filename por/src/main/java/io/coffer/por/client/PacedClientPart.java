package io.coffer.por.client;

import io.coffer.por.PorVerificationException;
import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.checksum.Checksum;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.code.Part;
import io.coffer.por.merkle.MerkleHash;
import io.coffer.por.merkle.MerkleRootStream;
import io.coffer.por.server.PorServer;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The client's part of a paced C rebuild (docs/POR.md, "C's rebuild paced"), run a share per write or flush in the
 * window of a server that paces it ({@link PorServer#pacesClientPart}): U's sealed checksums as they were at the
 * epoch's end downloaded in index order ({@link PorServer#snapshotSealedU}), each opened and folded into a
 * {@link MerkleRootStream}; once all are in, their root checked against the snapshot's root the client kept (a
 * mismatch: the server served a checksum changed in the window, or forged, and this throws
 * {@link PorVerificationException}); then the checksums encoded into C's by a {@link PacedCRebuild} over checksums
 * (the same butterflies as the one-shot simulation, so the same C); then C's 2n checksums sealed and uploaded a range
 * per call ({@link PorServer#putNextSealedC}).
 *
 * <p>Work is counted in units: one per checksum downloaded and opened, one per unit of the encoding (n (k + 2)), one
 * per checksum sealed (2n): n (k + 5) in all. A call runs ceil(remaining / calls left) units, the calls left being the
 * H adds before the switch (ceil(stepsToComplete(k) / 2^b) - t: every call makes at most one add, and the call of the
 * switching add runs all that remains before it is sent), so no call runs more than ceil(n (k + 5) / (that count at
 * the window's start)) units, one more where a share ends between the two sealings of a position: about
 * (k + 5) 2^(b+1), O(n / 2^(k-b-1)) with the encoding's log factor. With b = k (one add an epoch, its switch) that
 * is all of it at the window's first call. Progress is held in memory only (O(n) checksums); a client
 * restarted in the window starts again from index 0, its first call then running ceil(n (k + 5) / calls left).
 */
final class PacedClientPart {
    /** The encoding's in-memory group, per part: small, so that no call allocates O(n) at once. */
    private static final int GROUP_BYTES = 1 << 16;
    private static final int CHUNK_BITS = 12;
    private static final int CHUNK = 1 << CHUNK_BITS;
    private final PorServer server;
    private final Traffic traffic;
    private final CodeParameters params;
    private final ChecksumSealer sealer;
    private final IntFunction<Checksum> neverWritten;
    private final byte[] snapshotRoot;
    private final long sealTime;
    private final MerkleRootStream root;
    /** The opened checksums' rows, a chunk of {@link #CHUNK} checksums allocated as the download reaches it. */
    private final int[][] opened;
    private final ChecksumLevelStore encoded;
    private final PacedCRebuild encode;
    private int downloaded;
    private int uploaded;
    private int lastOpened;
    private int lastSealed;

    /**
     * The part for the window of {@code epoch} at {@code params}' capacity over U whose root was {@code snapshotRoot}
     * at the epoch's end; C is sealed under the time of {@code epoch} ({@link SealClock#cTime}).
     */
    PacedClientPart(PorServer server, Traffic traffic, CodeParameters params, ChecksumSealer sealer,
            IntFunction<Checksum> neverWritten, byte[] snapshotRoot, long epoch) {
        this.server = server;
        this.traffic = traffic;
        this.params = params;
        this.sealer = sealer;
        this.neverWritten = neverWritten;
        this.snapshotRoot = snapshotRoot.clone();
        this.sealTime = SealClock.cTime(epoch, params.k());
        this.root = new MerkleRootStream(params.n());
        this.opened = new int[(params.n() + CHUNK - 1) >>> CHUNK_BITS][];
        this.encoded = new ChecksumLevelStore(params);
        this.encode = new PacedCRebuild(params, (i, into) -> System.arraycopy(opened[i >>> CHUNK_BITS],
                (i & (CHUNK - 1)) * Checksum.ROWS, into, 0, Checksum.ROWS), encoded, params.cLevel(), GROUP_BYTES);
    }

    /** All the units of the part at capacity 2^k: n downloads, the encoding's n (k + 2), 2n sealings. */
    static long totalUnits(int k) {
        return ((long) 3 << k) + PacedCRebuild.totalUnits(k);
    }

    /** The units a call runs with {@code callsLeft} calls (this one included) before the switching add is sent. */
    long share(int callsLeft) {
        long remaining = remaining();
        int calls = Math.max(1, callsLeft);
        return (remaining + calls - 1) / calls;
    }

    long remaining() {
        return (params.n() - downloaded) + (PacedCRebuild.totalUnits(params.k()) - encode.done())
                + 2L * (params.n() - uploaded);
    }

    /** Runs one call's share ({@link #share}); returns true once every sealed checksum of the next C is uploaded. */
    boolean step(int callsLeft) {
        long budget = share(callsLeft);
        lastOpened = 0;
        lastSealed = 0;
        int n = params.n();
        if (downloaded < n && budget > 0) {
            int count = (int) Math.min(budget, n - downloaded);
            download(count);
            budget -= count;
        }
        if (downloaded == n && !encode.complete() && budget > 0) {
            long before = encode.done();
            encode.advanceUnits(before + budget);
            budget -= encode.done() - before;
        }
        if (encode.complete() && uploaded < n && budget > 0) {
            upload((int) Math.min((budget + 1) / 2, n - uploaded));
        }
        return uploaded == n;
    }

    private void download(int count) {
        List<byte[]> part = server.snapshotSealedU(downloaded, count);
        if (part.size() != count) {
            throw new PorVerificationException("asked for " + count + " of U's sealed checksums, got " + part.size());
        }
        traffic.down((count + 7) / 8); // which positions were never written
        for (byte[] sealed : part) {
            int i = downloaded;
            Checksum sigma;
            if (sealed == null) {
                sigma = neverWritten.apply(i);
                root.add(MerkleHash.EMPTY_LEAF);
            } else {
                traffic.down(sealed.length);
                sigma = sealer.openU(i, sealed); // throws unless this client sealed it for index i
                root.add(MerkleHash.leaf(sealed));
            }
            if (opened[i >>> CHUNK_BITS] == null) {
                opened[i >>> CHUNK_BITS] = new int[Math.min(CHUNK, params.n()) * Checksum.ROWS];
            }
            System.arraycopy(sigma.rows(), 0, opened[i >>> CHUNK_BITS], (i & (CHUNK - 1)) * Checksum.ROWS,
                    Checksum.ROWS);
            downloaded++;
        }
        lastOpened = count;
        if (downloaded == params.n() && !Arrays.equals(root.root(), snapshotRoot)) {
            throw new PorVerificationException("U's checksums at the epoch's end do not match its Merkle root: the"
                    + " server served ones changed since or altered");
        }
    }

    private void upload(int count) {
        byte[][] x = new byte[count][];
        byte[][] y = new byte[count][];
        int[] rows = new int[Checksum.ROWS];
        for (int j = 0; j < count; j++) {
            int at = uploaded + j;
            encoded.read(params.cLevel(), Part.X, at, rows);
            x[j] = sealer.seal(BlockAddress.c(Part.X, at), sealTime, Checksum.of(rows));
            encoded.read(params.cLevel(), Part.Y, at, rows);
            y[j] = sealer.seal(BlockAddress.c(Part.Y, at), sealTime, Checksum.of(rows));
        }
        server.putNextSealedC(uploaded, x, y);
        traffic.up(8 + 2L * count * ChecksumSealer.SEALED_BYTES);
        uploaded += count;
        lastSealed = 2 * count;
    }

    /** U's checksums the last call downloaded and opened. */
    int lastOpened() {
        return lastOpened;
    }

    /** C's checksums the last call sealed and uploaded. */
    int lastSealed() {
        return lastSealed;
    }
}
