package io.coffer.sdk.meta;

import java.util.List;

/**
 * Packs uploaded by a write and the chunks they hold, registered in the same transaction that commits the write.
 * A chunk whose id is already indexed (another writer stored it first) keeps its existing location; the duplicate
 * copy counts as dead bytes of its pack for garbage collection.
 */
public record NewChunks(List<PackRecord> packs, List<ChunkLocation> chunks) {
    public static final NewChunks NONE = new NewChunks(List.of(), List.of());

    public NewChunks {
        packs = List.copyOf(packs);
        chunks = List.copyOf(chunks);
    }
}
