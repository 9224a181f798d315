package io.coffer.por.store;

import io.coffer.por.net.ServerParameters;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobListing;
import io.coffer.sdk.blob.BlobStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * What a shrink of a {@link JournaledPorServer} to 2^k blocks (appendix A.3, consolidation) removes, beyond the
 * steps it shares with a grow ({@link StoreGrowth#complete}, which runs this while the record is in place, so every
 * step is redone after a crash and each is idempotent): U's indices from 2^k on (in a bucket, each present block's
 * {@code u/<i>} object deleted, read from {@code u.sealed} before it is cut; then {@code u.sealed} and
 * {@code u.blocks} cut to 2^k records), H's levels above k - b (their vectors' files or objects, and their sealed
 * checksums' files) and the code files of every other capacity. The client checked that every cut block was empty.
 */
final class StoreShrink {
    /** Names listed at a time: one page of an S3 listing (one request). */
    static final int PAGE = 1000;

    private StoreShrink() {
    }

    static void cut(Path dir, BlobStore objects, ServerParameters params) throws IOException {
        long n = 1L << params.k();
        Path sealed = dir.resolve("u.sealed");
        if (Files.exists(sealed)) {
            try (FileChannel records = FileChannel.open(sealed, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                if (objects != null) {
                    deleteBlocks(records, objects, n);
                }
                if (records.size() > n * DirectoryStorage.U_RECORD) {
                    records.truncate(n * DirectoryStorage.U_RECORD);
                    records.force(true);
                }
            }
        }
        Path blocks = dir.resolve("u.blocks");
        if (Files.exists(blocks)) {
            try (FileChannel file = FileChannel.open(blocks, StandardOpenOption.WRITE)) {
                if (file.size() > n * params.blockBytes()) {
                    file.truncate(n * params.blockBytes());
                    file.force(true);
                }
            }
        }
        int hK = params.k() - params.batchExponent();
        String hGeneration = objects == null ? "" : BlobGenerations.hPrefix(dir, objects);
        for (int level = 0; level <= ServerParameters.MAX_K + 1; level++) {
            if (level > hK) {
                Files.deleteIfExists(dir.resolve("h-" + level + ".sealed"));
                deleteLevel(dir, objects, hGeneration, "h-" + level);
            }
            if (level != params.k() + 1) {
                for (String part : List.of("x", "y")) { // C's in a bucket: StoreGrowth.deleteFormerC at every open
                    Files.deleteIfExists(dir.resolve("c-" + level + "-" + part + ".vectors"));
                }
            }
        }
        Durable.forceDirectory(dir);
    }

    /** Deletes the bucket's object of each block at an index from {@code n} on that u.sealed marks present. */
    private static void deleteBlocks(FileChannel records, BlobStore objects, long n) throws IOException {
        ByteBuffer record = ByteBuffer.allocate(DirectoryStorage.U_RECORD);
        for (long i = n; (i + 1) * DirectoryStorage.U_RECORD <= records.size(); i++) {
            record.clear();
            PositionalIo.readFully(records, record, i * DirectoryStorage.U_RECORD, "u.sealed");
            if (record.get(0) == 1) {
                objects.delete("u/" + i);
            }
        }
    }

    /**
     * H's level {@code name} ({@code h-<level>}): its files, or its objects in a bucket under H's {@code generation}
     * prefix, 1,000 listed at a time.
     */
    private static void deleteLevel(Path dir, BlobStore objects, String generation, String name)
            throws IOException {
        for (String part : List.of("x", "y")) {
            Files.deleteIfExists(dir.resolve(name + "-" + part + ".vectors"));
        }
        if (objects == null) {
            return;
        }
        for (List<String> names = firstNames(objects, generation + name + "-"); !names.isEmpty();
                names = firstNames(objects, generation + name + "-")) {
            for (String object : names) {
                objects.delete(object);
            }
        }
    }

    /** Up to {@link #PAGE} names under {@code prefix}: a listing is not read while its objects are deleted. */
    static List<String> firstNames(BlobStore objects, String prefix) throws IOException {
        List<String> names = new ArrayList<>();
        try (BlobListing listing = objects.list(prefix)) {
            Iterator<BlobInfo> it = listing.iterator();
            while (names.size() < PAGE && it.hasNext()) {
                names.add(it.next().name());
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return names;
    }
}
