package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.client.PorClient;
import io.coffer.por.code.LogState;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.net.MessageType;
import io.coffer.por.net.ServerParameters;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobListing;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.blob.ForwardingBlobStore;
import io.coffer.sdk.blob.MemoryBlobStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The paced C rebuild with U, C and H in a bucket (the sdk's {@link MemoryBlobStore}, as {@code coffer por-server
 * --backend s3} keeps them): the window's fresh H and next C under the window's generation, the frozen H and the old C
 * left where they are, the switch recorded in {@code generations} and the former generation deleted after it. The
 * server paces, audits pass inside and after windows over several epochs, and a kill at each step of the window (the
 * freeze, mid-rebuild, the switch, the former generation's deletes) reopens to the same content.
 */
class ObjectStoragePacedWindowTest {
    private static final int BLOCK = 24;
    private static final int K = 4;
    /** The add of the window at which the rebuild is complete (b = 0: one write per add). */
    private static final int SWITCH = (int) PacedCRebuild.stepsToComplete(K);
    private static final ServerParameters PARAMS = new ServerParameters(K, 0, BLOCK);

    @TempDir
    Path dir;

    private final MemoryBlobStore bucket = new MemoryBlobStore("bucket");
    private final JournaledClients clients = new JournaledClients(31, BLOCK, 2);
    private final byte[][] expected = new byte[1 << K][];

    @Test
    void theBucketsServerPacesOverSeveralEpochsWithAuditsReadsAndRepairsInsideTheWindows() throws IOException {
        try (JournaledPorServer server = JournaledPorServer.open(dir, PARAMS, bucket, 0)) {
            assertThat(server.pacesCRebuild()).isTrue();
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, expected, 1 << K);
            assertThat(server.storage().windowEpoch()).isEqualTo(2);
            assertThat(names("h-")).isNotEmpty(); // the frozen H, left in generation 0
            assertThat(names("c-" + (K + 1) + "-")).hasSize(2 << K); // the old C
            clients.writeRandom(client, expected, 2);
            client.flush();
            assertThat(names("g2/h-")).isNotEmpty(); // the window's H
            clients.assertContent(client, expected); // old C, frozen H and current H audited

            bucket.delete("u/5"); // lost in the window: decoded through the old C and both Hs
            client.repair(List.of(5));
            clients.assertContent(client, expected);

            clients.writeRandom(client, expected, SWITCH - 3);
            client.flush();
            assertThat(server.storage().windowEpoch()).isEqualTo(2);
            assertThat(names("g2/c-" + (K + 1) + "-")).isNotEmpty(); // the next C, under way
            clients.writeRandom(client, expected, 1);
            assertThat(server.storage().windowEpoch()).isEqualTo(-1);
            assertThat(BlobGenerations.read(dir, bucket).current()).isEqualTo(2);
            assertThat(BlobGenerations.read(dir, bucket).retired()).isZero();
            clients.assertContent(client, expected); // the new C, from generation 2

            clients.writeRandom(client, expected, (1 << K) - SWITCH); // the epoch's rest deletes generation 0
            assertThat(names("h-")).isEmpty();
            assertThat(names("c-")).isEmpty();
            assertThat(BlobGenerations.read(dir, bucket).retired()).isEqualTo(-1);

            for (int epoch = 3; epoch <= 5; epoch++) { // each epoch its own window, its own generation
                clients.writeRandom(client, expected, SWITCH / 2);
                assertThat(server.storage().windowEpoch()).isEqualTo(epoch);
                clients.assertContent(client, expected);
                clients.writeRandom(client, expected, (1 << K) - SWITCH / 2);
                assertThat(BlobGenerations.read(dir, bucket).current()).isEqualTo(epoch);
                assertThat(prefixes()).containsExactly("g" + epoch + "/", "u/");
            }
            clients.assertContent(client, expected);
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, bucket, 0)) {
            clients.assertResumes(server, expected, 1 << K);
        }
    }

    @Test
    void theClientsPartIsPacedWithTheBucketAndAReopenInTheWindowServesTheSameSnapshot() throws IOException {
        JournaledPorServer server = JournaledPorServer.open(dir, PARAMS, bucket, 0);
        assertThat(server.pacesClientPart()).isTrue();
        ClientPartFiles reach = new ClientPartFiles(server);
        PorClient client = clients.initialize(reach.proxy());
        clients.writeRandom(client, expected, 1 << K);
        assertThat(PacedWindowFiles.read(dir).clientPart()).isTrue();
        assertThat(client.state().clientPartPending()).isTrue();
        List<byte[]> atTheEnd = ClientPartFiles.snapshot(server, 1 << K);
        while (server.storage().nextSealedMissing() == 1 << K) { // writes of the window until a part is in
            clients.writeRandom(client, expected, 1);
        }
        assertThat(server.storage().windowEpoch()).isEqualTo(2);
        int missing = server.storage().nextSealedMissing();
        server.haltAsKilled();
        try (JournaledPorServer reopened = JournaledPorServer.open(dir, null, bucket, 0)) {
            assertThat(reopened.storage().windowTakesClientPart()).isTrue();
            assertThat(reopened.storage().nextSealedMissing()).isEqualTo(missing);
            List<byte[]> again = ClientPartFiles.snapshot(reopened, 1 << K);
            for (int i = 0; i < 1 << K; i++) {
                assertThat(again.get(i)).isEqualTo(atTheEnd.get(i));
            }
            reach.target = reopened;
            clients.assertContent(client, expected);
            while (reopened.storage().windowEpoch() == 2) {
                clients.writeRandom(client, expected, 1);
            }
            assertThat(client.state().clientPartPending()).isFalse();
            assertThat(BlobGenerations.read(dir, bucket).current()).isEqualTo(2);
            clients.assertGoesOn(client, expected, 1 << K); // the switched C audited, and a further epoch
        }
    }

    @Test
    void aFreezeKilledBeforeItsRecordIsRedoneFromTheJournal() throws IOException {
        JournaledPorServer server = JournaledPorServer.open(dir, PARAMS, bucket, 0);
        PorClient client = clients.initialize(server);
        clients.writeRandom(client, expected, (1 << K) - 1);
        CrashAfterJournal crash = new CrashAfterJournal(server, dir, PARAMS, MessageType.REBUILD_C);
        clients.writeRandom(clients.resume(crash.proxy()), expected, 1);
        assertThat(server.storage().windowEpoch()).isEqualTo(2);
        server.haltAsKilled();
        crash.rewindJournal();
        PacedWindowSteps.freezeCutBeforeItsRecord(dir); // H's sealed checksums under their names: no object moved
        assertReopensInTheWindowAndGoesOn(0);
    }

    @Test
    void aFreezeKilledAfterItsRecordIsCompletedAtOpen() throws IOException {
        JournaledPorServer server = JournaledPorServer.open(dir, PARAMS, bucket, 0);
        clients.writeRandom(clients.initialize(server), expected, 1 << K);
        server.haltAsKilled();
        PacedWindowSteps.freezeCutAfterItsRecord(dir, 2);
        assertReopensInTheWindowAndGoesOn(0);
    }

    @Test
    void aKillMidRebuildRestartsItFromUnitZeroOverTheGarbledNextC() throws IOException {
        JournaledPorServer server = JournaledPorServer.open(dir, PARAMS, bucket, 0);
        PorClient client = clients.initialize(server);
        clients.writeRandom(client, expected, (1 << K) + SWITCH - 1);
        client.flush();
        assertThat(server.storage().windowEpoch()).isEqualTo(2);
        server.haltAsKilled();
        List<String> next = names("g2/c-");
        assertThat(next).isNotEmpty();
        for (String name : next) { // the next C half-written: rewritten from unit 0
            byte[] garbage = new byte[bucket.read(name, 0, 4).length];
            clients.nextBytes(garbage);
            bucket.put(name, BlobContent.of(garbage));
        }
        assertReopensInTheWindowAndGoesOn(SWITCH - 1);
    }

    @Test
    void aSwitchKilledBeforeItsGenerationIsRecordedIsCompletedAtOpen() throws IOException {
        JournaledPorServer server = JournaledPorServer.open(dir, PARAMS, bucket, 0);
        clients.writeRandom(clients.initialize(server), expected, (1 << K) + SWITCH);
        assertThat(server.storage().windowEpoch()).isEqualTo(-1);
        server.haltAsKilled();
        // as the switch leaves the bucket right after its record: C still generation 0, c.next.sealed not renamed
        Files.delete(dir.resolve(BlobGenerations.FILE));
        Files.move(dir.resolve("c.sealed"), dir.resolve(PacedWindowFiles.NEXT_SEALED));
        PacedWindowFiles.write(dir, 2, PacedWindowFiles.SWITCHING);
        assertThat(names("c-")).hasSize(2 << K);
        assertReopensAfterTheSwitch();
    }

    @Test
    void theFormerGenerationsDeletesCutByAKillAreFinishedAtOpen() throws IOException {
        JournaledPorServer server = JournaledPorServer.open(dir, PARAMS, bucket, 0);
        clients.writeRandom(clients.initialize(server), expected, (1 << K) + SWITCH + 1);
        assertThat(server.storage().retiredDeletesPaced()).isTrue(); // one share deleted, the rest paced over the epoch
        assertThat(names("c-").size() + names("h-").size()).isPositive();
        server.haltAsKilled();
        assertThat(BlobGenerations.read(dir, bucket).retired()).isZero();
        try (JournaledPorServer reopened = JournaledPorServer.open(dir, null, bucket, 0)) {
            assertFormerGenerationGoneAndResumes(reopened);
        }
    }

    /** With {@code listings}, the bucket fails the listings that find the former generation's objects, else deletes. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aBucketThatFailsTheFormerGenerationsDeletesFailsNoWriteAndTheNextOpenDeletesThem(boolean listings)
            throws IOException {
        AtomicBoolean unavailable = new AtomicBoolean();
        BlobStore failingDeletes = new ForwardingBlobStore(bucket) {
            @Override
            public void delete(String name) throws IOException {
                if (unavailable.get() && !listings) {
                    throw new IOException("the bucket is unavailable");
                }
                super.delete(name);
            }

            @Override
            public BlobListing list(String prefix) throws IOException {
                if (unavailable.get() && listings) {
                    throw new IOException("the bucket is unavailable");
                }
                return super.list(prefix);
            }
        };
        try (JournaledPorServer server = JournaledPorServer.open(dir, PARAMS, failingDeletes, 0)) {
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, expected, (1 << K) + SWITCH); // the switch: generation 0 retired
            assertThat(BlobGenerations.read(dir, bucket).retired()).isZero();
            unavailable.set(true);
            clients.writeRandom(client, expected, (1 << K) - SWITCH - 1); // every paced share fails, no write does
            assertThat(server.storage().retiredDeletesPaced()).isFalse(); // given up to the next freeze or open
            assertThat(names("c-").size() + names("h-").size()).isPositive();
            assertThat(BlobGenerations.read(dir, bucket).retired()).isZero();
            clients.assertContent(client, expected);
        }
        unavailable.set(false);
        try (JournaledPorServer reopened = JournaledPorServer.open(dir, null, failingDeletes, 0)) {
            assertFormerGenerationGoneAndResumes(reopened);
        }
    }

    @Test
    void aWindowRecordOfAnEpochTheJournalHasLeftIsDroppedAtOpenWithCKeptInItsGeneration() throws IOException {
        JournaledPorServer server = JournaledPorServer.open(dir, PARAMS, bucket, 0);
        clients.writeRandom(clients.initialize(server), expected, 3 * (1 << K) - 1); // epoch 3, its window switched
        assertThat(BlobGenerations.read(dir, bucket).current()).isEqualTo(3);
        assertThat(BlobGenerations.read(dir, bucket).retired()).isEqualTo(-1);
        server.haltAsKilled();
        // the record of epoch 2's window and that window's objects, as if its end had left them (no step does)
        PacedWindowFiles.write(dir, 2, PacedWindowFiles.OPEN);
        Files.write(dir.resolve(PacedWindowFiles.COPIES), new byte[0]);
        byte[] stale = new byte[BLOCK];
        clients.nextBytes(stale);
        for (String name : List.of("g2/h-0-x/0", "g2/c-" + (K + 1) + "-x/0", "g2/c-" + (K + 1) + "-y/3")) {
            bucket.put(name, BlobContent.of(stale));
        }
        try (JournaledPorServer reopened = JournaledPorServer.open(dir, null, bucket, 0)) {
            assertThat(reopened.state()).isEqualTo(new LogState(K, (1 << K) - 1, 3));
            assertThat(reopened.storage().windowEpoch()).isEqualTo(-1);
            assertThat(Files.exists(dir.resolve(PacedWindowFiles.RECORD))).isFalse();
            assertThat(Files.exists(dir.resolve(PacedWindowFiles.COPIES))).isFalse();
            assertThat(BlobGenerations.read(dir, bucket).current()).isEqualTo(3); // C where it was rebuilt
            assertThat(BlobGenerations.read(dir, bucket).retired()).isEqualTo(-1);
            assertThat(names("g2/")).isEmpty();
            assertThat(names("g3/c-" + (K + 1) + "-")).hasSize(2 << K);
            clients.assertResumes(reopened, expected, 1 << K); // audits, and a further epoch with its window
        }
    }

    /** After a reopen: generation 0's C and H objects deleted, none retired, and the store audits and goes on. */
    private void assertFormerGenerationGoneAndResumes(JournaledPorServer reopened) throws IOException {
        assertThat(names("c-")).isEmpty();
        assertThat(names("h-")).isEmpty();
        assertThat(BlobGenerations.read(dir, bucket).retired()).isEqualTo(-1);
        clients.assertResumes(reopened, expected, 1 << K);
    }

    /** As in files; then C is in generation 2, generation 0's objects gone. */
    private void assertReopensInTheWindowAndGoesOn(int adds) throws IOException {
        PacedWindowSteps.assertReopensInTheWindowAndGoesOn(() -> JournaledPorServer.open(dir, null, bucket, 0),
                clients, expected, K, adds, SWITCH);
        assertThat(BlobGenerations.read(dir, bucket).current()).isEqualTo(3); // the further epoch's switch
        assertThat(names("c-")).isEmpty();
        assertThat(names("h-")).isEmpty();
    }

    private void assertReopensAfterTheSwitch() throws IOException {
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, bucket, 0)) {
            assertThat(server.state()).isEqualTo(new LogState(K, SWITCH, 2));
            assertThat(server.storage().windowEpoch()).isEqualTo(-1);
            assertThat(Files.exists(dir.resolve(PacedWindowFiles.RECORD))).isFalse();
            assertThat(BlobGenerations.read(dir, bucket).current()).isEqualTo(2);
            assertThat(names("c-")).isEmpty(); // the former generation, deleted at the open
            assertThat(names("h-")).isEmpty();
            PorClient client = clients.resume(server);
            clients.assertContent(client, expected);
            clients.assertGoesOn(client, expected, 1 << K);
        }
    }

    private List<String> names(String prefix) throws IOException {
        return bucket.list(prefix).toList().stream().map(BlobInfo::name).toList();
    }

    /** The bucket's top-level prefixes: each generation's and U's. */
    private List<String> prefixes() throws IOException {
        return bucket.list("").toList().stream().map(b -> b.name().substring(0, b.name().indexOf('/') + 1))
                .distinct().toList();
    }
}
