package io.coffer.por.store;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.net.MessageType;
import io.coffer.por.net.ServerParameters;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A store created before H was deamortised (its parameters file has no layout mark): its H is in the amortised
 * layout, which the deamortised log cannot read, so the server refuses to use H until the client resynchronises (C
 * rebuilt from U, H emptied, the epoch moved on; docs/DECISIONS.md, "Deamortised H in existing stores"). Its journal
 * may hold the writes of a pending batch, which replay as before, but no add to H: those records carry a whole level
 * in the earlier format.
 */
final class AmortizedLayout {
    private AmortizedLayout() {
    }

    /** Refuses a journal whose records after the checkpoint add a batch to H (a flush, or a write with checksums). */
    static void checkJournal(List<ServerJournal.Entry> entries, ServerParameters params, Path dir)
            throws IOException {
        int flagAt = 4 + params.blockBytes() + ChecksumSealer.SEALED_BYTES; // index, block, U's sealed checksum
        for (ServerJournal.Entry e : entries.subList(1, entries.size())) {
            MessageType type = MessageType.of(e.type());
            boolean add = type == MessageType.FLUSH
                    || type == MessageType.WRITE && e.payload().length > flagAt && e.payload()[flagAt] != 0;
            if (add) {
                throw new IOException("the PoR server in " + dir + " was created by an earlier version, with H in"
                        + " the amortised layout, and its journal holds adds to H that this version cannot replay:"
                        + " start the earlier version on it, have the client flush, stop it, then start this one"
                        + " (the client then resynchronises once)");
            }
        }
    }
}
