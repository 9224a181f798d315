package io.coffer.por.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.client.ClientState;
import io.coffer.por.client.PorClient;
import io.coffer.sdk.meta.BlockMapStore.Entry;
import java.io.IOException;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pack store grows (appendix A.3) when a pack needs more blocks than are free, instead of failing: every pack
 * reads back at the new capacity, audits pass, the store reopens from its database and from the state backup alone
 * (the map rebuilt from U at the new capacity), a crash between the server's grow and the commit of the state is
 * resynchronised at the next open, and a grow the server refuses fails the put and changes nothing.
 */
class PorBlobStoreGrowTest extends WithPorStore {
    private static final int BLOCK = 4096;

    @Test
    void aStoreOutOfBlocksGrowsAndEveryPackReadsBackAlsoAfterReopeningAndFromTheBackupAlone() throws IOException {
        f = PorStoreFixture.open(dir, 4, 2, BLOCK); // 16 blocks to start with
        for (int i = 0; i < 6; i++) {
            f.put(f.store, "p/pack" + i, 3 * BLOCK + 100 * i, i); // 4 blocks each, header included
        }
        f.put(f.store, "p/large", 40 * BLOCK, 99); // more than a doubling at once: 16 -> 128

        assertThat(f.store.capacity()).isEqualTo(128);
        assertThat(f.server.k()).isEqualTo(7);
        assertThat(f.store.blocksUsed()).isEqualTo(6 * 4 + 41);
        f.assertEveryPackReadsBack(f.store);
        f.store.delete("p/pack2");
        f.packs.remove("p/pack2");
        f.put(f.store, "p/reuses", 2 * BLOCK, 7);
        List<Entry> map = f.metadata.blockMap().list("", null, 100);
        assertThat(f.store.rebuildMap()).isEqualTo(map);

        PorBlobStore reopened = f.reopen(dir.resolve("meta.db"));
        assertThat(reopened.capacity()).isEqualTo(128);
        f.assertEveryPackReadsBack(reopened);

        PorBlobStore fromBackup = f.reopen(dir.resolve("fresh.db")); // the database lost: the map comes from U
        assertThat(f.metadata.blockMap().list("", null, 100)).isEqualTo(map);
        assertThat(fromBackup.capacity()).isEqualTo(128);
        f.assertEveryPackReadsBack(fromBackup);
        f.put(fromBackup, "p/after", 5 * BLOCK, 8);
        f.assertEveryPackReadsBack(fromBackup);
    }

    @Test
    void aCrashBetweenTheServersGrowAndTheStateCommitIsResynchronisedAtTheNextOpen() throws IOException {
        f = PorStoreFixture.open(dir, 4, 1, BLOCK);
        f.put(f.store, "p/a", 6 * BLOCK, 1);
        f.put(f.store, "p/b", 5 * BLOCK, 2);
        byte[] committed = f.metadata.blockMap().state().orElseThrow();
        // the crash: the put that grew the store marked its writes and the server grew; nothing was committed
        Files.createFile(f.backup().resolveSibling(f.backup().getFileName() + ".writing"));
        new PorClient(f.server, ClientState.fromBytes(committed), new SecureRandom(), s -> { }).grow(5);
        assertThat(f.server.k()).isEqualTo(5);

        PorBlobStore reopened = f.reopen(dir.resolve("meta.db"));

        assertThat(reopened.capacity()).isEqualTo(32);
        assertThat(ClientState.fromBytes(f.metadata.blockMap().state().orElseThrow()).k()).isEqualTo(5);
        assertThat(f.backup().resolveSibling(f.backup().getFileName() + ".writing")).doesNotExist();
        f.assertEveryPackReadsBack(reopened);
        f.put(reopened, "p/c", 12 * BLOCK, 3); // fits the grown store
        assertThat(reopened.capacity()).isEqualTo(32);
        f.put(reopened, "p/d", 12 * BLOCK, 4); // grows again
        assertThat(reopened.capacity()).isEqualTo(64);
        f.assertEveryPackReadsBack(reopened);
    }

    @Test
    void aGrowTheServerRefusesFailsThePutWithNothingChangedAndSucceedsOnceTheStoreIsRepaired() throws IOException {
        f = PorStoreFixture.open(dir, 4, 0, BLOCK);
        f.put(f.store, "p/a", 10 * BLOCK, 11);
        int used = f.store.blocksUsed();
        byte[] state = f.metadata.blockMap().state().orElseThrow();
        f.server.storage().setU(blocksOf("p/a")[3], null); // a lost block: the server rebuilds no C before repair

        assertThatThrownBy(() -> f.put(f.store, "p/b", 10 * BLOCK, 12)).isInstanceOf(IOException.class)
                .hasMessageContaining("cannot grow the PoR store to 32 blocks").hasMessageContaining("lost");

        assertThat(f.store.capacity()).isEqualTo(16);
        assertThat(f.store.blocksUsed()).isEqualTo(used);
        assertThat(f.metadata.blockMap().state()).hasValueSatisfying(s -> assertThat(s).isEqualTo(state));
        assertThat(f.store.repair().unrepairable()).isEmpty();
        f.put(f.store, "p/b", 10 * BLOCK, 12);
        assertThat(f.store.capacity()).isEqualTo(32);
        f.assertEveryPackReadsBack(f.store);
    }

    private int[] blocksOf(String name) {
        return f.metadata.blockMap().entry(name).orElseThrow().blocks();
    }
}
