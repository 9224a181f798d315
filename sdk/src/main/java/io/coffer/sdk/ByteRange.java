package io.coffer.sdk;

/**
 * An HTTP byte range as a client asked for it: {@code first-last}, {@code first-} or the suffix {@code -n}.
 * {@link #resolve} turns it into an offset and length within an object, or fails with {@link ErrorCode#INVALID_RANGE}.
 */
public record ByteRange(long first, long last, long suffixLength) {

    public static ByteRange of(long first, long lastInclusive) {
        if (first < 0 || lastInclusive < first) {
            throw CofferException.invalid("invalid range " + first + "-" + lastInclusive);
        }
        return new ByteRange(first, lastInclusive, -1);
    }

    public static ByteRange from(long first) {
        if (first < 0) {
            throw CofferException.invalid("invalid range start " + first);
        }
        return new ByteRange(first, -1, -1);
    }

    public static ByteRange suffix(long length) {
        if (length < 0) {
            throw CofferException.invalid("invalid suffix length " + length);
        }
        return new ByteRange(-1, -1, length);
    }

    /** Offset and length of this range in an object of {@code size} bytes. */
    public Resolved resolve(long size) {
        if (suffixLength >= 0) {
            if (suffixLength == 0) {
                throw unsatisfiable(size);
            }
            long len = Math.min(suffixLength, size);
            if (len == 0) {
                throw unsatisfiable(size);
            }
            return new Resolved(size - len, len);
        }
        if (first >= size) {
            throw unsatisfiable(size);
        }
        long end = last < 0 ? size - 1 : Math.min(last, size - 1);
        return new Resolved(first, end - first + 1);
    }

    private static CofferException unsatisfiable(long size) {
        return CofferException.of(ErrorCode.INVALID_RANGE, "The requested range is not satisfiable (object size "
                + size + ")");
    }

    /** A satisfiable range: {@code length >= 1} bytes from {@code offset}. */
    public record Resolved(long offset, long length) {
        public long lastInclusive() {
            return offset + length - 1;
        }
    }
}
