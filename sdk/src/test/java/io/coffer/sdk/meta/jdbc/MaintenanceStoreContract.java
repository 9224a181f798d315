package io.coffer.sdk.meta.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.meta.ChunkLocation;
import io.coffer.sdk.meta.Lease;
import io.coffer.sdk.meta.PackRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * What online garbage collection needs of a metadata store, mixed into {@link MetadataStoreContractTest} so that it
 * runs on every dialect: leases that one holder at a time gets, and chunks held for reuse.
 */
interface MaintenanceStoreContract {
    Instant NOW = Instant.parse("2026-11-26T12:00:00Z");

    /** The store under test. */
    JdbcMetadataStore metadata();

    private static ChunkId chunk(int n) {
        byte[] b = new byte[32];
        b[0] = (byte) n;
        b[31] = 7;
        return ChunkId.of(b);
    }

    @Test
    default void aFreeLeaseIsTakenAndAnotherHolderIsRefusedUntilItExpires() {
        Lease taken = metadata().acquireLease("gc", "a", NOW, NOW.plusSeconds(60));
        Lease refused = metadata().acquireLease("gc", "b", NOW.plusSeconds(59), NOW.plusSeconds(120));
        Lease takenOver = metadata().acquireLease("gc", "b", NOW.plusSeconds(61), NOW.plusSeconds(120));

        assertThat(taken).isEqualTo(new Lease("gc", "a", NOW.plusSeconds(60)));
        assertThat(refused).isEqualTo(taken);
        assertThat(refused.heldBy("b", NOW.plusSeconds(59))).isFalse();
        assertThat(takenOver.heldBy("b", NOW.plusSeconds(61))).isTrue();
    }

    @Test
    default void itsHolderRenewsALeaseAndReleasingItFreesIt() {
        metadata().acquireLease("gc", "a", NOW, NOW.plusSeconds(60));
        assertThat(metadata().acquireLease("gc", "a", NOW.plusSeconds(30), NOW.plusSeconds(90)).expires())
                .isEqualTo(NOW.plusSeconds(90));

        metadata().releaseLease("gc", "b"); // not b's: nothing happens
        assertThat(metadata().acquireLease("gc", "c", NOW.plusSeconds(31), NOW.plusSeconds(99)).holder())
                .isEqualTo("a");
        metadata().releaseLease("gc", "a");
        assertThat(metadata().acquireLease("gc", "c", NOW.plusSeconds(31), NOW.plusSeconds(99)).holder())
                .isEqualTo("c");
    }

    @Test
    default void holdersAskingAtOnceGetOneLease() throws Exception {
        int n = 8;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Callable<Lease>> asks = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String holder = "h" + i;
                asks.add(() -> metadata().acquireLease("race", holder, NOW, NOW.plusSeconds(60)));
            }
            List<String> holders = new ArrayList<>();
            for (Future<Lease> f : pool.invokeAll(asks)) {
                holders.add(f.get().holder());
            }
            assertThat(holders).hasSize(n).allMatch(h -> h.equals(holders.get(0)));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    default void aChunkLocatedForReuseCountsLiveForAGracePeriodFromNow() throws Exception {
        ChunkLocation loc = new ChunkLocation(chunk(1), "p", 0, 100);
        metadata().registerPack(new PackRecord("p", 200, NOW), List.of(loc));
        Thread.sleep(5);
        Instant cutoff = Instant.now();
        Thread.sleep(5);
        assertThat(metadata().liveChunks("p", cutoff)).isEmpty(); // released before the cutoff: collectable

        assertThat(metadata().locateForReuse(List.of(chunk(1)))).containsEntry(chunk(1), loc);

        assertThat(metadata().liveChunks("p", cutoff)).containsExactly(loc);
    }

    @Test
    default void aChunkCollectedBeforeItIsHeldIsNotOfferedForReuse() throws Exception {
        metadata().registerPack(new PackRecord("p", 200, NOW), List.of(new ChunkLocation(chunk(2), "p", 0, 100)));
        Thread.sleep(5);
        metadata().retirePack("p", List.of(), Instant.now());

        assertThat(metadata().locateForReuse(List.of(chunk(2), chunk(3)))).isEmpty();
    }
}
