package io.coffer.por.blob;

import io.coffer.por.audit.AuditVerdict;
import io.coffer.por.client.PorClient;
import io.coffer.por.client.Traffic;
import io.coffer.por.code.LogState;
import io.coffer.sdk.meta.BlockMapStore;
import io.coffer.sdk.meta.BlockMapStore.Entry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit, repair and map-rebuild operations of a {@link PorBlobStore}: each takes the store's lock around its uses
 * of the PoR client.
 */
final class PorMaintenance {
    private static final Logger LOG = LoggerFactory.getLogger(PorBlobStore.class);
    /** Blocks of U read back per audit: the paper's lambda. */
    static final int U_SAMPLE = 128;

    private final PorClient client;
    private final VerifiedBlocks blocks;
    private final BlockMapStore map;
    private final ReentrantLock lock;
    private final SecureRandom random;

    PorMaintenance(PorClient client, VerifiedBlocks blocks, BlockMapStore map, ReentrantLock lock,
            SecureRandom random) {
        this.client = client;
        this.blocks = blocks;
        this.map = map;
        this.lock = lock;
        this.random = random;
    }

    /** One audit (section 5.5); a server that cannot answer is a failed audit. */
    PorAuditReport audit() {
        lock.lock();
        try {
            Traffic traffic = client.traffic();
            long up = traffic.overheadUp();
            long down = traffic.overheadDown();
            long started = System.nanoTime();
            LogState log = client.state().hLog();
            int levels = 1;
            for (int level = 0; level <= log.k(); level++) {
                levels += log.filled(level) ? 1 : 0;
            }
            AuditVerdict verdict;
            try {
                verdict = client.audit();
            } catch (RuntimeException e) {
                verdict = AuditVerdict.fail(0, "the audit could not run: " + e.getMessage());
            }
            int[] sample = sampleOfU();
            int bad = blocks.failing(sample).size();
            String detail = !verdict.passed() ? verdict.reason()
                    : bad > 0 ? "U: " + bad + " of " + sample.length + " sampled blocks fail verification; `coffer"
                            + " repair` decodes them from C and H"
                    : "every sampled code vector matched its checksum and every sampled block of U its proof";
            return new PorAuditReport(verdict.passed() && bad == 0, levels, verdict.blocksSampled(), sample.length,
                    bad, traffic.overheadDown() - down, traffic.overheadUp() - up,
                    Duration.ofNanos(System.nanoTime() - started), detail);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Up to {@link #U_SAMPLE} distinct blocks of U in use, uniformly at random (all of them when fewer): the section
     * 5.5 audit samples only C and H, so damage to U itself (what reads are served from) would otherwise go unseen
     * until a read meets it. With a fraction f of U's blocks bad, all of the sample is good with probability about
     * (1 - f)^128. The caller holds the lock.
     */
    private int[] sampleOfU() {
        int[] used = mappedEntries().stream().flatMapToInt(e -> Arrays.stream(e.blocks())).toArray();
        int n = Math.min(U_SAMPLE, used.length);
        for (int i = 0; i < n; i++) { // partial Fisher-Yates shuffle
            int j = i + random.nextInt(used.length - i);
            int t = used[i];
            used[i] = used[j];
            used[j] = t;
        }
        return Arrays.copyOf(used, n);
    }

    /**
     * Reads every mapped block verified and repairs the failing ones from C and H with one decode for all of them
     * (each level decoded once, the blocks then fetched, checked and written back a page at a time).
     */
    PorRepairReport repair() throws IOException {
        long started = System.nanoTime();
        long checked = 0;
        List<Integer> damaged = new ArrayList<>();
        for (Entry entry : mappedEntries()) {
            for (int index : entry.blocks()) {
                checked++;
                lock.lock();
                try {
                    client.read(index);
                } catch (RuntimeException e) {
                    damaged.add(index);
                } finally {
                    lock.unlock();
                }
            }
        }
        List<Integer> unrepairable;
        lock.lock();
        try {
            unrepairable = blocks.repairAll(damaged);
        } finally {
            lock.unlock();
        }
        long repaired = damaged.size() - unrepairable.size();
        if (!unrepairable.isEmpty()) {
            LOG.error("PoR repair: {} blocks could not be repaired: {}", unrepairable.size(), unrepairable);
        }
        return new PorRepairReport(checked, damaged.size(), repaired, unrepairable,
                Duration.ofNanos(System.nanoTime() - started));
    }

    private List<Entry> mappedEntries() {
        List<Entry> all = new ArrayList<>();
        String after = null;
        for (List<Entry> page; !(page = map.list("", after, PorBlobStore.PAGE)).isEmpty(); ) {
            all.addAll(page);
            after = page.get(page.size() - 1).name();
        }
        return all;
    }

    /**
     * The block map as U holds it: every block is read (verified, repaired where it fails) and those that start a
     * {@link PackHeader} give an entry. Where headers claim the same name or block (a crash between writing a blob
     * and zeroing what it replaced), the newest wins. Changes nothing.
     */
    List<Entry> rebuildMap() throws IOException {
        List<PackHeader> found = new ArrayList<>();
        int capacity = 1 << client.state().k(); // the store grows only under the lock, which rebuilds take first
        for (int index = 0; index < capacity; index++) {
            lock.lock();
            try {
                PackHeader header = PackHeader.decode(index, blocks.verified("U", 0, index, new int[] {index}),
                        capacity, i -> {
                            try {
                                return blocks.verified("U", 0, i, new int[] {i});
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        });
                if (header != null) {
                    found.add(header);
                }
            } catch (UncheckedIOException e) {
                throw e.getCause();
            } finally {
                lock.unlock();
            }
        }
        return MapRebuild.resolve(found, capacity);
    }
}
