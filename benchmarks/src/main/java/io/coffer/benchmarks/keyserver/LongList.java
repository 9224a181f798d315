package io.coffer.benchmarks.keyserver;

import java.util.Arrays;
import java.util.List;

/** A growable array of longs. */
final class LongList {
    long[] a = new long[1024];
    int n;

    void add(long v) {
        if (n == a.length) {
            a = Arrays.copyOf(a, n * 2);
        }
        a[n++] = v;
    }

    long[] toSortedArray() {
        long[] r = Arrays.copyOf(a, n);
        Arrays.sort(r);
        return r;
    }

    static long[] merge(List<LongList> lists) {
        int total = 0;
        for (LongList l : lists) {
            total += l.n;
        }
        long[] r = new long[total];
        int at = 0;
        for (LongList l : lists) {
            System.arraycopy(l.a, 0, r, at, l.n);
            at += l.n;
        }
        Arrays.sort(r);
        return r;
    }
}
