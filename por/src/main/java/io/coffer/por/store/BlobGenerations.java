package io.coffer.por.store;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.DeamortizedLog;
import io.coffer.sdk.blob.BlobStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the code vectors of C and H are in a bucket (docs/POR.md, "C's rebuild paced in the servers"): objects cannot
 * be renamed, so a paced C rebuild's window puts the fresh H and the next C under a new key prefix, generation w (the
 * window's epoch), and leaves the frozen H and the old C where they are, generation g. The record
 * {@code generations} in the server's directory names g, C's generation (the switch moves it to w), and r, a former
 * generation whose objects are being deleted (-1: none). H's generation is the window's epoch while a window record
 * exists ({@link PacedWindowFiles}), else g. Generation 0 is the empty prefix: a store from before generations keeps
 * its names. The former generation's objects, as a listing finds them, are deleted a share per H add after the switch
 * (the switch is at most half an epoch in, so the share finishes them before the next freeze), and at open whatever a
 * crash left.
 */
final class BlobGenerations {
    private static final Logger LOG = LoggerFactory.getLogger(BlobGenerations.class);
    static final String FILE = "generations";
    private static final byte[] MAGIC = "CPORGEN1".getBytes(StandardCharsets.US_ASCII);
    private static final int BYTES = MAGIC.length + 16 + 4;

    private final Path dir;
    private final BlobStore objects;
    private long current;
    private long retired;
    /** The prefixes of a generation's objects under its own: H's, then C's (U's are never under one). */
    private static final List<String> RETIRED_PREFIXES = List.of("h-", "c-");
    /**
     * The paced deletes of the retired generation: whether under way, the share per add, the prefix being listed, a
     * page of its names not deleted yet, and whether that page holds the prefix's last names.
     */
    private boolean paced;
    private long perAdd;
    private int prefixAt;
    private final ArrayDeque<String> page = new ArrayDeque<>();
    private boolean listedAll;

    private BlobGenerations(Path dir, BlobStore objects, long current, long retired) {
        this.dir = dir;
        this.objects = objects;
        this.current = current;
        this.retired = retired;
    }

