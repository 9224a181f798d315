package io.coffer.por.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The frozen H's and the old C's vector files after a switch in files ({@link PacedWindowFiles#retired}), cut a share
 * per H add from their ends and deleted once empty: deleting them at once would free all of their pages (about 8n
 * vectors) in the write that switches. The switch is at most half an epoch in, so the share is the bytes over the half
 * epoch's adds and they are gone by the next freeze, which deletes whatever is left, as an open does (a crash, a close or
 * a failed cut that stops the shares leaves them to it: nothing reads them).
 */
final class RetiredFiles {
    private static final Logger LOG = LoggerFactory.getLogger(RetiredFiles.class);
    private final Deque<Path> files;
    private final long perAdd;

    private RetiredFiles(Deque<Path> files, long perAdd) {
        this.files = files;
        this.perAdd = perAdd;
    }

    /** The retired files of {@code dir}, to be deleted over {@code adds} adds. */
    static RetiredFiles of(Path dir, long adds) throws IOException {
        Deque<Path> files = new ArrayDeque<>(PacedWindowFiles.retiredFiles(dir));
        long bytes = 0;
        for (Path p : files) {
            bytes += Files.size(p);
        }
        return new RetiredFiles(files, Math.max(1, (bytes + adds - 1) / Math.max(1, adds)));
    }

    /** After an H add: the next share cut; returns whether any file is left. */
    boolean afterAdd() {
        long share = perAdd;
        try {
            while (share > 0 && !files.isEmpty()) {
                Path p = files.peekFirst();
                try (FileChannel f = FileChannel.open(p, StandardOpenOption.WRITE)) {
                    long size = f.size();
                    long cut = Math.min(size, share);
                    f.truncate(size - cut);
                    share -= cut;
                    if (cut < size) {
                        continue;
                    }
                }
                Files.deleteIfExists(p);
                files.removeFirst();
            }
        } catch (IOException e) {
            // nothing reads them: a failure fails no write, the next freeze or open deletes what is left
            LOG.warn("PoR server: cutting a former window's file failed; the rest is deleted at the next freeze or"
                    + " open: {}", e.toString());
            files.clear();
        }
        return !files.isEmpty();
    }
}
