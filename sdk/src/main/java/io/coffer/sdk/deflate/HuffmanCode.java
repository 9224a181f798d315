package io.coffer.sdk.deflate;

import java.io.IOException;

/**
 * A canonical Huffman code built from code lengths (RFC 1951 §3.2.2), for decoding and for encoding. Sets zlib's
 * inflate rejects are rejected here too: an over-subscribed set always, an incomplete set unless it is a single code
 * of length one (literal/length and distance codes only), and, for distance codes, an empty set is allowed (a block
 * without matches). Decoding looks up {@value #FAST_BITS} bits at once and walks the canonical counts for longer codes.
 */
final class HuffmanCode {
    static final int MAX_BITS = 15;
    private static final int FAST_BITS = 10;

    /** What the code is for: the code-length code must be complete. */
    enum Kind { CODE_LENGTHS, LITERAL_LENGTH, DISTANCE }

    /** Decoding: symbol << 4 | length, or -1 for a longer code or an unused bit pattern. */
    private final int[] fast = new int[1 << FAST_BITS];
    private final int[] countPerLength = new int[MAX_BITS + 1];
    private final int[] symbolsInCodeOrder;
    /** Encoding: each symbol's code, bits reversed to be written least-significant bit first, and length << 16. */
    private final int[] codes;
    private final boolean empty;
    /** The canonical walk's state after the first {@value #FAST_BITS} lengths, where a long code's decoding resumes. */
    private final int slowFirst;
    private final int slowIndex;

    private HuffmanCode(int[] lengths, int symbols, Kind kind) throws DeflateFormatException {
        int used = 0;
        int maxLength = 0;
        for (int i = 0; i < symbols; i++) {
            int len = lengths[i];
            if (len < 0 || len > MAX_BITS) {
                throw new DeflateFormatException("invalid code length " + len);
            }
            countPerLength[len]++;
            if (len > 0) {
                used++;
                maxLength = Math.max(maxLength, len);
            }
        }
        countPerLength[0] = 0;
        int left = 1;
        for (int len = 1; len <= MAX_BITS; len++) {
            left = (left << 1) - countPerLength[len];
            if (left < 0) {
                throw new DeflateFormatException("over-subscribed " + name(kind) + " code");
            }
        }
        empty = used == 0;
        if (empty && kind != Kind.DISTANCE) {
            throw new DeflateFormatException("empty " + name(kind) + " code");
        }
        if (left > 0 && !empty && (kind == Kind.CODE_LENGTHS || maxLength != 1)) {
            throw new DeflateFormatException("incomplete " + name(kind) + " code");
        }
        int[] offsets = new int[MAX_BITS + 2];
        for (int len = 1; len <= MAX_BITS; len++) {
            offsets[len + 1] = offsets[len] + countPerLength[len];
        }
        int first = 0;
        int index = 0;
        for (int len = 1; len <= FAST_BITS; len++) {
            index += countPerLength[len];
            first = (first + countPerLength[len]) << 1;
        }
        slowFirst = first;
        slowIndex = index;
        symbolsInCodeOrder = new int[used];
        for (int i = 0; i < symbols; i++) {
            if (lengths[i] > 0) {
                symbolsInCodeOrder[offsets[lengths[i]]++] = i;
            }
        }
        codes = new int[symbols];
        int[] next = new int[MAX_BITS + 2];
        int code = 0;
        for (int len = 1; len <= MAX_BITS; len++) {
            code = (code + countPerLength[len - 1]) << 1;
            next[len] = code;
        }
        java.util.Arrays.fill(fast, -1);
        for (int i = 0; i < symbols; i++) {
            int len = lengths[i];
            if (len == 0) {
                continue;
            }
            int rev = Integer.reverse(next[len]++) >>> (32 - len);
            codes[i] = len << 16 | rev;
            if (len <= FAST_BITS) {
                for (int fill = rev; fill < fast.length; fill += 1 << len) {
                    fast[fill] = i << 4 | len;
                }
            }
        }
    }

    private static String name(Kind kind) {
        return switch (kind) {
            case CODE_LENGTHS -> "code-length";
            case LITERAL_LENGTH -> "literal/length";
            case DISTANCE -> "distance";
        };
    }

    static HuffmanCode of(int[] lengths, int symbols, Kind kind) throws DeflateFormatException {
        return new HuffmanCode(lengths, symbols, kind);
    }

    /** Reads one symbol. */
    int decode(BitInput in) throws IOException {
        int peeked = in.peek(MAX_BITS);
        int entry = fast[peeked & ((1 << FAST_BITS) - 1)];
        if (entry >= 0) {
            in.skip(entry & 15);
            return entry >>> 4;
        }
        return decodeSlow(in, peeked);
    }

    /** Reads one symbol and appends the bits it took to {@code record}. */
    int decode(BitInput in, BitOutput record) throws IOException {
        int peeked = in.peek(MAX_BITS);
        int before = in.available();
        int symbol = decode(in);
        int used = before - in.available();
        record.write(peeked, used);
        return symbol;
    }

    /**
     * Canonical decoding one bit at a time (RFC 1951's "puff" walk) for codes longer than the table. No code of up to
     * {@value #FAST_BITS} bits matched (the table holds them all), so the walk resumes after them with the first
     * {@value #FAST_BITS} bits as its code.
     */
    private int decodeSlow(BitInput in, int peeked) throws IOException {
        int code = (Integer.reverse(peeked) >>> (32 - FAST_BITS)) << 1;
        int first = slowFirst;
        int index = slowIndex;
        for (int len = FAST_BITS + 1; len <= MAX_BITS; len++) {
            code |= (peeked >>> (len - 1)) & 1;
            int count = countPerLength[len];
            if (code - first < count) {
                in.skip(len);
                return symbolsInCodeOrder[index + code - first];
            }
            index += count;
            first = (first + count) << 1;
            code <<= 1;
        }
        if (in.available() < MAX_BITS) {
            throw new DeflateFormatException("truncated deflate stream");
        }
        throw new DeflateFormatException(empty ? "distance code in a block without distances" : "invalid Huffman code");
    }

    /** Writes {@code symbol}'s code; a symbol without a code is malformed side information or tokens. */
    void encode(BitOutput out, int symbol) throws IOException {
        int code = symbol < codes.length ? codes[symbol] : 0;
        if (code == 0) {
            throw new DeflateFormatException("symbol " + symbol + " has no code in this block");
        }
        out.write(code & 0xFFFF, code >>> 16);
    }
}
