package io.coffer.por.blob;

import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobListing;
import io.coffer.sdk.meta.BlockMapStore;
import io.coffer.sdk.meta.BlockMapStore.Entry;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/** The blobs of a block map under a prefix, fetched page by page; and such a listing merged with another store's. */
final class MapListing implements BlobListing {
    private final BlockMapStore map;
    private final String prefix;
    private final int page;

    MapListing(BlockMapStore map, String prefix, int page) {
        this.map = map;
        this.prefix = prefix;
        this.page = page;
    }

    @Override
    public Iterator<BlobInfo> iterator() {
        return new Iterator<>() {
            private final Deque<Entry> buffered = new ArrayDeque<>();
            private String after;
            private boolean exhausted;

            @Override
            public boolean hasNext() {
                if (buffered.isEmpty() && !exhausted) {
                    List<Entry> next = map.list(prefix, after, page);
                    buffered.addAll(next);
                    exhausted = next.size() < page;
                    if (!next.isEmpty()) {
                        after = next.get(next.size() - 1).name();
                    }
                }
                return !buffered.isEmpty();
            }

            @Override
            public BlobInfo next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Entry e = buffered.poll();
                return new BlobInfo(e.name(), e.length(), e.created());
            }
        };
    }

    /**
     * {@code mapped} and {@code others} merged in name order; {@code others}' names under {@code mappedPrefix} are
     * left out (the map is where those live; the inner store's would be unreachable leftovers).
     */
    static BlobListing merged(BlobListing mapped, BlobListing others, String mappedPrefix) {
        return new BlobListing() {
            @Override
            public Iterator<BlobInfo> iterator() {
                Iterator<BlobInfo> a = mapped.iterator();
                Iterator<BlobInfo> b = others.iterator();
                return new Iterator<>() {
                    private BlobInfo nextA;
                    private BlobInfo nextB;

                    private void advance() {
                        if (nextA == null && a.hasNext()) {
                            nextA = a.next();
                        }
                        while (nextB == null && b.hasNext()) {
                            BlobInfo candidate = b.next();
                            if (!candidate.name().startsWith(mappedPrefix)) {
                                nextB = candidate;
                            }
                        }
                    }

                    @Override
                    public boolean hasNext() {
                        advance();
                        return nextA != null || nextB != null;
                    }

                    @Override
                    public BlobInfo next() {
                        if (!hasNext()) {
                            throw new NoSuchElementException();
                        }
                        BlobInfo out;
                        if (nextB == null || (nextA != null && nextA.name().compareTo(nextB.name()) < 0)) {
                            out = nextA;
                            nextA = null;
                        } else {
                            out = nextB;
                            nextB = null;
                        }
                        return out;
                    }
                };
            }

            @Override
            public void close() {
                try {
                    mapped.close();
                } finally {
                    others.close();
                }
            }
        };
    }
}