    /** The record in {@code dir} (absent: generation 0, nothing retired); a damaged one is refused. */
    static BlobGenerations read(Path dir, BlobStore objects) throws IOException {
        Files.deleteIfExists(dir.resolve(FILE + ".tmp")); // a write a crash cut short: the former record stands
        Path file = dir.resolve(FILE);
        if (!Files.exists(file)) {
            return new BlobGenerations(dir, objects, 0, -1);
        }
        byte[] bytes = Files.readAllBytes(file);
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, Math.max(0, bytes.length - 4));
        ByteBuffer b = ByteBuffer.wrap(bytes);
        if (bytes.length != BYTES || !Arrays.equals(Arrays.copyOf(bytes, MAGIC.length), MAGIC)
                || b.getInt(bytes.length - 4) != (int) crc.getValue()) {
            throw new IOException("PoR server in " + dir + ": the record of the bucket's generations (" + FILE
                    + ") is damaged");
        }
        return new BlobGenerations(dir, objects, b.getLong(MAGIC.length), b.getLong(MAGIC.length + 8));
    }

    /** The key prefix of generation {@code g}: empty for 0, else {@code g<g>/}. */
    static String prefix(long g) {
        return g == 0 ? "" : "g" + g + "/";
    }

    /** H's key prefix in the bucket: the window's generation while a window record is there, else C's. */
    static String hPrefix(Path dir, BlobStore objects) throws IOException {
        return hPrefix(PacedWindowFiles.read(dir), read(dir, objects));
    }

    /** H's key prefix given the window record ({@code null}: none) and the record of generations. */
    static String hPrefix(PacedWindowFiles.State window, BlobGenerations generations) {
        return prefix(window != null ? window.epoch() : generations.current());
    }

    /** C's generation, and the frozen H's in a window. */
    long current() {
        return current;
    }

    /** The generation being deleted, or -1. */
    long retired() {
        return retired;
    }

    /**
     * The switch to generation {@code w} (a window's, whose next C is complete or about to be rebuilt in full): the
     * record names w as C's and the former generation as retired, unless it does already (redone at open). A former
     * retired generation still being deleted is finished first, so at most one is.
     */
    void switchTo(long w) throws IOException {
        if (current == w) {
            return;
        }
        finishRetired();
        write(w, current);
    }

    /** Deletes every object of the retired generation at once (at open, at a freeze), then records none retired. */
    void finishRetired() throws IOException {
        if (retired < 0) {
            return;
        }
        long deleted = deleteGeneration(retired);
        LOG.info("PoR server: deleted {} objects of the former generation {} from {}", deleted, retired,
                objects.describe());
        write(current, -1);
    }

    /** Deletes every H and C object under generation {@code g}'s prefix, listed; returns how many. */
    long deleteGeneration(long g) throws IOException {
        long deleted = 0;
        for (String p : RETIRED_PREFIXES) {
            deleted += deleteListed(prefix(g) + p);
        }
        return deleted;
    }

    /**
     * At open: {@link #finishRetired}, but a bucket that fails leaves them to the next open (logged, the open goes on,
     * as a grow's former C objects are).
     */
    void finishRetiredOrLeave() {
        try {
            finishRetired();
        } catch (IOException | RuntimeException e) {
            LOG.warn("PoR server: objects of the former generation {} left in {} (deleted at the next open): {}",
                    retired, objects.describe(), e.toString());
        }
    }

    /**
     * Starts deleting the retired generation a share per H add over the {@code adds} adds (the half epoch at least)
     * that follow a switch, C at {@code c} and H of {@code h} with {@link DeamortizedLog#SLOTS} run slots a level.
     * The objects are found by listing the generation's {@code h-} and {@code c-} prefixes a page at a time, so only
     * objects that exist are deleted (H's slots the schedule never wrote, and names a former capacity or a store from
     * before generations left, are all taken as they are). The share is the names the capacity can have over one add
     * less than {@code adds}: every add but the last deletes a full share, and the one after the last may list once
     * more, so they are gone by the next freeze. Memory: one page of names, independent of n.
     */
    void paceRetired(CodeParameters c, CodeParameters h, long adds) {
        if (retired < 0) {
            return;
        }
        paced = true;
        prefixAt = 0;
        page.clear();
        listedAll = false;
        perAdd = sharePerAdd(c, h, adds);
    }

    /** The paced deletes' share per add: the most objects a generation of C at c and H of h holds, over adds - 1. */
    static long sharePerAdd(CodeParameters c, CodeParameters h, long adds) {
        long names = 2L * c.n();
        for (int level = 0; level <= h.k(); level++) {
            names += 2L * h.partSize(level, DeamortizedLog.SLOTS);
        }
        long over = Math.max(1, adds - 1);
        return Math.max(1, (names + over - 1) / over);
    }

    /**
     * After an H add: deletes the next share of the retired generation's objects, listing a page of names when the
     * last is used up (at most ceil(share / page) + 2 listings an add: one per full page, one per prefix that ends);
     * once both prefixes list empty the record says none is retired. A bucket that fails a listing or a delete does not
     * fail the write: nothing reads those objects again, so the rest is left, logged, to the next freeze or open
     * ({@link #finishRetired}, which the record still asks for).
     */
    void afterAdd() {
        if (!paced) {
            return;
        }
        try {
            for (long deleted = 0; deleted < perAdd && nextPage(); deleted++) {
                objects.delete(page.poll());
            }
            if (page.isEmpty() && listedAll && prefixAt == RETIRED_PREFIXES.size() - 1) {
                paced = false;
                write(current, -1);
            }
        } catch (IOException | RuntimeException e) {
            paced = false;
            page.clear();
            LOG.warn("PoR server: deleting the former generation {} from {} failed; the rest is deleted at the next"
                    + " freeze or open: {}", retired, objects.describe(), e.toString());
        }
    }

    /**
     * Whether a name is left in the page, listing the next page of the prefix (or the next prefix) once it is used
     * up; false: both prefixes listed to their ends and every name deleted.
     */
    private boolean nextPage() throws IOException {
        while (page.isEmpty()) {
            if (listedAll) {
                if (prefixAt == RETIRED_PREFIXES.size() - 1) {
                    return false;
                }
                prefixAt++;
            }
            page.addAll(StoreShrink.firstNames(objects, prefix(retired) + RETIRED_PREFIXES.get(prefixAt)));
            listedAll = page.size() < StoreShrink.PAGE; // a retired generation gains no object: the prefix's rest
        }
        return true;
    }

    /** Whether the retired generation's deletes are being paced (for tests). */
    boolean pacing() {
        return paced;
    }

    private long deleteListed(String prefix) throws IOException {
        long deleted = 0;
        for (List<String> names = StoreShrink.firstNames(objects, prefix); !names.isEmpty();
                names = StoreShrink.firstNames(objects, prefix)) {
            for (String name : names) {
                objects.delete(name);
            }
            deleted += names.size();
        }
        return deleted;
    }

    /** Magic (8), C's generation (8), the retired generation (8, -1: none), CRC-32C (4); forced and renamed. */
    private void write(long c, long r) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(BYTES - 4);
        b.put(MAGIC).putLong(c).putLong(r);
        Durable.writeChecked(dir.resolve(FILE), b.array());
        current = c;
        retired = r;
        if (r < 0) {
            paced = false;
            page.clear();
        }
    }
}
