package io.coffer.por.store;

import io.coffer.por.code.CodeParameters;
import io.coffer.por.code.DeamortizedLog;
import io.coffer.sdk.blob.BlobStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * its names. The former generation's objects are deleted a share per H add after the switch (the switch is at most half
 * an epoch in, so the share finishes them before the next freeze), and at open whatever a crash left.
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
    /** The paced deletes of the retired generation: its capacity (null: none paced), how many, the next, a share. */
    private CodeParameters cParams;
    private CodeParameters hParams;
    private long total;
    private long cursor;
    private long perAdd;

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
        long deleted = deleteListed(prefix(retired) + "h-") + deleteListed(prefix(retired) + "c-");
        LOG.info("PoR server: deleted {} objects of the former generation {} from {}", deleted, retired,
                objects.describe());
        write(current, -1);
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
     * Starts deleting the retired generation a share per H add: its C at {@code c} and H of {@code h} with
     * {@link DeamortizedLog#SLOTS} run slots a level, over {@code adds} adds (the half epoch at least that follows
     * a switch). Only a cursor over the names is held: memory independent of n.
     */
    void paceRetired(CodeParameters c, CodeParameters h, long adds) {
        if (retired < 0) {
            return;
        }
        cParams = c;
        hParams = h;
        long hVectors = 0;
        for (int level = 0; level <= h.k(); level++) {
            hVectors += h.partSize(level, DeamortizedLog.SLOTS);
        }
        total = 2 * (c.n() + hVectors);
        cursor = 0;
        perAdd = Math.max(1, (total + adds - 1) / Math.max(1, adds));
    }

    /**
     * After an H add: deletes the next share of the retired generation's objects; once they are all gone, a listing
     * of its prefixes removes any a former capacity left, and the record says none is retired. A bucket that fails a
     * delete does not fail the write: nothing reads those objects again, so the rest is left, logged, to the next
     * freeze or open ({@link #finishRetired}, which the record still asks for).
     */
    void afterAdd() {
        if (cParams == null) {
            return;
        }
        try {
            for (long end = Math.min(total, cursor + perAdd); cursor < end; cursor++) {
                objects.delete(name(cursor));
            }
            if (cursor == total) {
                cParams = null;
                finishRetired();
            }
        } catch (IOException | RuntimeException e) {
            cParams = null;
            LOG.warn("PoR server: deleting the former generation {} from {} failed; the rest is deleted at the next"
                    + " freeze or open: {}", retired, objects.describe(), e.toString());
        }
    }

    /** The retired generation's objects left to the paced share (for tests), or 0. */
    long pendingDeletes() {
        return cParams == null ? 0 : total - cursor;
    }

    /** The name of the {@code i}th object of the retired generation: C's part X, Y, then H's levels' X, Y. */
    private String name(long i) {
        String p = prefix(retired);
        int n = cParams.n();
        if (i < 2L * n) {
            return p + "c-" + cParams.cLevel() + "-" + (i < n ? "x/" + i : "y/" + (i - n));
        }
        long at = i - 2L * n;
        for (int level = 0; ; level++) {
            long size = hParams.partSize(level, DeamortizedLog.SLOTS);
            if (at < 2 * size) {
                return p + "h-" + level + "-" + (at < size ? "x/" + at : "y/" + (at - size));
            }
            at -= 2 * size;
        }
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
            cParams = null;
        }
    }
}
