package io.coffer.por.blob;

import io.coffer.sdk.meta.BlockMapStore.Entry;
import java.time.Instant;
import java.util.Optional;

/**
 * The creation times of a {@link PorBlobStore}'s packs, which tell versions of a name apart: a new pack's time is now,
 * but after every one this process gave, after the pack it replaces and after every pack deleted or replaced in this
 * process, even with the clock gone back. So two versions of a name never share a time, and a map row with the name,
 * length and time of a pack is that pack ({@link #samePack}), perhaps at other blocks: a consolidation's move keeps
 * them ({@link Consolidation}). A map rebuilt from U ({@link MapRebuild}, the newest header of a name wins) also finds
 * a replacing pack strictly newer than the one it replaced. Not thread-safe: used under the store's lock.
 */
final class PackVersions {
    /** The latest time (epoch ms) given, or of a pack that left the map, in this process. */
    private long last;

    /** The creation time of a new pack of a name whose current version (replaced by it) is {@code old}. */
    Instant next(Optional<Entry> old) {
        old.ifPresent(this::retired);
        last = Math.max(System.currentTimeMillis(), last + 1);
        return Instant.ofEpochMilli(last);
    }

    /** {@code e} leaves the map (deleted or replaced): a later pack of its name must be newer. */
    void retired(Entry e) {
        last = Math.max(last, e.created().toEpochMilli());
    }

    /** Whether two map rows are one pack, perhaps at other blocks (moved). */
    static boolean samePack(Entry a, Entry b) {
        return a.name().equals(b.name()) && a.length() == b.length() && a.created().equals(b.created());
    }
}
