package io.coffer.por.blob;

import io.coffer.sdk.blob.BlobNames;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * The header a blob's blocks start with in U, so that the block map can be rebuilt from U alone. A blob is stored
 * as the byte stream header || content, cut into blocks of the store's block size (the last one zero-padded); the
 * header lists every block's index, so one that does not fit its first block continues in the next one, whose index
 * it has already given (blocks are at least {@link #MIN_BLOCK_BYTES}, so the first holds the fixed part and more than
 * one index).
 *
 * <p>Bytes (big-endian): magic "CPORBLOB" (8), version 1 (1), created, epoch milliseconds (8), name length (2), name
 * (ASCII), content length (8), block count (4), the block indices (4 each), CRC-32C of all before it (4).
 */
record PackHeader(String name, long length, Instant created, int[] blocks) {
    static final int MIN_BLOCK_BYTES = 1024;
    private static final byte[] MAGIC = "CPORBLOB".getBytes(StandardCharsets.US_ASCII);
    private static final byte VERSION = 1;
    /** Magic, version, created, name length, content length, block count, CRC: all but the name and the indices. */
    private static final int FIXED = 8 + 1 + 8 + 2 + 8 + 4 + 4;

    /** Header bytes for a name of {@code nameBytes} bytes and {@code count} blocks. */
    static int length(int nameBytes, int count) {
        return FIXED + nameBytes + 4 * count;
    }

    /** How many blocks of {@code blockBytes} a blob needs, header included; -1 if more than {@code max}. */
    static int blockCount(String name, long length, int blockBytes, int max) {
        int nameBytes = name.length();
        if (length < 0 || length > (long) max * blockBytes) {
            return -1;
        }
        long count = Math.max(1, ceilDiv(length(nameBytes, 0) + length, blockBytes));
        while (count <= max) {
            long needed = ceilDiv(length(nameBytes, (int) count) + length, blockBytes);
            if (needed <= count) {
                return (int) count;
            }
            count = needed;
        }
        return -1;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    int bytes() {
        return length(name.length(), blocks.length);
    }

    byte[] encode() {
        ByteBuffer out = ByteBuffer.allocate(bytes());
        out.put(MAGIC).put(VERSION).putLong(created.toEpochMilli()).putShort((short) name.length())
                .put(name.getBytes(StandardCharsets.US_ASCII)).putLong(length).putInt(blocks.length);
        for (int b : blocks) {
            out.putInt(b);
        }
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, out.position());
        out.putInt((int) crc.getValue());
        return out.array();
    }

    /** Reads the further blocks of a header that spans several. */
    @FunctionalInterface
    interface BlockSource {
        byte[] block(int index);
    }

    /**
     * The header that block {@code index} starts, or null if it starts none (not the magic, or anything inconsistent:
     * a block of content that happens to start with the magic fails the CRC or the checks).
     */
    static PackHeader decode(int index, byte[] first, int capacity, BlockSource more) {
        int blockBytes = first.length;
        ByteBuffer in = ByteBuffer.wrap(first);
        byte[] magic = new byte[MAGIC.length];
        in.get(magic);
        if (!java.util.Arrays.equals(magic, MAGIC) || in.get() != VERSION) {
            return null;
        }
        long created = in.getLong();
        int nameBytes = in.getShort() & 0xffff;
        if (nameBytes < 1 || nameBytes > BlobNames.MAX_LENGTH) {
            return null;
        }
        String name = new String(first, in.position(), nameBytes, StandardCharsets.US_ASCII);
        in.position(in.position() + nameBytes);
        long length = in.getLong();
        int count = in.getInt();
        if (!BlobNames.isValid(name) || length < 0 || count < 1 || count > capacity
                || blockCount(name, length, blockBytes, capacity) != count) {
            return null;
        }
        int headerBytes = length(nameBytes, count);
        ByteBuffer header = ByteBuffer.allocate(headerBytes);
        header.put(first, 0, Math.min(blockBytes, headerBytes));
        int[] blocks = new int[count];
        Set<Integer> seen = new HashSet<>();
        int indexAt = headerBytes - 4 - 4 * count;
        for (int i = 0; i < count; i++) {
            int at = indexAt + 4 * i;
            while (header.position() < at + 4) { // the index list continues in block j, whose index is known
                int j = header.position() / blockBytes;
                byte[] next = more.block(blocks[j]);
                header.put(next, 0, Math.min(blockBytes, headerBytes - header.position()));
            }
            blocks[i] = header.getInt(at);
            if (blocks[i] < 0 || blocks[i] >= capacity || !seen.add(blocks[i])) {
                return null;
            }
        }
        if (blocks[0] != index) {
            return null;
        }
        while (header.position() < headerBytes) {
            byte[] next = more.block(blocks[header.position() / blockBytes]);
            header.put(next, 0, Math.min(blockBytes, headerBytes - header.position()));
        }
        CRC32C crc = new CRC32C();
        crc.update(header.array(), 0, headerBytes - 4);
        if ((int) crc.getValue() != header.getInt(headerBytes - 4)) {
            return null;
        }
        return new PackHeader(name, length, Instant.ofEpochMilli(created), blocks);
    }
}
