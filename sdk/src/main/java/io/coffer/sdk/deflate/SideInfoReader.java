package io.coffer.sdk.deflate;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/** Reads side information records strictly: every length is bounded, an unknown tag or a short record is malformed. */
final class SideInfoReader {
    /** Larger than any header the decoder accepts (FEXTRA 64 KiB, FNAME and FCOMMENT at their limits). */
    static final int MAX_HEADER_BYTES = 1 << 20;
    static final int MAX_TRAILING_RECORD = 64 * 1024;

    private final InputStream in;
    private final byte[] buf = new byte[16 * 1024];
    private int pos;
    private int lim;

    SideInfoReader(InputStream in) throws IOException {
        this.in = in;
        byte[] magic = bytes(SideInfoWriter.MAGIC.length);
        if (!Arrays.equals(magic, SideInfoWriter.MAGIC)) {
            throw new DeflateFormatException("not partially decoded side information (magic " + Arrays.toString(magic) + ")");
        }
    }

    SideRecord next() throws IOException {
        int tag = u8();
        return switch (tag) {
            case SideRecord.MEMBER_START -> new SideRecord.MemberStart(bytes(length(MAX_HEADER_BYTES)));
            case SideRecord.STORED_BLOCK -> new SideRecord.StoredBlock(flag(), below(8), u8(), u8() | u8() << 8);
            case SideRecord.FIXED_BLOCK -> new SideRecord.FixedBlock(flag());
            case SideRecord.DYNAMIC_BLOCK -> {
                boolean last = flag();
                int bitCount = length(DynamicHeader.MAX_BITS);
                yield new SideRecord.DynamicBlock(last, bytes((bitCount + 7) / 8), bitCount);
            }
            case SideRecord.MEMBER_END -> new SideRecord.MemberEnd(below(8), u8(), bytes(8));
            case SideRecord.TRAILING_BYTES -> new SideRecord.TrailingBytes(bytes(length(MAX_TRAILING_RECORD)));
            case SideRecord.END -> new SideRecord.End();
            default -> throw new DeflateFormatException("malformed side information: record tag " + tag);
        };
    }

    /** True when nothing follows (checked after the end record). */
    boolean atEnd() throws IOException {
        return pos == lim && !fill();
    }

    private boolean flag() throws IOException {
        int b = u8();
        if (b > 1) {
            throw new DeflateFormatException("malformed side information: block flag " + b);
        }
        return b == 1;
    }

    private int below(int bound) throws IOException {
        int b = u8();
        if (b >= bound) {
            throw new DeflateFormatException("malformed side information: value " + b + " not below " + bound);
        }
        return b;
    }

    private int length(int max) throws IOException {
        long v = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            int b = u8();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                if (v > max) {
                    throw new DeflateFormatException("malformed side information: length " + v + " exceeds " + max);
                }
                return (int) v;
            }
        }
        throw new DeflateFormatException("malformed side information: varint too long");
    }

    private byte[] bytes(int n) throws IOException {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) u8();
        }
        return b;
    }

    private int u8() throws IOException {
        if (pos == lim && !fill()) {
            throw new DeflateFormatException("side information ends inside a record");
        }
        return buf[pos++] & 0xFF;
    }

    private boolean fill() throws IOException {
        int n = in.read(buf, 0, buf.length);
        while (n == 0) {
            n = in.read(buf, 0, buf.length);
        }
        if (n < 0) {
            return false;
        }
        pos = 0;
        lim = n;
        return true;
    }
}
