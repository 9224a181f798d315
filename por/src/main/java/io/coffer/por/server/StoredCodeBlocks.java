package io.coffer.por.server;

import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.audit.AuditProver;
import io.coffer.por.audit.AuditResponse;
import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.code.LevelStore;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/** The code blocks an audit samples, read from a server's level store with their kept sealed checksums. */
final class StoredCodeBlocks {
    private StoredCodeBlocks() {
    }

    /**
     * Proves {@code challenge} over {@code vectors} (each address at the level {@code levelOf} gives), with the sealed
     * checksums {@code sealedAt} gives; one that is missing is lost, and the proof fails.
     */
    static AuditResponse prove(AuditChallenge challenge, LevelStore vectors, ToIntFunction<BlockAddress> levelOf,
            Function<BlockAddress, byte[]> sealedAt) {
        return AuditProver.prove(challenge, vectors.width(), new AuditProver.CodeBlocks() {
            @Override
            public int[] block(BlockAddress address) {
                int[] v = new int[vectors.width()];
                vectors.read(levelOf.applyAsInt(address), address.part(), (int) address.index(), v);
                return v;
            }

            @Override
            public byte[] sealedChecksum(BlockAddress address) {
                byte[] sealed = sealedAt.apply(address);
                if (sealed == null) {
                    throw new IllegalStateException("the sealed checksum of " + address + " is lost");
                }
                return sealed;
            }
        });
    }
}
