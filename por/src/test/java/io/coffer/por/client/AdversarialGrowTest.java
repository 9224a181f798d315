package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.PorVerificationException;
import io.coffer.por.code.Part;
import io.coffer.por.field.Zp;
import io.coffer.por.server.MemoryPorServer;
import io.coffer.por.server.ProvenBlock;
import io.coffer.por.server.SealedLevel;
import java.security.SecureRandom;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A server that cheats on a grow (appendix A.3) is caught: one that reports the grow but keeps the old code or
 * computes a wrong one fails the next audit, one that serves a block of U as it was before the grow, or answers with
 * a tree whose root is not the client's, fails the next read or write, and one that does not grow at all fails
 * every path check.
 */
class AdversarialGrowTest {
    private static final int K = 4;
    private static final int BLOCK = 32;

    private final SplittableRandom random = new SplittableRandom(29);

    private byte[] randomBlock() {
        byte[] b = new byte[BLOCK];
        random.nextBytes(b);
        return b;
    }

    private PorClient filled(ForwardingPorServer server) {
        PorClient client = PorClient.initialize(server, HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        for (int i = 0; i < 1 << K; i++) {
            client.write(i, randomBlock());
        }
        return client;
    }

    /** How a server cheats on a grow: around or after the honest grow it is handed. */
    private interface GrowCheat {
        void grow(MemoryPorServer honest, int k, Runnable honestGrow);
    }

    private void assertTheAuditFailsAfterAGrowThat(GrowCheat cheat) {
        MemoryPorServer honest = new MemoryPorServer(K, BLOCK);
        PorClient client = filled(new ForwardingPorServer(honest) {
            @Override
            public void resize(int k, long epoch, SealedLevel c) {
                cheat.grow(honest, k, () -> super.resize(k, epoch, c));
            }
        });

        client.grow(K + 1);

        assertThat(client.audit().passed()).isFalse();
    }

    @Test
    void aServerThatKeepsTheOldCodeAfterAGrowFailsTheAudit() {
        assertTheAuditFailsAfterAGrowThat((honest, k, honestGrow) -> {
            int oldLevel = honest.storage().cParameters().cLevel();
            int[][][] old = {honest.storage().cVectors().copy(oldLevel, Part.X),
                    honest.storage().cVectors().copy(oldLevel, Part.Y)};
            honestGrow.run();
            int level = honest.storage().cParameters().cLevel();
            int[] zero = new int[honest.storage().cVectors().width()];
            for (Part part : Part.values()) { // the old code where the new one belongs, the rest left as zero
                int[][] from = old[part.ordinal()];
                for (int i = 0; i < 1 << k; i++) {
                    honest.storage().cVectors().write(level, part, i, i < from.length ? from[i] : zero);
                }
            }
        });
    }

    @Test
    void aServerThatComputesAWrongCodeOnAGrowFailsTheAudit() {
        assertTheAuditFailsAfterAGrowThat((honest, k, honestGrow) -> {
            honestGrow.run();
            int level = honest.storage().cParameters().cLevel();
            int[] v = new int[honest.storage().cVectors().width()];
            for (int i = 0; i < 1 << k; i += 2) { // every other vector of X altered
                honest.storage().cVectors().read(level, Part.X, i, v);
                v[0] = (v[0] + 1) % Zp.P;
                honest.storage().cVectors().write(level, Part.X, i, v);
            }
        });
    }

    @Test
    void aBlockServedAsItWasBeforeTheGrowIsRejected() {
        MemoryPorServer honest = new MemoryPorServer(K, BLOCK);
        ProvenBlock[] before = new ProvenBlock[1];
        ForwardingPorServer stale = new ForwardingPorServer(honest) {
            @Override
            public ProvenBlock read(int index) {
                return index == 3 && before[0] != null ? before[0] : inner.read(index);
            }
        };
        PorClient client = filled(stale);
        before[0] = honest.read(3);
        client.write(3, randomBlock()); // the version the grow must keep

        client.grow(K + 1);

        assertThatThrownBy(() -> client.read(3)).isInstanceOf(PorVerificationException.class);
    }

    @Test
    void aGrowAnsweredWithATreeOfAnotherRootIsRejectedAtTheNextReadAndWrite() {
        MemoryPorServer honest = new MemoryPorServer(K, BLOCK);
        byte[][] oldLeaf = new byte[1][];
        ForwardingPorServer otherTree = new ForwardingPorServer(honest) {
            @Override
            public void resize(int k, long epoch, SealedLevel c) {
                super.resize(k, epoch, c);
                honest.storage().setUSealed(5, oldLeaf[0]); // an older checksum of block 5 in the new tree
            }
        };
        PorClient client = filled(otherTree);
        oldLeaf[0] = honest.storage().uSealed(5).clone();
        client.write(5, randomBlock());

        client.grow(K + 1);

        assertThat(honest.storage().root()).isNotEqualTo(client.state().root());
        assertThatThrownBy(() -> client.read(20)).isInstanceOf(PorVerificationException.class)
                .hasMessageContaining("Merkle root");
        assertThatThrownBy(() -> client.write(21, randomBlock())).isInstanceOf(PorVerificationException.class);
    }

    @Test
    void aServerThatReportsAGrowButStaysSmallFailsEveryCheck() {
        MemoryPorServer honest = new MemoryPorServer(K, BLOCK);
        ForwardingPorServer ignores = new ForwardingPorServer(honest) {
            @Override
            public void resize(int k, long epoch, SealedLevel c) {
                // acknowledged, not done
            }
        };
        PorClient client = filled(ignores);

        client.grow(K + 1);

        assertThatThrownBy(() -> client.read(1)).isInstanceOf(PorVerificationException.class);
        assertThat(client.audit().passed()).isFalse();
    }
}
