package io.coffer.sdk.deflate;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Re-creates the original gzip bytes from what {@link PartialDecoder} wrote: Huffman encoding only (no match
 * search), streaming, with a few fixed buffers. The two inputs are read strictly: records out of order, tokens that
 * do not fit their block (a match in a stored block, a symbol without a code, a distance before the member's start),
 * or tokens left over are a {@link DeflateFormatException}, never silently different output.
 *
 * <p>Thread-safe: every call has its own state.
 */
public final class PartialEncoder {

    /** Writes the gzip bytes to {@code gzip} (flushed, not closed) and returns how many. */
    public long encode(InputStream tokens, InputStream sideInfo, OutputStream gzip) throws IOException {
        return new Run(new TokenReader(tokens), new SideInfoReader(sideInfo), new BitOutput(gzip)).encode();
    }

    /** One encoding's state. */
    private static final class Run {
        private final TokenReader tokens;
        private final SideInfoReader side;
        private final BitOutput out;
        private long memberOutput;

        Run(TokenReader tokens, SideInfoReader side, BitOutput out) {
            this.tokens = tokens;
            this.side = side;
            this.out = out;
        }

        long encode() throws IOException {
            SideRecord record = side.next();
            if (!(record instanceof SideRecord.MemberStart)) {
                throw new DeflateFormatException("side information does not start with a gzip member");
            }
            while (record instanceof SideRecord.MemberStart start) {
                member(start);
                record = side.next();
            }
            while (record instanceof SideRecord.TrailingBytes t) {
                if (t.bytes().length == 0) {
                    throw new DeflateFormatException("empty trailing-bytes record");
                }
                out.writeBytes(t.bytes(), 0, t.bytes().length);
                record = side.next();
            }
            if (!(record instanceof SideRecord.End)) {
                throw new DeflateFormatException("unexpected side record " + record.getClass().getSimpleName());
            }
            if (tokens.next() != TokenReader.END_OF_STREAM) {
                throw new DeflateFormatException("tokens left over after the last member");
            }
            if (!side.atEnd()) {
                throw new DeflateFormatException("side information left over after its end record");
            }
            out.flush();
            return out.bytesWritten();
        }

        private void member(SideRecord.MemberStart start) throws IOException {
            out.writeBytes(start.header(), 0, start.header().length);
            memberOutput = 0;
            boolean last = false;
            while (!last) {
                SideRecord record = side.next();
                if (record instanceof SideRecord.StoredBlock s) {
                    last = s.last();
                    stored(s);
                } else if (record instanceof SideRecord.FixedBlock f) {
                    last = f.last();
                    out.write(last ? 1 : 0, 1);
                    out.write(1, 2);
                    symbols(DeflateTables.fixedLiteralLength(), DeflateTables.fixedDistance());
                } else if (record instanceof SideRecord.DynamicBlock d) {
                    last = d.last();
                    DynamicHeader header = DynamicHeader.parseRecorded(d.headerBits(), d.headerBitCount());
                    out.write(last ? 1 : 0, 1);
                    out.write(2, 2);
                    writeBits(d.headerBits(), d.headerBitCount());
                    symbols(header.literalLengthCode(), header.distanceCode());
                } else {
                    throw new DeflateFormatException("expected a block record, got " + record.getClass().getSimpleName());
                }
            }
            SideRecord record = side.next();
            if (!(record instanceof SideRecord.MemberEnd end)) {
                throw new DeflateFormatException("expected a member end, got " + record.getClass().getSimpleName());
            }
            padding(end.paddingBitCount(), end.paddingBits());
            out.writeBytes(end.trailer(), 0, end.trailer().length);
        }

        private void stored(SideRecord.StoredBlock s) throws IOException {
            out.write(s.last() ? 1 : 0, 1);
            out.write(0, 2);
            padding(s.paddingBitCount(), s.paddingBits());
            int len = s.length();
            out.writeByte(len & 0xFF);
            out.writeByte(len >>> 8);
            out.writeByte(~len & 0xFF);
            out.writeByte((~len >>> 8) & 0xFF);
            for (int i = 0; i < len; i++) {
                int token = tokens.next();
                if (token < 0 || token > 255) {
                    throw new DeflateFormatException("stored block of " + len + " bytes: token " + i + " is not a literal");
                }
                out.writeByte(token);
            }
            memberOutput += len;
        }

        private void padding(int count, int bits) throws IOException {
            if (count != out.bitsToByteBoundary() || bits >>> count != 0) {
                throw new DeflateFormatException("padding of " + count + " bits where " + out.bitsToByteBoundary()
                        + " are needed");
            }
            out.write(bits, count);
        }

        private void writeBits(byte[] bits, int count) throws IOException {
            for (int i = 0; count > 0; i++, count -= 8) {
                out.write(bits[i] & 0xFF, Math.min(8, count));
            }
        }

        private void symbols(HuffmanCode literalLength, HuffmanCode distance) throws IOException {
            for (;;) {
                int token = tokens.next();
                if (token < 0) {
                    throw new DeflateFormatException("token stream ends inside a block");
                }
                if (token < 256) {
                    literalLength.encode(out, token);
                    memberOutput++;
                } else if (token == TokenReader.END_OF_BLOCK) {
                    literalLength.encode(out, DeflateTables.END_OF_BLOCK);
                    return;
                } else {
                    match(token >>> 16, token & 0xFFFF, literalLength, distance);
                }
            }
        }

        private void match(int length, int dist, HuffmanCode literalLength, HuffmanCode distance)
                throws IOException {
            if (dist > memberOutput) {
                throw new DeflateFormatException("match distance " + dist + " reaches before the member's start");
            }
            int lengthCode = DeflateTables.lengthCode(length);
            literalLength.encode(out, 257 + lengthCode);
            out.write(length - DeflateTables.LENGTH_BASE[lengthCode], DeflateTables.LENGTH_EXTRA[lengthCode]);
            int distanceCode = DeflateTables.distanceCode(dist);
            distance.encode(out, distanceCode);
            out.write(dist - DeflateTables.DISTANCE_BASE[distanceCode], DeflateTables.DISTANCE_EXTRA[distanceCode]);
            memberOutput += length;
        }
    }
}
