package io.coffer.sdk.blob;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A lazily fetched, name-ordered listing. Backends fetch one page at a time; an I/O failure while paging surfaces
 * as an {@link UncheckedIOException} from the iterator.
 */
public interface BlobListing extends Iterable<BlobInfo>, AutoCloseable {

    @Override
    Iterator<BlobInfo> iterator();

    @Override
    default void close() {
    }

    /** Reads the whole listing; only for callers that know it is small (tests, admin tools). */
    default List<BlobInfo> toList() throws IOException {
        List<BlobInfo> all = new ArrayList<>();
        try {
            for (BlobInfo info : this) {
                all.add(info);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return all;
    }

    static BlobListing of(Iterable<BlobInfo> items) {
        return items::iterator;
    }
}
