package io.coffer.sdk.deflate;

import io.coffer.sdk.codec.BinaryReader;
import io.coffer.sdk.codec.BinaryWriter;
import io.coffer.sdk.codec.MalformedRecordException;
import java.util.Arrays;

/**
 * How to re-create a single-member gzip object bit-exactly from its decompressed bytes by deflating them again with the
 * JDK's zlib (docs/FORMAT.md "Zlib recipes"): the member header as it came, the deflater's parameters, the length of
 * the raw deflate stream, the trailer as it came, the zlib that reproduced it (named, for the error message when a
 * later one does not), and the SHA-256 of each {@code segmentSize} bytes of the original object, so that a re-deflation
 * is checked segment by segment before its bytes leave ({@link ZlibReplay}).
 *
 * @param header         the gzip member header bytes (ID1 .. FHCRC)
 * @param level          java.util.zip.Deflater level, 1..9
 * @param deflatedLength the raw deflate stream's length
 * @param trailer        CRC32 and ISIZE as they came (8 bytes)
 * @param zlib           the zlib that reproduced the stream at PUT ({@link ZlibIdentity})
 * @param segmentSize    the span of each segment hash
 * @param segmentHashes  SHA-256 of each segment of the original object, concatenated (32 bytes each)
 * @param tarMetadata    0 when the layer's data entries are its decompressed bytes as they are (version 1); else
 *                       they are those bytes split as a tar ({@code io.coffer.sdk.layer.TarSplit}): this many bytes of
 *                       metadata stream, then the bodies stream (version 2)
 */
