package io.coffer.por.audit;

import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.field.ZpVectors;
import java.util.ArrayList;
import java.util.List;

/** The server's side of an audit: B* = sum(r_i * B_i) over the sampled code blocks, and their sealed checksums. */
public final class AuditProver {
    /** Where the server reads a code block and its sealed checksum. */
    public interface CodeBlocks {
        int[] block(BlockAddress address);

        byte[] sealedChecksum(BlockAddress address);
    }

    private AuditProver() {}

    public static AuditResponse prove(AuditChallenge challenge, int width, CodeBlocks blocks) {
        int[] aggregate = new int[width];
        List<byte[]> sealed = new ArrayList<>(challenge.size());
        for (int i = 0; i < challenge.size(); i++) {
            BlockAddress address = challenge.addresses().get(i);
            int[] block = blocks.block(address);
            if (block.length != width) {
                throw new IllegalStateException("block at " + address + " has " + block.length + " elements");
            }
            ZpVectors.addScaled(aggregate, block, challenge.coefficient(i));
            sealed.add(blocks.sealedChecksum(address));
        }
        return new AuditResponse(aggregate, sealed);
    }
}
