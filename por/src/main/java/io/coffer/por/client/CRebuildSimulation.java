package io.coffer.por.client;

import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.checksum.Checksum;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.HierarchicalLog;
import io.coffer.por.code.LogState;
import io.coffer.por.code.Part;
import io.coffer.por.server.SealedLevel;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The client's CRebuild over checksums (a C rebuild, a resync, a grow): U's sealed checksums opened (each must open
 * under U's key at its own index), encoded into C's checksums for {@code params}' capacity, sealed under the time of
 * the epoch the rebuild starts.
 */
final class CRebuildSimulation {
    private CRebuildSimulation() {
    }

    /**
     * C's sealed checksums for the C rebuild that ends {@code epoch} at {@code params}' capacity; {@code neverWritten}
     * gives the checksum of an index whose sealed checksum is null.
     */
    static SealedLevel encode(List<byte[]> sealedU, long epoch, CodeParameters params, ChecksumSealer sealer,
            IntFunction<Checksum> neverWritten) {
        ChecksumLevelStore store = new ChecksumLevelStore(params);
        HierarchicalLog simulation = new HierarchicalLog(params, store, new LogState(params.k(), 0, epoch));
        simulation.rebuildC((i, into) -> {
            byte[] sealed = sealedU.get(i);
            Checksum sigma = sealed == null ? neverWritten.apply(i) : sealer.openU(i, sealed);
            System.arraycopy(sigma.rows(), 0, into, 0, Checksum.ROWS);
        });
        // sealed under the time of the epoch it starts (C is level k + 1 of the simulation)
        long time = SealClock.cTime(epoch + 1, params.k());
        int size = params.n();
        byte[][][] parts = new byte[2][size][];
        for (Part part : Part.values()) {
            for (int j = 0; j < size; j++) {
                parts[part.ordinal()][j] = sealer.seal(BlockAddress.c(part, j), time,
                        store.get(params.cLevel(), part, j));
            }
        }
        return new SealedLevel(params.cLevel(), parts[0], parts[1]);
    }
}
