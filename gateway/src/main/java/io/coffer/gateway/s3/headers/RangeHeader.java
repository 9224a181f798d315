package io.coffer.gateway.s3.headers;

import io.coffer.sdk.ByteRange;

/** Parses a single-range {@code Range: bytes=...} header; anything S3 ignores (multiple ranges, bad syntax) is null. */
public final class RangeHeader {
    private RangeHeader() {
    }

    public static ByteRange parse(String header) {
        if (header == null) {
            return null;
        }
        String h = header.trim();
        if (!h.startsWith("bytes=")) {
            return null;
        }
        String spec = h.substring("bytes=".length()).trim();
        if (spec.contains(",")) {
            return null;
        }
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return null;
        }
        try {
            String first = spec.substring(0, dash).trim();
            String last = spec.substring(dash + 1).trim();
            if (first.isEmpty()) {
                return last.isEmpty() ? null : ByteRange.suffix(Long.parseLong(last));
            }
            long f = Long.parseLong(first);
            if (last.isEmpty()) {
                return ByteRange.from(f);
            }
            long l = Long.parseLong(last);
            return l < f ? null : ByteRange.of(f, l);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
