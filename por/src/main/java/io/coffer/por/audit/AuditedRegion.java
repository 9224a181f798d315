package io.coffer.por.audit;

import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.code.DeamortizedSchedule;
import io.coffer.por.code.Part;

/**
 * A coded region an audit samples, with the time each of its blocks was written, which the client computes from its
 * write counter and which keys their sealed checksums: buffer C (2n code blocks: part X indices 0..n-1, then part Y,
 * all written at {@code time}), or run {@code run} of level l of H ({@link io.coffer.por.code.DeamortizedLog}: 2^(l+1)
 * code blocks, part X then part Y, at the positions of the run's slot), whose vector i was written at add
 * {@link DeamortizedSchedule#writtenAt} of the epoch whose H time starts at {@code time}.
 */
public record AuditedRegion(BlockAddress.Buffer buffer, int level, int run, long size, long time) {
    public AuditedRegion {
        if (buffer == BlockAddress.Buffer.U) {
            throw new IllegalArgumentException("U is not audited; C and H are");
        }
        if (size <= 0 || size % 2 != 0 || (buffer == BlockAddress.Buffer.H && size != 2L << level)) {
            throw new IllegalArgumentException("bad region size " + size + " for " + buffer + " level " + level);
        }
        if (run < 0 || (buffer == BlockAddress.Buffer.C && run != 0)) {
            throw new IllegalArgumentException("bad run " + run + " for " + buffer);
        }
        if (time < 0) {
            throw new IllegalArgumentException("negative write time: " + time);
        }
    }

    public static AuditedRegion c(long codeBlocks, long writeTime) {
        return new AuditedRegion(BlockAddress.Buffer.C, 0, 0, codeBlocks, writeTime);
    }

    /** Run {@code run} of {@code level} of H, in the epoch whose add count 0 has time {@code epochTime}. */
    public static AuditedRegion run(int level, int run, long epochTime) {
        return new AuditedRegion(BlockAddress.Buffer.H, level, run, 2L << level, epochTime);
    }

    /** The address of the {@code j}-th code block of this region. */
    public BlockAddress address(long j) {
        check(j);
        long half = size / 2;
        Part part = j < half ? Part.X : Part.Y;
        long index = j < half ? j : j - half;
        return buffer == BlockAddress.Buffer.C ? BlockAddress.c(part, index)
                : BlockAddress.h(level, part, vector(index).position());
    }

    /** The time the {@code j}-th code block of this region was written. */
    public long writeTime(long j) {
        check(j);
        return buffer == BlockAddress.Buffer.C ? time : time + vector(j % (size / 2)).writtenAt();
    }

    private DeamortizedSchedule.Vector vector(long index) {
        return new DeamortizedSchedule.Vector(level, run, (int) index);
    }

    private void check(long j) {
        if (j < 0 || j >= size) {
            throw new IndexOutOfBoundsException(j + " outside [0, " + size + ")");
        }
    }
}
