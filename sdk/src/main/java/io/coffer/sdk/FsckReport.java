package io.coffer.sdk;

import java.util.List;

/**
 * What fsck found. {@code damaged} lists problems that lose data (a missing pack, a chunk that fails its integrity
 * check, an unreadable manifest); {@code orphans} lists blobs nothing references (harmless, collectable).
 */
public record FsckReport(long objectsChecked, long chunksChecked, long bytesRead, List<String> damaged,
                         List<String> orphans) {
    public FsckReport {
        damaged = List.copyOf(damaged);
        orphans = List.copyOf(orphans);
    }

    public boolean clean() {
        return damaged.isEmpty();
    }
}
