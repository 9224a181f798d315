package io.coffer.sdk.deflate;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;

/**
 * A dynamic block's header (RFC 1951 §3.2.7) from HLIT to the last code length, parsed with its exact bits kept:
 * the re-encoder writes the recorded bits as they were, so every choice the original encoder made (HCLEN, the
 * code-length code, how runs were coded with symbols 16, 17 and 18, trailing zero lengths) comes back unchanged.
 * The same parser reads the recorded bits again at re-encoding to rebuild the block's codes.
 */
record DynamicHeader(byte[] bits, int bitCount, int[] literalLengthLengths, int literalLengthCount,
                     int[] distanceLengths, int distanceCount) {

    /** The most bits a header can take: 14 + 19 * 3 + 320 code lengths of at most 7 + 7 bits each. */
    static final int MAX_BITS = 14 + 19 * 3 + 320 * 14;

    static DynamicHeader read(BitInput in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        // sized for the largest header, so the record is written out once, by flush
        BitOutput record = new BitOutput(bytes, MAX_BITS / 8 + 16);
        int hlit = in.read(5);
        int hdist = in.read(5);
        int hclen = in.read(4);
        record.write(hlit, 5);
        record.write(hdist, 5);
        record.write(hclen, 4);
        int literalCount = hlit + 257;
        int distanceCount = hdist + 1;
        if (literalCount > DeflateTables.LITERAL_LENGTH_SYMBOLS) {
            throw new DeflateFormatException("too many literal/length codes: " + literalCount);
        }
        if (distanceCount > DeflateTables.DISTANCE_SYMBOLS) {
            throw new DeflateFormatException("too many distance codes: " + distanceCount);
        }
        int[] codeLengthLengths = new int[19];
        for (int i = 0; i < hclen + 4; i++) {
            int v = in.read(3);
            record.write(v, 3);
            codeLengthLengths[DeflateTables.CODE_LENGTH_ORDER[i]] = v;
        }
        HuffmanCode codeLengthCode = HuffmanCode.of(codeLengthLengths, 19, HuffmanCode.Kind.CODE_LENGTHS);
        int[] lengths = new int[literalCount + distanceCount];
        int i = 0;
        while (i < lengths.length) {
            int symbol = codeLengthCode.decode(in, record);
            if (symbol < 16) {
                lengths[i++] = symbol;
                continue;
            }
            int repeat;
            int value = 0;
            if (symbol == 16) {
                if (i == 0) {
                    throw new DeflateFormatException("repeat of a code length with none before it");
                }
                value = lengths[i - 1];
                repeat = 3 + readRecorded(in, record, 2);
            } else if (symbol == 17) {
                repeat = 3 + readRecorded(in, record, 3);
            } else {
                repeat = 11 + readRecorded(in, record, 7);
            }
            if (i + repeat > lengths.length) {
                throw new DeflateFormatException("code lengths repeat past the end of the header");
            }
            Arrays.fill(lengths, i, i + repeat, value);
            i += repeat;
        }
        int[] literal = Arrays.copyOf(lengths, literalCount);
        int[] distance = Arrays.copyOfRange(lengths, literalCount, lengths.length);
        if (literal[DeflateTables.END_OF_BLOCK] == 0) {
            throw new DeflateFormatException("dynamic block without an end-of-block code");
        }
        int bitCount = (int) (record.bytesWritten() * 8 - record.bitsToByteBoundary());
        record.write(0, record.bitsToByteBoundary());
        record.flush();
        return new DynamicHeader(bytes.toByteArray(), bitCount, literal, literalCount, distance, distanceCount);
    }

    private static int readRecorded(BitInput in, BitOutput record, int n) throws IOException {
        int v = in.read(n);
        record.write(v, n);
        return v;
    }

    /** Parses recorded header bits again (at re-encoding); they must be exactly one header. */
    static DynamicHeader parseRecorded(byte[] bits, int bitCount) throws IOException {
        if (bitCount < 0 || bitCount > MAX_BITS || bits.length != (bitCount + 7) / 8) {
            throw new DeflateFormatException("malformed dynamic header record");
        }
        DynamicHeader h = read(new BitInput(bits, bits.length));
        if (h.bitCount != bitCount) {
            throw new DeflateFormatException("dynamic header record of " + bitCount + " bits parses as " + h.bitCount);
        }
        return h;
    }

    HuffmanCode literalLengthCode() throws DeflateFormatException {
        return HuffmanCode.of(literalLengthLengths, literalLengthCount, HuffmanCode.Kind.LITERAL_LENGTH);
    }

    HuffmanCode distanceCode() throws DeflateFormatException {
        return HuffmanCode.of(distanceLengths, distanceCount, HuffmanCode.Kind.DISTANCE);
    }
}
