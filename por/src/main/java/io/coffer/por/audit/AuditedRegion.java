package io.coffer.por.audit;

import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.code.Part;

/**
 * A coded region an audit samples: buffer C (2n code blocks: part X indices 0..n-1, then part Y) or a filled level l
 * of H (2^(l+1) code blocks: part X indices 0..2^l-1, then part Y), with the time its blocks were written, which the
 * client computes from its write counter and which keys their sealed checksums.
 */
public record AuditedRegion(BlockAddress.Buffer buffer, int level, long size, long writeTime) {
    public AuditedRegion {
        if (buffer == BlockAddress.Buffer.U) {
            throw new IllegalArgumentException("U is not audited; C and H are");
        }
        if (size <= 0 || size % 2 != 0 || (buffer == BlockAddress.Buffer.H && size != 2L << level)) {
            throw new IllegalArgumentException("bad region size " + size + " for " + buffer + " level " + level);
        }
        if (writeTime < 0) {
            throw new IllegalArgumentException("negative write time: " + writeTime);
        }
    }

    public static AuditedRegion c(long codeBlocks, long writeTime) {
        return new AuditedRegion(BlockAddress.Buffer.C, 0, codeBlocks, writeTime);
    }

    public static AuditedRegion level(int level, long writeTime) {
        return new AuditedRegion(BlockAddress.Buffer.H, level, 2L << level, writeTime);
    }

    /** The address of the {@code j}-th code block of this region. */
    public BlockAddress address(long j) {
        if (j < 0 || j >= size) {
            throw new IndexOutOfBoundsException(j + " outside [0, " + size + ")");
        }
        long half = size / 2;
        Part part = j < half ? Part.X : Part.Y;
        long index = j < half ? j : j - half;
        return buffer == BlockAddress.Buffer.C ? BlockAddress.c(part, index) : BlockAddress.h(level, part, index);
    }
}
