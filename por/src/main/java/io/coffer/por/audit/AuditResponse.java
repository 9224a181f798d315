package io.coffer.por.audit;

import io.coffer.por.checksum.ChecksumSealer;
import java.util.List;

/** The server's answer to an audit: the aggregate block B* and the sealed checksum of each sampled block, in order. */
public record AuditResponse(int[] aggregate, List<byte[]> sealedChecksums) {
    public AuditResponse {
        aggregate = aggregate.clone();
        sealedChecksums = List.copyOf(sealedChecksums);
    }

    @Override
    public int[] aggregate() {
        return aggregate.clone();
    }

    /** Server-to-client bytes: B* as 4-byte elements and the sealed checksums. */
    public long wireBytes() {
        return (long) aggregate.length * Integer.BYTES + (long) sealedChecksums.size() * ChecksumSealer.SEALED_BYTES;
    }
}
