package io.coffer.por.store;

import io.coffer.por.code.LogState;
import io.coffer.por.field.Segments;
import io.coffer.por.net.PorCodec;
import io.coffer.por.net.ServerParameters;
import io.coffer.por.server.HonestPorServer;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobListing;
import io.coffer.sdk.blob.BlobStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A resize of a {@link JournaledPorServer} to 2^k blocks (appendix A.3: a grow, or a shrink whose extra steps are
 * {@link StoreShrink}'s), crash-safe through one file, {@code grow} in
 * the server's directory: once it is in place (written whole, forced, renamed) the grow is decided, and a server
 * that opens the directory completes it before anything else; before that the directory is the old store. The server
 * records it only after every journal record and U's writes are on disk, so completing it reads U from its files alone:
 * the parameters file gets the new k, U's files (positional: indices past their end were never written) and
 * {@code u.sealed} stay, the Merkle file is rebuilt at the new n as at every open, C is rebuilt from U at the new k
 * with the client's sealed checksums, H and its sealed checksums are cleared, and the journal starts a segment whose
 * checkpoint is the new epoch with an empty window (the segments before it, whose records the grow made moot, are
 * deleted). Every step may be redone after a crash. Then the file is deleted.
 */
final class StoreGrowth {
    private static final Logger LOG = LoggerFactory.getLogger(JournaledPorServer.class);
    static final String FILE = "grow";
    private static final byte[] MAGIC = "CPORGRW1".getBytes(StandardCharsets.US_ASCII);

    private StoreGrowth() {
    }

    /**
     * Records the decided grow to 2^{@code k} blocks: magic (8), k (4), the length (4) of {@code resync} (the epoch
     * and C's sealed checksums as the protocol's RESYNC at the new k encodes them) and its bytes, CRC-32C of the rest
     * (4); forced and renamed into place.
     */
    static void record(Path dir, int k, byte[] resync) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(MAGIC.length + 8 + resync.length);
        b.put(MAGIC).putInt(k).putInt(resync.length).put(resync);
        Durable.writeChecked(dir.resolve(FILE), b.array());
    }

    /** Completes the grow recorded in {@code dir}, if one is; the directory's lock is held. */
    static void complete(Path dir, BlobStore objects, long memoryBudget) throws IOException {
        Files.deleteIfExists(dir.resolve(FILE + ".tmp")); // a record a crash cut short: the grow was not decided
        Path file = dir.resolve(FILE);
        if (!Files.exists(file)) {
            return;
        }
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer b = ByteBuffer.wrap(bytes);
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, Math.max(0, bytes.length - 4));
        if (bytes.length < MAGIC.length + 12 || !Arrays.equals(Arrays.copyOf(bytes, MAGIC.length), MAGIC)
                || b.getInt(bytes.length - 4) != (int) crc.getValue()
                || b.getInt(MAGIC.length + 4) != bytes.length - MAGIC.length - 12) {
            throw new IOException("PoR server in " + dir + ": the record of a grow (" + FILE + ") is damaged");
        }
        int k = b.getInt(MAGIC.length);
        byte[] resync = Arrays.copyOfRange(bytes, MAGIC.length + 8, bytes.length - 4);
        Path parametersFile = dir.resolve("parameters");
        ParametersFile.Stored stored = ParametersFile.fix(parametersFile, null);
        ServerParameters old = stored.parameters();
        ServerParameters grown = new ServerParameters(k, old.batchExponent(), old.blockBytes());
        PorCodec.ResyncRequest request = new PorCodec(grown).readResync(resync);
        LOG.info("PoR server in {}: {} from 2^{} to 2^{} blocks (C rebuilt at epoch {})", dir,
                k < old.k() ? "shrinking" : "growing", old.k(), k, request.epoch());
        if (old.k() != k) {
            ParametersFile.grow(parametersFile, k);
        }
        // the other capacities' C files; past a shrink U's cut indices and H's higher levels (a grow has none);
        // in a bucket C's objects go in deleteFormerC at the open after this
        StoreShrink.cut(dir, objects, grown);
        int b0 = grown.batchExponent();
        // a paced C rebuild's window ends without its switch (C is rebuilt in full below), before the storage opens
        // at the new capacity, of which the window's files are not
        BlobGenerations generations = objects == null ? null : BlobGenerations.read(dir, objects);
        if (PacedWindowFiles.complete(dir, generations) != null) {
            PacedWindowFiles.drop(dir, generations);
        }
        try (DirectoryStorage storage = DirectoryStorage.open(dir, k, b0, grown.blockBytes(),
                Segments.count(grown.blockBytes()) + 1, objects, stored.vectorOrder(), memoryBudget)) {
            if (!stored.hDeamortized()) {
                storage.awaitDeamortizedLayout(parametersFile); // emptied now: marked deamortised
            }
            // a grow's new blocks were never written (at a redo after the parameters file changed: not known here)
            new HonestPorServer<>(storage, new LogState(k - b0, 0, request.epoch() - 1))
                    .resyncGrownFrom(Math.min(k, old.k()), request.epoch(), request.c());
            storage.force();
        }
        List<ServerJournal.Entry> entries = new ArrayList<>();
        try (SegmentedJournal journal = SegmentedJournal.open(dir, grown.maxFrameBytes(), entries,
                List.of(JournalCheckpoint.inFiles(LogState.empty(k - b0), 1).entry()), JournalCheckpoint::fromFormer)) {
            long next = journal.currentSegment() + 1;
            journal.startSegment(JournalCheckpoint.inFiles(new LogState(k - b0, 0, request.epoch()), next).entry(),
                    next);
        }
        Files.delete(file);
        Durable.forceDirectory(dir);
    }

    /**
     * Deletes from the bucket the C objects of every capacity but 2^{@code k} under C's {@code generation} prefix
     * ({@link BlobGenerations}; {@code c-<level>-x|y/<i>} for the
     * levels 1..MAX_K + 1 but k + 1, where C at 2^k is; H's and U's names are not touched), left by grows and
     * shrinks: the resized C is rebuilt from U, so none of them is read again. Run at every open, once a recorded
     * resize is complete, so that a crash between a resize and these deletes (or during them) leaves them to the next
     * open; a bucket that fails now leaves them likewise (logged, the open goes on). One LIST per other level, and one
     * per 1,000 objects deleted.
     */
    static void deleteFormerC(BlobStore objects, String generation, int k) {
        long deleted = 0;
        try {
            for (int level = 1; level <= ServerParameters.MAX_K + 1; level++) {
                if (level == k + 1) {
                    continue;
                }
                String prefix = generation + "c-" + level + "-";
                for (List<String> names = StoreShrink.firstNames(objects, prefix); !names.isEmpty();
                        names = StoreShrink.firstNames(objects, prefix)) {
                    for (String name : names) {
                        objects.delete(name);
                    }
                    deleted += names.size();
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("PoR server: C objects of former capacities left in {} (deleted at the next open): {}",
                    objects.describe(), e.toString());
        }
        if (deleted > 0) {
            LOG.info("PoR server: deleted {} C objects of former capacities from {}", deleted, objects.describe());
        }
    }
}
