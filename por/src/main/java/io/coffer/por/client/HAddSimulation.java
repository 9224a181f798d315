package io.coffer.por.client;

import io.coffer.por.PorVerificationException;
import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.checksum.Checksum;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.DeamortizedLog;
import io.coffer.por.code.DeamortizedSchedule;
import io.coffer.por.code.LogState;
import io.coffer.por.code.Part;
import io.coffer.por.server.PorServer;
import io.coffer.por.server.SealedVectors;
import java.util.List;

/**
 * The client's half of an add of H (section 5.4 over the deamortised log, {@link DeamortizedLog}): the sealed
 * checksums of the vectors the add's merge steps read are fetched with one request and each opened under its address
 * and the time it was written, the add is simulated over them and the batch's checksum in a store that refuses any
 * other read ({@link SparseChecksumStore}), and every vector it writes is sealed under this add's time. O(k - b)
 * checksums each way; changes no state (the caller sends the result and then records the new log state).
 */
final class HAddSimulation {
    /** The state after an H add and the sealed checksums of the vectors it wrote. */
    record HAdd(LogState after, SealedVectors written) {}

    private final PorServer server;
    private final CodeParameters hParams;
    private final ChecksumSealer sealer;
    private final Traffic traffic;

    HAddSimulation(PorServer server, CodeParameters hParams, ChecksumSealer sealer, Traffic traffic) {
        this.server = server;
        this.hParams = hParams;
        this.sealer = sealer;
        this.traffic = traffic;
    }

    /** The add that follows {@code before}, of a batch whose checksum under M_H is {@code batch}. */
    HAdd simulate(LogState before, Checksum batch) {
        int hK = hParams.k();
        int count = before.t() + 1;
        List<DeamortizedSchedule.Vector> inputs = DeamortizedSchedule.inputs(hK, count);
        SealedVectors sealed = server.sealedInputs(count);
        traffic.down(sealed.wireBytes());
        if (sealed.count() != count || sealed.size() != inputs.size()) {
            throw new PorVerificationException("asked for the " + inputs.size() + " inputs of add " + count
                    + ", got " + sealed.size() + " for add " + sealed.count());
        }
        SparseChecksumStore store = new SparseChecksumStore();
        long epochTime = SealClock.hEpochTime(before.epoch(), hK);
        for (int i = 0; i < inputs.size(); i++) {
            DeamortizedSchedule.Vector v = inputs.get(i);
            for (Part part : Part.values()) {
                BlockAddress address = BlockAddress.h(v.level(), part, v.position());
                byte[] s = sealed.get(part, i);
                if (s == null) {
                    throw new PorVerificationException("no sealed checksum for " + address + " among add " + count
                            + "'s inputs");
                }
                store.put(v.level(), part, v.position(), sealer.open(address, epochTime + v.writtenAt(), s));
            }
        }
        DeamortizedLog simulation = new DeamortizedLog(hParams, store, before);
        simulation.add(batch.rows());
        List<DeamortizedSchedule.Vector> outputs = DeamortizedSchedule.outputs(hK, count);
        long time = SealClock.hTime(before.epoch(), hK, count);
        byte[][][] parts = new byte[2][outputs.size()][];
        for (int i = 0; i < outputs.size(); i++) {
            DeamortizedSchedule.Vector v = outputs.get(i);
            for (Part part : Part.values()) {
                parts[part.ordinal()][i] = sealer.seal(BlockAddress.h(v.level(), part, v.position()), time,
                        store.get(v.level(), part, v.position()));
            }
        }
        return new HAdd(simulation.state(), new SealedVectors(count, parts[0], parts[1]));
    }
}
