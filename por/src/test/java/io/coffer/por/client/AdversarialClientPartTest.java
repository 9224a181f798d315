package io.coffer.por.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.PorVerificationException;
import io.coffer.por.checksum.SealBrokenException;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.code.Part;
import io.coffer.por.server.MemoryPorServer;
import io.coffer.por.server.PorServer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The cheats open to a server in the client's paced part of C's rebuild ({@link PacedClientPart}): serving U's
 * checksums of the epoch's end changed since (a write of the window) or forged, dropping a part of the next C's
 * sealed checksums it acknowledged, switching with the old C's. Each is caught: the root check or the opening throws
 * {@link PorVerificationException} (and the next call starts the part again), the honest server refuses to switch
 * without every part, and the audit after a switch over checksums that are not the client's fails. At k = 6 C holds
 * 128 = lambda code blocks, so every audit samples all of them.
 */
class AdversarialClientPartTest {
    private static final int K = 6;
    private static final int BLOCK = 32;

    private final SplittableRandom random = new SplittableRandom(17);
    private final Map<Integer, byte[]> written = new HashMap<>();

    /** How the client reaches the (cheating) server: here in-process; over a socket in a subclass. */
    PorServer reached(PorServer server) {
        return server;
    }

    /** A server whose snapshot answers pass through {@code cheat} while {@code on}. */
    static final class SnapshotCheat extends PacesClientPart {
        boolean on;
        private final UnaryOperator<List<byte[]>> cheat;
        private int from;

        SnapshotCheat(PorServer inner, java.util.function.BiFunction<Integer, List<byte[]>, List<byte[]>> cheat) {
            super(inner);
            this.cheat = part -> cheat.apply(from, part);
        }

        @Override
        public List<byte[]> snapshotSealedU(int from, int count) {
            this.from = from;
            List<byte[]> part = inner.snapshotSealedU(from, count);
            return on ? cheat.apply(part) : part;
        }
    }

    @Test
    void aChecksumChangedInTheWindowFailsTheRootCheckAndThePartStartsAgain() {
        MemoryPorServer honest = new MemoryPorServer(K, BLOCK);
        SnapshotCheat server = new SnapshotCheat(honest, (from, part) -> {
            List<byte[]> now = new ArrayList<>();
            for (int i = 0; i < part.size(); i++) {
                now.add(honest.leaf(from + i).sealedChecksum()); // U as it is now, not at the epoch's end
            }
            return now;
        });
        server.on = true;
        PorClient client = client(server);
        endEpoch(client);
        write(client, (1 << K) - 1); // the last index changes before the part reads it
        ClientState before = client.state();
        assertThatThrownBy(() -> {
            for (int i = 0; i < 8; i++) {
                write(client, i);
            }
        }).isInstanceOf(PorVerificationException.class).hasMessageContaining("Merkle root");
        assertThat(client.state().clientPartPending()).isTrue();
        assertThat(client.state().hLog().t()).isGreaterThan(before.hLog().t());
        server.on = false;
        throughTheSwitch(client);
    }

    @Test
    void aForgedOrMisplacedChecksumOfTheSnapshotDoesNotOpen() {
        for (boolean misplaced : new boolean[] {false, true}) {
            MemoryPorServer honest = new MemoryPorServer(K, BLOCK);
            SnapshotCheat server = new SnapshotCheat(honest, (from, part) -> {
                List<byte[]> changed = new ArrayList<>(part);
                byte[] forged = new byte[part.get(0).length];
                random.nextBytes(forged);
                changed.set(0, misplaced ? part.get(1) : forged); // another index's, or not the client's at all
                return changed;
            });
            PorClient client = client(server);
            for (int i = 0; i < 1 << K; i++) {
                write(client, i); // every index written: none is served as never written
            }
            server.on = true;
            assertThatThrownBy(() -> write(client, 3)).isInstanceOf(SealBrokenException.class);
            server.on = false;
            throughTheSwitch(client);
        }
    }

    @Test
    void aPartDroppedAfterItsAcknowledgementIsRefusedAtTheSwitchOrFailsTheAuditAfterIt() {
        for (boolean coverUp : new boolean[] {false, true}) {
            MemoryPorServer honest = new MemoryPorServer(K, BLOCK);
            byte[][][] oldC = new byte[2][][];
            boolean[] dropped = {false};
            PorServer server = new PacesClientPart(honest) {
                @Override
                public void putNextSealedC(int from, byte[][] x, byte[][] y) {
                    if (dropped[0]) {
                        inner.putNextSealedC(from, x, y);
                        return;
                    }
                    dropped[0] = true; // acknowledged, not kept
                    if (coverUp) { // the old C's checksums where the part should be, so the switch goes through
                        honest.storage().setNextSealedC(from, slice(oldC[0], from, x.length),
                                slice(oldC[1], from, y.length));
                    }
                }
            };
            PorClient client = client(server);
            oldC[0] = honest.storage().sealedC(Part.X);
            oldC[1] = honest.storage().sealedC(Part.Y);
            endEpoch(client);
            if (!coverUp) {
                assertThatThrownBy(() -> throughTheSwitch(client)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("needs all its sealed checksums");
                assertThat(honest.windowProgress()).isNotNull(); // no switch
                continue;
            }
            writeUntilTheSwitch(client);
            assertThat(client.audit().passed()).isFalse();
        }
    }

    @Test
    void aServerThatSwitchesWithTheOldChecksumsFailsTheAudit() {
        MemoryPorServer honest = new MemoryPorServer(K, BLOCK);
        PorClient client = client(new PacesClientPart(honest));
        byte[][] oldX = honest.storage().sealedC(Part.X);
        byte[][] oldY = honest.storage().sealedC(Part.Y);
        endEpoch(client);
        assertThat(client.audit().passed()).isTrue(); // the old C, audited as such before the switch
        writeUntilTheSwitch(client);
        honest.storage().setSealedC(oldX, oldY);
        assertThat(client.audit().passed()).isFalse();
    }

    private PorClient client(PorServer server) {
        return PorClient.initialize(reached(server), HonestServerTest.MASTER_KEY, new SecureRandom(), s -> { });
    }

    private void write(PorClient client, int index) {
        byte[] block = new byte[BLOCK];
        random.nextBytes(block);
        client.write(index, block);
        written.put(index, block);
    }

    /** Writes the rest of the epoch: its last write opens the window. */
    private void endEpoch(PorClient client) {
        long epoch = client.state().hLog().epoch();
        while (client.state().hLog().epoch() == epoch) {
            write(client, random.nextInt(1 << K));
        }
        assertThat(client.state().clientPartPending()).isTrue();
    }

    private void writeUntilTheSwitch(PorClient client) {
        while (client.state().hLog().t() < PacedCRebuild.addsToSwitch(K, 0)) {
            write(client, random.nextInt(1 << K));
        }
    }

    /** Writes through the switch: the part completes before it, and every block and audit checks out after it. */
    private void throughTheSwitch(PorClient client) {
        writeUntilTheSwitch(client);
        assertThat(client.state().clientPartPending()).isFalse();
        assertThat(client.audit().passed()).isTrue();
        written.forEach((index, block) -> assertThat(client.read(index)).isEqualTo(block));
    }

    private static byte[][] slice(byte[][] all, int from, int count) {
        return java.util.Arrays.copyOfRange(all, from, from + count);
    }
}
