package io.coffer.sdk.deflate;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Decodes gzip (RFC 1952) down to the LZ77 tokens and stops there (SimEnc's "partially decoded space"): Huffman codes
 * are decoded, matches are not expanded. It writes two streams: the tokens ({@link TokenWriter}: literals as their own
 * bytes, so similar content stays similar) and the side information that re-encoding needs to give back the original
 * bytes exactly ({@link SideRecord}: gzip headers and trailers, block types, exact dynamic-header bits, stored-block
 * lengths, padding bits, bytes after the last member). {@link PartialEncoder} reverses it.
 *
 * <p>Streaming: no window is kept (matches are only checked to reach no further back than the member's output so
 * far), so memory is a few fixed buffers whatever the input's size. Input that is malformed, cut short, or that the
 * encoder could not reproduce (length 258 written as code 284 plus 31, which zlib's inflate accepts) is a
 * {@link DeflateFormatException}. Neither the CRC32 nor ISIZE is checked: they are kept as they came.
 *
 * <p>Thread-safe: every call has its own state.
 */
public final class PartialDecoder {
    private static final int LIMIT_CHECK_INTERVAL = 4096;

    private final DecodeLimits limits;

    public PartialDecoder() {
        this(DecodeLimits.DEFAULT);
    }

    public PartialDecoder(DecodeLimits limits) {
        this.limits = limits;
    }

    /** Decodes all of {@code gzip} (to its end) into {@code tokens} and {@code sideInfo}; flushes both, closes none. */
    public DecodeSummary decode(InputStream gzip, OutputStream tokens, OutputStream sideInfo) throws IOException {
        return new Run(new BitInput(gzip), new TokenWriter(tokens), new SideInfoWriter(sideInfo), false).decode();
    }

    /**
     * The layer's {@link HuffmanTreeFeature} alone, reading only as far as the first dynamic block's header (the whole
     * stream where it has none): what a similarity check needs before deciding to decode the layer. The rest of
     * {@code gzip} is left unread; input up to there is checked as {@link #decode} checks it.
     */
    public HuffmanTreeFeature feature(InputStream gzip) throws IOException {
        OutputStream none = OutputStream.nullOutputStream();
        return new Run(new BitInput(gzip), new TokenWriter(none), new SideInfoWriter(none), true).decode().feature();
    }

    /** One decoding's state. */
    private final class Run {
        private final BitInput in;
        private final TokenWriter tokens;
        private final SideInfoWriter side;
        private long uncompressed;
        private long memberOutput;
        private int members;
        private long stored;
        private long fixed;
        private long dynamic;
        private long trailing;
        private HuffmanTreeFeature feature;
        private boolean sawFixed;
        /** Stop at the first dynamic block's header (feature only). */
        private final boolean featureOnly;

        Run(BitInput in, TokenWriter tokens, SideInfoWriter side, boolean featureOnly) {
            this.in = in;
            this.tokens = tokens;
            this.side = side;
            this.featureOnly = featureOnly;
        }

        private boolean stopped() {
            return featureOnly && feature != null;
        }

        DecodeSummary decode() throws IOException {
            if (in.peekByte() != GzipHeader.ID1 || in.peekSecondByte() != GzipHeader.ID2) {
                throw new DeflateFormatException("not a gzip stream");
            }
            do {
                member();
            } while (!stopped() && nextIsMember());
            if (stopped()) {
                return summary();
            }
            copyTrailingBytes();
            side.write(new SideRecord.End());
            tokens.flush();
            side.flush();
            return summary();
        }

        private DecodeSummary summary() {
            if (feature == null) {
                feature = sawFixed ? HuffmanTreeFeature.fixed() : HuffmanTreeFeature.none();
            }
            return new DecodeSummary(in.bytesConsumed(), uncompressed, tokens.bytesWritten(), side.bytesWritten(),
                    members, stored, fixed, dynamic, trailing, feature);
        }

        private boolean nextIsMember() throws IOException {
            return in.peekByte() == GzipHeader.ID1 && in.peekSecondByte() == GzipHeader.ID2;
        }

        private void member() throws IOException {
            side.write(new SideRecord.MemberStart(GzipHeader.read(in, limits.maxStringBytes())));
            memberOutput = 0;
            boolean last;
            do {
                last = in.read(1) == 1;
                int type = in.read(2);
                switch (type) {
                    case 0 -> storedBlock(last);
                    case 1 -> fixedBlock(last);
                    case 2 -> dynamicBlock(last);
                    default -> throw new DeflateFormatException("invalid deflate block type 3");
                }
                if (stopped()) {
                    return;
                }
                checkLimits();
            } while (!last);
            int paddingCount = in.bitsToByteBoundary();
            int padding = in.alignToByte();
            byte[] trailer = new byte[8];
            for (int i = 0; i < 8; i++) {
                trailer[i] = (byte) in.readByteOrFail("gzip trailer");
            }
            side.write(new SideRecord.MemberEnd(paddingCount, padding, trailer));
            members++;
        }

        private void storedBlock(boolean last) throws IOException {
            int paddingCount = in.bitsToByteBoundary();
            int padding = in.alignToByte();
            int len = in.readByteOrFail("stored block") | in.readByteOrFail("stored block") << 8;
            int nlen = in.readByteOrFail("stored block") | in.readByteOrFail("stored block") << 8;
            if (len != (~nlen & 0xFFFF)) {
                throw new DeflateFormatException("stored block length " + len + " does not match its complement");
            }
            side.write(new SideRecord.StoredBlock(last, paddingCount, padding, len));
            for (int i = 0; i < len; i++) {
                tokens.literal(in.readByteOrFail("stored block"));
            }
            memberOutput += len;
            uncompressed += len;
            stored++;
        }

        private void fixedBlock(boolean last) throws IOException {
            side.write(new SideRecord.FixedBlock(last));
            sawFixed = true;
            symbols(DeflateTables.fixedLiteralLength(), DeflateTables.fixedDistance());
            fixed++;
        }

        private void dynamicBlock(boolean last) throws IOException {
            DynamicHeader header = DynamicHeader.read(in);
            HuffmanCode literalLength = header.literalLengthCode();
            HuffmanCode distance = header.distanceCode();
            side.write(new SideRecord.DynamicBlock(last, header.bits(), header.bitCount()));
            if (feature == null) {
                feature = HuffmanTreeFeature.of(header.literalLengthLengths(),
                        HuffmanTreeFeature.Source.FIRST_DYNAMIC_BLOCK);
                if (featureOnly) {
                    return;
                }
            }
            symbols(literalLength, distance);
            dynamic++;
        }

        /** Decodes a Huffman block's symbols up to and including its end of block. */
        private void symbols(HuffmanCode literalLength, HuffmanCode distance) throws IOException {
            int sinceCheck = 0;
            for (;;) {
                int symbol = literalLength.decode(in);
                if (symbol < 256) {
                    tokens.literal(symbol);
                    memberOutput++;
                    uncompressed++;
                } else if (symbol == DeflateTables.END_OF_BLOCK) {
                    tokens.endOfBlock();
                    return;
                } else {
                    match(symbol - 257, distance);
                }
                if (++sinceCheck == LIMIT_CHECK_INTERVAL) {
                    sinceCheck = 0;
                    checkLimits();
                }
            }
        }

        private void match(int lengthCode, HuffmanCode distance) throws IOException {
            if (lengthCode >= DeflateTables.LENGTH_BASE.length) {
                throw new DeflateFormatException("invalid literal/length code " + (lengthCode + 257));
            }
            int length = DeflateTables.LENGTH_BASE[lengthCode] + in.read(DeflateTables.LENGTH_EXTRA[lengthCode]);
            if (length == 258 && lengthCode != 28) {
                throw new DeflateFormatException("length 258 written as code 284 plus 31 (non-canonical): "
                        + "not reproducible");
            }
            int distanceCode = distance.decode(in);
            if (distanceCode >= DeflateTables.DISTANCE_SYMBOLS) {
                throw new DeflateFormatException("invalid distance code " + distanceCode);
            }
            int dist = DeflateTables.DISTANCE_BASE[distanceCode] + in.read(DeflateTables.DISTANCE_EXTRA[distanceCode]);
            if (dist > memberOutput) {
                throw new DeflateFormatException("distance " + dist + " too far back (" + memberOutput
                        + " bytes decoded)");
            }
            tokens.match(length, dist);
            memberOutput += length;
            uncompressed += length;
        }

        private void copyTrailingBytes() throws IOException {
            byte[] chunk = new byte[SideInfoReader.MAX_TRAILING_RECORD];
            int n = 0;
            for (int b = in.readByte(); b >= 0; b = in.readByte()) {
                chunk[n++] = (byte) b;
                if (n == chunk.length) {
                    side.write(new SideRecord.TrailingBytes(chunk.clone()));
                    trailing += n;
                    n = 0;
                    checkLimits();
                }
            }
            if (n > 0) {
                side.write(new SideRecord.TrailingBytes(java.util.Arrays.copyOf(chunk, n)));
                trailing += n;
            }
        }

        private void checkLimits() throws DeflateFormatException {
            if (uncompressed > limits.maxUncompressed()) {
                throw new DeflateFormatException("decompressed size exceeds " + limits.maxUncompressed() + " bytes");
            }
            long written = tokens.bytesWritten() + side.bytesWritten();
            if (written > limits.maxExpansion() * in.bytesConsumed() + DecodeLimits.EXPANSION_ALLOWANCE) {
                throw new DeflateFormatException("partially decoded output of " + written + " bytes from "
                        + in.bytesConsumed() + " compressed bytes exceeds the expansion bound " + limits.maxExpansion());
            }
        }
    }
}
