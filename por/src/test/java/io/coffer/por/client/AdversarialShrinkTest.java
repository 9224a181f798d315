package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.PorVerificationException;
import io.coffer.por.code.Part;
import io.coffer.por.server.MemoryPorServer;
import io.coffer.por.server.ProvenBlock;
import io.coffer.por.server.SealedLevel;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A server that cheats on a shrink (appendix A.3, consolidation) is caught: one that keeps the larger code (vectors
 * and sealed checksums) fails the next audit, one that serves a block as it was before the shrink or with the larger
 * tree's path, or answers with a tree whose root is not the client's, fails the next read or write, and one that
 * acknowledges the shrink and stays large fails every read and the audit.
 */
class AdversarialShrinkTest {
    private static final int K = 4;
    private static final int BLOCK = 32;

    private final SplittableRandom random = new SplittableRandom(37);

    private byte[] randomBlock() {
        byte[] b = new byte[BLOCK];
        random.nextBytes(b);
        return b;
    }

    /** Every block written, the upper half deleted again: ready to shrink to 2^(K-1). */
    private PorClient upperHalfDeleted(ForwardingPorServer server) {
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        for (int i = 0; i < 1 << K; i++) {
            client.write(i, randomBlock());
        }
        for (int i = 1 << (K - 1); i < 1 << K; i++) {
            client.write(i, new byte[BLOCK]);
        }
        return client;
    }

    @Test
    void aServerThatKeepsTheLargerCodeAfterAShrinkFailsTheAudit() {
        MemoryPorServer honest = new MemoryPorServer(K, BLOCK);
        PorClient client = upperHalfDeleted(new ForwardingPorServer(honest) {
            @Override
            public void resize(int k, long epoch, SealedLevel c) {
                int oldLevel = honest.storage().cParameters().cLevel();
                int[][][] vectors = {honest.storage().cVectors().copy(oldLevel, Part.X),
                        honest.storage().cVectors().copy(oldLevel, Part.Y)};
                byte[][] x = honest.storage().sealedC(Part.X);
                byte[][] y = honest.storage().sealedC(Part.Y);
                super.resize(k, epoch, c);
                int level = honest.storage().cParameters().cLevel();
                for (Part part : Part.values()) { // the larger code's first 2^k vectors where the new code belongs
                    for (int i = 0; i < 1 << k; i++) {
                        honest.storage().cVectors().write(level, part, i, vectors[part.ordinal()][i]);
                    }
                }
                honest.storage().setSealedC(Arrays.copyOf(x, 1 << k), Arrays.copyOf(y, 1 << k));
            }
        });

        client.shrink(K - 1);

        assertThat(client.audit().passed()).isFalse();
    }

    /**
     * A server that answers reads of block {@code index} after the shrink with what it served before it (taken once
     * {@code before} has run on the filled client) is rejected with {@code message}.
     */
    private void assertAStaleReadIsRejected(int index, java.util.function.Consumer<PorClient> before,
            String message) {
        MemoryPorServer honest = new MemoryPorServer(K, BLOCK);
        ProvenBlock[] stale = new ProvenBlock[1];
        PorClient client = upperHalfDeleted(new ForwardingPorServer(honest) {
            @Override
            public ProvenBlock read(int i) {
                return i == index && stale[0] != null ? stale[0] : inner.read(i);
            }
        });
        stale[0] = honest.read(index); // the larger tree's path, the block as it is now
        before.accept(client);

        client.shrink(K - 1);

        assertThatThrownBy(() -> client.read(index)).isInstanceOf(PorVerificationException.class)
                .hasMessageContaining(message);
    }

    @Test
    void aBlockServedAsItWasBeforeTheShrinkIsRejected() {
        assertAStaleReadIsRejected(3, c -> c.write(3, randomBlock()), ""); // the version the shrink must keep
    }

    @Test
    void aBlockServedWithTheLargerTreesPathIsRejected() {
        assertAStaleReadIsRejected(2, c -> { }, "depth"); // the same block, its path of 2^K leaves
    }

    @Test
    void aShrinkAnsweredWithATreeOfAnotherRootIsRejectedAtTheNextReadAndWrite() {
        MemoryPorServer honest = new MemoryPorServer(K, BLOCK);
        byte[][] oldLeaf = new byte[1][];
        PorClient client = upperHalfDeleted(new ForwardingPorServer(honest) {
            @Override
            public void resize(int k, long epoch, SealedLevel c) {
                super.resize(k, epoch, c);
                honest.storage().setUSealed(5, oldLeaf[0]); // an older checksum of block 5 in the new tree
            }
        });
        oldLeaf[0] = honest.storage().uSealed(5).clone();
        client.write(5, randomBlock());

        client.shrink(K - 1);

        assertThat(honest.storage().root()).isNotEqualTo(client.state().root());
        assertThatThrownBy(() -> client.read(6)).isInstanceOf(PorVerificationException.class)
                .hasMessageContaining("Merkle root");
        assertThatThrownBy(() -> client.write(7, randomBlock())).isInstanceOf(PorVerificationException.class);
    }

    @Test
    void aServerThatReportsAShrinkButStaysLargeFailsEveryCheck() {
        MemoryPorServer honest = new MemoryPorServer(K, BLOCK);
        PorClient client = upperHalfDeleted(new ForwardingPorServer(honest) {
            @Override
            public void resize(int k, long epoch, SealedLevel c) {
                // acknowledged, not done
            }
        });

        client.shrink(K - 1);

        assertThatThrownBy(() -> client.read(1)).isInstanceOf(PorVerificationException.class);
        assertThat(client.audit().passed()).isFalse();
    }

    @Test
    void aServerCannotMakeAClientDropBlocksByClaimingAShrink() {
        MemoryPorServer honest = new MemoryPorServer(K, BLOCK);
        PorClient client = upperHalfDeleted(new ForwardingPorServer(honest) { });
        client.write(12, randomBlock()); // in use again
        MemoryPorServer smaller = new MemoryPorServer(K - 1, BLOCK);
        PorClient.initialize(smaller, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });

        PorClient deceived = new PorClient(smaller, client.state(), new SecureRandom(), s -> { });

        assertThatThrownBy(deceived::resync).isInstanceOf(PorVerificationException.class)
                .hasMessageContaining("impossible log state");
    }
}