public record ZlibRecipe(byte[] header, int level, long deflatedLength, byte[] trailer, String zlib,
                         int segmentSize, byte[] segmentHashes, long tarMetadata) {
    /** {@code "cpz"}, version 1: distinct from the side information's {@code "cpd"} in its third byte. */
    static final byte[] MAGIC = {0x63, 0x70, 0x7A, 0x01};
    /** Version 2: version 1's fields, then {@code uvarint tarMetadata} (at least 1). */
    static final byte[] MAGIC_TAR_SPLIT = {0x63, 0x70, 0x7A, 0x02};
    /** zlib's defaults, the only ones java.util.zip can set besides the level: recorded so that the bytes say so. */
    static final int STRATEGY_DEFAULT = 0;
    static final int WINDOW_BITS = 15;
    static final int MEM_LEVEL = 8;
    static final int HASH_BYTES = 32;
    static final int MAX_SEGMENT_SIZE = 16 << 20;
    /** Far more than any header SideInfoReader accepts plus the hashes of a 64 GiB object at 1 MiB segments. */
    public static final int MAX_BYTES = (1 << 20) + (1 << 16) * HASH_BYTES + 4096;

    public ZlibRecipe {
        if (level < 1 || level > 9 || trailer.length != 8 || header.length < 10 || deflatedLength < 0
                || segmentSize < 1 || segmentSize > MAX_SEGMENT_SIZE || segmentHashes.length % HASH_BYTES != 0
                || tarMetadata < 0) {
            throw new IllegalArgumentException("not a valid zlib recipe");
        }
        header = header.clone();
        trailer = trailer.clone();
        segmentHashes = segmentHashes.clone();
    }

    /** A recipe whose data entries are the decompressed bytes as they are (version 1). */
    public ZlibRecipe(byte[] header, int level, long deflatedLength, byte[] trailer, String zlib, int segmentSize,
                      byte[] segmentHashes) {
        this(header, level, deflatedLength, trailer, zlib, segmentSize, segmentHashes, 0);
    }

    /** The same recipe for data entries split as a tar with {@code metadata} bytes of metadata stream first. */
    public ZlibRecipe withTarMetadata(long metadata) {
        return new ZlibRecipe(header, level, deflatedLength, trailer, zlib, segmentSize, segmentHashes, metadata);
    }

    /** The original object's length. */
    public long size() {
        return header.length + deflatedLength + trailer.length;
    }

    /** Whether {@code start} (at least 4 bytes) begins a recipe rather than side information. */
    public static boolean isRecipe(byte[] start) {
        return start.length >= MAGIC.length && (Arrays.equals(start, 0, MAGIC.length, MAGIC, 0, MAGIC.length)
                || Arrays.equals(start, 0, MAGIC.length, MAGIC_TAR_SPLIT, 0, MAGIC.length));
    }

    public byte[] toBytes() {
        BinaryWriter w = new BinaryWriter(64 + header.length + segmentHashes.length);
        w.raw(tarMetadata == 0 ? MAGIC : MAGIC_TAR_SPLIT).bytes(header).u8(level).u8(STRATEGY_DEFAULT)
                .u8(WINDOW_BITS).u8(MEM_LEVEL).uvarint(deflatedLength).raw(trailer).string(zlib).uvarint(segmentSize)
                .bytes(segmentHashes);
        if (tarMetadata != 0) {
            w.uvarint(tarMetadata);
        }
        return w.toByteArray();
    }

    public static ZlibRecipe parse(byte[] bytes) throws MalformedRecordException {
        if (!isRecipe(bytes)) {
            throw new MalformedRecordException("not a zlib recipe");
        }
        boolean split = bytes[MAGIC.length - 1] == MAGIC_TAR_SPLIT[MAGIC.length - 1];
        BinaryReader r = new BinaryReader(bytes);
        r.raw(MAGIC.length);
        byte[] header = r.bytes();
        int level = r.u8();
        int strategy = r.u8();
        int windowBits = r.u8();
        int memLevel = r.u8();
        if (strategy != STRATEGY_DEFAULT || windowBits != WINDOW_BITS || memLevel != MEM_LEVEL) {
            throw new MalformedRecordException("zlib recipe with strategy " + strategy + ", windowBits " + windowBits
                    + ", memLevel " + memLevel + ": only zlib's defaults (0, 15, 8) can be replayed");
        }
        long deflatedLength = r.uvarint();
        byte[] trailer = r.raw(8);
        String zlib = r.string();
        long segmentSize = r.uvarint();
        byte[] hashes = r.bytes();
        long tarMetadata = split ? r.uvarint() : 0;
        r.finish();
        if (split && tarMetadata == 0) {
            throw new MalformedRecordException("zlib recipe of version 2 without tar metadata");
        }
        try {
            ZlibRecipe recipe = new ZlibRecipe(header, level, deflatedLength, trailer, zlib == null ? "" : zlib,
                    (int) Math.min(segmentSize, Integer.MAX_VALUE), hashes, tarMetadata);
            if (recipe.segmentCount() != hashes.length / HASH_BYTES) {
                throw new MalformedRecordException("zlib recipe has " + hashes.length / HASH_BYTES
                        + " segment hashes for " + recipe.segmentCount() + " segments");
            }
            return recipe;
        } catch (IllegalArgumentException e) {
            throw new MalformedRecordException("malformed zlib recipe: " + e.getMessage());
        }
    }

    /** How many segments the original object has (the last may be short). */
    long segmentCount() {
        return (size() + segmentSize - 1) / segmentSize;
    }

    byte[] segmentHash(int i) {
        return Arrays.copyOfRange(segmentHashes, i * HASH_BYTES, (i + 1) * HASH_BYTES);
    }

    @Override
    public byte[] header() {
        return header.clone();
    }

    @Override
    public byte[] trailer() {
        return trailer.clone();
    }

    @Override
    public byte[] segmentHashes() {
        return segmentHashes.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ZlibRecipe r && Arrays.equals(toBytes(), r.toBytes());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(toBytes());
    }

    @Override
    public String toString() {
        return "ZlibRecipe[level " + level + ", " + size() + " bytes, zlib " + zlib + "]";
    }
}
