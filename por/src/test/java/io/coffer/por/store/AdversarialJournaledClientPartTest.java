package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.PorVerificationException;
import io.coffer.por.client.PorClient;
import io.coffer.por.code.LogState;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.net.ServerParameters;
import io.coffer.por.server.PorServer;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A durable server whose window's files for the client's part are edited, as a dishonest server or a lost write
 * leaves them, is caught: a snapshot checksum kept aside changed in {@code window.copies} fails the client's root
 * check, a part acknowledged and then lost from {@code c.next.sealed} gets the switching add refused (after a reopen,
 * which counts the empty positions), and a part replaced there by other checksums fails the audit after the switch. At
 * k = 6 C holds 128 code blocks, so every audit samples all of them.
 */
class AdversarialJournaledClientPartTest {
    private static final int BLOCK = 24;
    private static final int K = 6;
    private static final int N = 1 << K;
    private static final int SWITCH = PacedCRebuild.addsToSwitch(K, 0);
    private static final ServerParameters PARAMS = new ServerParameters(K, 0, BLOCK);

    @TempDir
    Path dir;

    private final JournaledClients clients = new JournaledClients(59, BLOCK, 1);
    private final byte[][] expected = new byte[N][];

    @Test
    void aSnapshotChecksumChangedInTheCopiesFailsTheClientsRootCheck() throws IOException {
        try (JournaledPorServer server = JournaledPorServer.open(dir, PARAMS)) {
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, expected, N);
            int last = N - 1; // downloaded last: after the edit
            byte[] block = new byte[BLOCK];
            client.write(last, block); // its first change in the window: the copy keeps its checksum at the freeze
            expected[last] = block;
            ClientPartFiles.replaceKeptSealed(dir, server.storage().cVectors().width(), last,
                    server.leaf(last).sealedChecksum()); // U's checksum as it is now, not at the epoch's end
            assertThatThrownBy(() -> clients.writeRandom(client, expected, SWITCH))
                    .isInstanceOf(PorVerificationException.class).hasMessageContaining("Merkle root");
            assertThat(client.state().clientPartPending()).isTrue();
        }
    }

    @Test
    void aPartLostFromTheFilesAfterItsAnswerGetsTheSwitchingAddRefused() throws IOException {
        JournaledPorServer server = JournaledPorServer.open(dir, PARAMS);
        AtomicReference<PorServer> target = new AtomicReference<>(server);
        AtomicReference<int[]> firstPart = new AtomicReference<>();
        PorClient client = clients.initialize(watchingParts(target, firstPart));
        clients.writeRandom(client, expected, N);
        while (firstPart.get() == null) {
            clients.writeRandom(client, expected, 1);
        }
        server.close();
        int from = firstPart.get()[0];
        int count = firstPart.get()[1];
        ClientPartFiles.overwriteNextSealed(dir, N, 0, from, new byte[count][ClientPartFiles.SEALED]); // lost
        try (JournaledPorServer reopened = JournaledPorServer.open(dir, null)) {
            assertThat(reopened.storage().nextSealedMissing()).isGreaterThanOrEqualTo(count);
            target.set(reopened);
            while (reopened.state().t() + 1 < SWITCH) {
                clients.writeRandom(client, expected, 1);
            }
            LogState before = reopened.state();
            assertThatThrownBy(() -> clients.writeRandom(client, expected, 1)) // it sends the rest, then the add
                    .hasStackTraceContaining("needs all its sealed checksums");
            assertThat(reopened.state()).isEqualTo(before);
            assertThat(reopened.storage().windowEpoch()).isEqualTo(2);
            assertThat(reopened.storage().nextSealedMissing()).isEqualTo(count); // only the lost part's positions
        }
    }

    @Test
    void aPartReplacedInTheFilesFailsTheAuditAfterTheSwitch() throws IOException {
        try (JournaledPorServer server = JournaledPorServer.open(dir, PARAMS)) {
            AtomicReference<int[]> firstPart = new AtomicReference<>();
            PorClient client = clients.initialize(watchingParts(new AtomicReference<>(server), firstPart));
            clients.writeRandom(client, expected, N);
            while (firstPart.get() == null) {
                clients.writeRandom(client, expected, 1);
            }
            int from = firstPart.get()[0];
            // the part's X checksums replaced by Y's: all present, so the switch goes ahead, but none is C's
            ClientPartFiles.overwriteNextSealed(dir, N, 0, from, ClientPartFiles.nextSealed(dir, N, 1, from,
                    firstPart.get()[1]));
            while (server.storage().windowEpoch() == 2) {
                clients.writeRandom(client, expected, 1);
            }
            assertThat(server.state().t()).isEqualTo(SWITCH);
            assertThat(client.audit().passed()).isFalse();
        }
    }

    /** The server {@code target} holds, noting the first NEXT_SEALED_C's range (from, count) once it is answered. */
    private static PorServer watchingParts(AtomicReference<PorServer> target, AtomicReference<int[]> firstPart) {
        return (PorServer) Proxy.newProxyInstance(PorServer.class.getClassLoader(), new Class<?>[] {PorServer.class},
                (p, method, args) -> {
                    Object answer;
                    try {
                        answer = method.invoke(target.get(), args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (method.getName().equals("putNextSealedC") && firstPart.get() == null) {
                        firstPart.set(new int[] {(int) args[0], ((byte[][]) args[1]).length});
                    }
                    return answer;
                });
    }
}
