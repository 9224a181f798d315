package io.coffer.sdk.key;

import io.coffer.sdk.crypto.ChunkKey;
import java.util.ArrayList;
import java.util.List;

/** A fresh random key per chunk: nothing deduplicates, nothing about the content can be confirmed from the key. */
public final class RandomKeySource implements KeySource {
    public static final RandomKeySource INSTANCE = new RandomKeySource();

    private RandomKeySource() {
    }

    @Override
    public List<ChunkKey> keysFor(List<byte[]> chunkHashes) {
        List<ChunkKey> keys = new ArrayList<>(chunkHashes.size());
        for (int i = 0; i < chunkHashes.size(); i++) {
            keys.add(ChunkKey.random());
        }
        return keys;
    }

    @Override
    public boolean messageLocked() {
        return false;
    }

    @Override
    public String name() {
        return "random";
    }
}
