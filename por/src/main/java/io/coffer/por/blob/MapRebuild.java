package io.coffer.por.blob;

import io.coffer.sdk.meta.BlockMapStore.Entry;
import io.coffer.sdk.meta.BlockMapStore.FreeBlocks;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Turns the headers found in U into a block map, and the free blocks beside a map. */
final class MapRebuild {
    private MapRebuild() {
    }

    /**
     * One entry per name from {@code headers}: the newest header of a name wins, and a header claiming a block that
     * a newer one holds is dropped (it is a leftover of a crash before its blocks were zeroed). Sorted by name.
     */
    static List<Entry> resolve(List<PackHeader> headers, int capacity) {
        List<PackHeader> newestFirst = new ArrayList<>(headers);
        newestFirst.sort(Comparator.comparing(PackHeader::created).reversed()
                .thenComparingInt(h -> h.blocks()[0]));
        BitSet claimed = new BitSet(capacity);
        Set<String> names = new HashSet<>();
        List<Entry> out = new ArrayList<>();
        for (PackHeader h : newestFirst) {
            boolean clash = names.contains(h.name());
            for (int b : h.blocks()) {
                clash |= claimed.get(b);
            }
            if (clash) {
                continue;
            }
            names.add(h.name());
            for (int b : h.blocks()) {
                claimed.set(b);
            }
            out.add(new Entry(h.name(), h.length(), h.blocks(), h.created()));
        }
        out.sort(Comparator.comparing(Entry::name));
        return out;
    }

    /** Free blocks beside {@code entries}: every index above the highest used, and the unused ones below it. */
    static FreeBlocks freeBlocks(List<Entry> entries) {
        BitSet used = new BitSet();
        for (Entry e : entries) {
            for (int b : e.blocks()) {
                used.set(b);
            }
        }
        int next = used.length();
        int[] freed = new int[next - used.cardinality()];
        int i = 0;
        for (int b = used.nextClearBit(0); b < next; b = used.nextClearBit(b + 1)) {
            freed[i++] = b;
        }
        return new FreeBlocks(next, freed);
    }
}
