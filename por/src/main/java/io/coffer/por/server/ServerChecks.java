package io.coffer.por.server;

import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.DeamortizedSchedule;
import io.coffer.por.code.LogRun;
import io.coffer.por.code.Part;
import java.util.List;

/** The honest server's checks of a client's arguments: a bad call gets an {@link IllegalArgumentException}. */
final class ServerChecks {
    private ServerChecks() {}

    /** An audit samples C, or the current runs of H: exactly the positions {@code runs} cover. */
    static void audited(BlockAddress address, BlockAddress.Buffer buffer, List<LogRun> runs, int n,
            boolean hasSealedC) {
        if (address.buffer() != buffer || buffer == BlockAddress.Buffer.U) {
            throw new IllegalArgumentException("an audit samples C or H, one of them per challenge: " + address);
        }
        if (buffer == BlockAddress.Buffer.C) {
            if (address.index() >= n) {
                throw new IllegalArgumentException("audit address out of range: " + address);
            }
            if (!hasSealedC) {
                throw new IllegalArgumentException("audit of a region with no checksums: " + address);
            }
            return;
        }
        for (LogRun run : runs) {
            if (run.level() == address.level() && address.index() >= run.offset()
                    && address.index() < run.offset() + run.size()) {
                return;
            }
        }
        throw new IllegalArgumentException("audit of a vector in no current run of H: " + address);
    }

    /**
     * The sealed checksums sent with an add: exactly one per vector the add writes ({@code expected}), for the next
     * add; none when the call makes no add.
     */
    static void written(SealedVectors written, boolean expected, int count, int hK) {
        if (!expected) {
            if (written != null) {
                throw new IllegalArgumentException("this call makes no add to H, but checksums were sent");
            }
            return;
        }
        if (written == null) {
            throw new IllegalArgumentException("add " + count + " of H writes vectors: their sealed checksums are "
                    + "required");
        }
        int size = DeamortizedSchedule.outputs(hK, count).size();
        if (written.count() != count || written.size() != size) {
            throw new IllegalArgumentException("expected the sealed checksums of the " + size + " vectors add "
                    + count + " writes, got " + written.size() + " for add " + written.count());
        }
        for (int i = 0; i < size; i++) {
            for (Part part : Part.values()) {
                byte[] s = written.get(part, i);
                if (s == null || s.length != ChecksumSealer.SEALED_BYTES) {
                    throw new IllegalArgumentException("a sealed checksum of add " + count + " is malformed");
                }
            }
        }
    }

    static void sealed(SealedLevel sealed, int level, int size) {
        if (sealed.level() != level || sealed.partSize() != size) {
            throw new IllegalArgumentException("expected the sealed checksums of level " + level + " (" + size
                    + " per part), got level " + sealed.level() + " with " + sealed.partSize());
        }
        for (Part part : Part.values()) {
            for (byte[] s : sealed.part(part)) {
                if (s == null || s.length != ChecksumSealer.SEALED_BYTES) {
                    throw new IllegalArgumentException("a sealed checksum of level " + level + " is malformed");
                }
            }
        }
    }

    /** A copy of {@code s} once it is a sealed checksum's length; refused otherwise. */
    static byte[] sealedChecksum(byte[] s) {
        if (s == null || s.length != ChecksumSealer.SEALED_BYTES) {
            throw new IllegalArgumentException("a sealed checksum of the next C is malformed");
        }
        return s.clone();
    }

    /** {@code value} when it is there; a refused call otherwise. */
    static <T> T present(T value, String refusal) {
        if (value == null) {
            throw new IllegalArgumentException(refusal);
        }
        return value;
    }
}
