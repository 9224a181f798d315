package io.coffer.por.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.client.ClientState;
import io.coffer.por.client.PorClient;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.meta.BlockMapStore.Entry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pack store grows (appendix A.3) when a pack needs more blocks than are free, instead of failing: every pack
 * reads back at the new capacity, audits pass, the store reopens from its database and from the state backup alone
 * (the map rebuilt from U at the new capacity), a crash between the server's grow and the commit of the state is
 * resynchronised at the next open, and a grow the server refuses fails the put and changes nothing.
 */
class PorBlobStoreGrowTest {
    private static final int BLOCK = 4096;

    @TempDir
    Path dir;

    private PorStoreFixture f;
    private final Map<String, byte[]> packs = new LinkedHashMap<>();

    @AfterEach
    void close() throws IOException {
        if (f != null) {
            f.close();
        }
    }

    private void put(PorBlobStore store, String name, int length, long seed) throws IOException {
        byte[] content = new byte[length];
        new Random(seed).nextBytes(content);
        store.put(name, BlobContent.of(content));
        packs.put(name, content);
    }

    private void assertEveryPackReadsBack(PorBlobStore store) throws IOException {
        for (Map.Entry<String, byte[]> e : packs.entrySet()) {
            assertThat(store.read(e.getKey(), 0, e.getValue().length)).as(e.getKey()).isEqualTo(e.getValue());
        }
        PorAuditReport audit = store.audit();
        assertThat(audit.passed()).as(audit.detail()).isTrue();
    }

    @Test
    void aStoreOutOfBlocksGrowsAndEveryPackReadsBackAlsoAfterReopeningAndFromTheBackupAlone() throws IOException {
        f = PorStoreFixture.open(dir, 4, 2, BLOCK); // 16 blocks to start with
        for (int i = 0; i < 6; i++) {
            put(f.store, "p/pack" + i, 3 * BLOCK + 100 * i, i); // 4 blocks each, header included
        }
        put(f.store, "p/large", 40 * BLOCK, 99); // more than a doubling at once: 16 -> 128

        assertThat(f.store.capacity()).isEqualTo(128);
        assertThat(f.server.k()).isEqualTo(7);
        assertThat(f.store.blocksUsed()).isEqualTo(6 * 4 + 41);
        assertEveryPackReadsBack(f.store);
        f.store.delete("p/pack2");
        packs.remove("p/pack2");
        put(f.store, "p/reuses", 2 * BLOCK, 7);
        List<Entry> map = f.metadata.blockMap().list("", null, 100);
        assertThat(f.store.rebuildMap()).isEqualTo(map);

        PorBlobStore reopened = f.reopen(dir.resolve("meta.db"));
        assertThat(reopened.capacity()).isEqualTo(128);
        assertEveryPackReadsBack(reopened);

        PorBlobStore fromBackup = f.reopen(dir.resolve("fresh.db")); // the database lost: the map comes from U
        assertThat(f.metadata.blockMap().list("", null, 100)).isEqualTo(map);
        assertThat(fromBackup.capacity()).isEqualTo(128);
        assertEveryPackReadsBack(fromBackup);
        put(fromBackup, "p/after", 5 * BLOCK, 8);
        assertEveryPackReadsBack(fromBackup);
    }

    @Test
    void aCrashBetweenTheServersGrowAndTheStateCommitIsResynchronisedAtTheNextOpen() throws IOException {
        f = PorStoreFixture.open(dir, 4, 1, BLOCK);
        put(f.store, "p/a", 6 * BLOCK, 1);
        put(f.store, "p/b", 5 * BLOCK, 2);
        byte[] committed = f.metadata.blockMap().state().orElseThrow();
        // the crash: the put that grew the store marked its writes and the server grew; nothing was committed
        Files.createFile(f.backup().resolveSibling(f.backup().getFileName() + ".writing"));
        new PorClient(f.server, ClientState.fromBytes(committed), new SecureRandom(), s -> { }).grow(5);
        assertThat(f.server.k()).isEqualTo(5);

        PorBlobStore reopened = f.reopen(dir.resolve("meta.db"));

        assertThat(reopened.capacity()).isEqualTo(32);
        assertThat(ClientState.fromBytes(f.metadata.blockMap().state().orElseThrow()).k()).isEqualTo(5);
        assertThat(f.backup().resolveSibling(f.backup().getFileName() + ".writing")).doesNotExist();
        assertEveryPackReadsBack(reopened);
        put(reopened, "p/c", 12 * BLOCK, 3); // fits the grown store
        assertThat(reopened.capacity()).isEqualTo(32);
        put(reopened, "p/d", 12 * BLOCK, 4); // grows again
        assertThat(reopened.capacity()).isEqualTo(64);
        assertEveryPackReadsBack(reopened);
    }

    @Test
    void aGrowTheServerRefusesFailsThePutWithNothingChangedAndSucceedsOnceTheStoreIsRepaired() throws IOException {
        f = PorStoreFixture.open(dir, 4, 0, BLOCK);
        put(f.store, "p/a", 10 * BLOCK, 11);
        int used = f.store.blocksUsed();
        byte[] state = f.metadata.blockMap().state().orElseThrow();
        f.server.storage().setU(blocksOf("p/a")[3], null); // a lost block: the server rebuilds no C before repair

        assertThatThrownBy(() -> put(f.store, "p/b", 10 * BLOCK, 12)).isInstanceOf(IOException.class)
                .hasMessageContaining("cannot grow the PoR store to 32 blocks").hasMessageContaining("lost");

        assertThat(f.store.capacity()).isEqualTo(16);
        assertThat(f.store.blocksUsed()).isEqualTo(used);
        assertThat(f.metadata.blockMap().state()).hasValueSatisfying(s -> assertThat(s).isEqualTo(state));
        assertThat(f.store.repair().unrepairable()).isEmpty();
        put(f.store, "p/b", 10 * BLOCK, 12);
        assertThat(f.store.capacity()).isEqualTo(32);
        assertEveryPackReadsBack(f.store);
    }

    @Test
    void aPutAfterAGrowWhoseAnswerWasLostFollowsTheServersGrowInsteadOfFailingToo() throws IOException {
        f = PorStoreFixture.open(dir, 4, 1, BLOCK);
        put(f.store, "p/a", 6 * BLOCK, 1);
        KilledServer killed = new KilledServer(f.server, "grow"); // the server dies after it grew
        PorBlobStore store = f.reopen(killed.proxy());

        assertThatThrownBy(() -> put(store, "p/b", 12 * BLOCK, 2)).isInstanceOf(IOException.class)
                .hasMessageContaining("the connection was lost");
        assertThat(f.server.k()).isEqualTo(5);
        killed.restart();

        put(store, "p/b", 12 * BLOCK, 2); // the client retries: the store follows the server to 32 blocks
        assertThat(store.capacity()).isEqualTo(32);
        assertThat(ClientState.fromBytes(f.metadata.blockMap().state().orElseThrow()).k()).isEqualTo(5);
        put(store, "p/c", 12 * BLOCK, 3); // grows again, answered this time
        assertThat(store.capacity()).isEqualTo(64);
        assertEveryPackReadsBack(store);
    }

    private int[] blocksOf(String name) {
        return f.metadata.blockMap().entry(name).orElseThrow().blocks();
    }
}
