package io.coffer.sdk.pack;

import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.codec.BinaryReader;
import io.coffer.sdk.codec.BinaryWriter;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.crypto.ChunkIntegrityException;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.ChunkLocation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The index at the end of a pack: which chunk lies where. Read back only by reindex and fsck. */
public final class PackIndex {
    static final String PURPOSE = "pack-index";
    private static final byte[] MAGIC = "CFPI".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 1;
    /** A pack index larger than this is refused rather than read into memory. */
    private static final int MAX_INDEX_BYTES = 64 << 20;

    private PackIndex() {
    }

    static byte[] encode(List<ChunkLocation> chunks) {
        BinaryWriter w = new BinaryWriter(16 + chunks.size() * 42);
        w.raw(MAGIC).u8(VERSION).uvarint(chunks.size());
        for (ChunkLocation c : chunks) {
            w.raw(c.id().toBytes()).uvarint(c.offset()).uvarint(c.length());
        }
        return w.toByteArray();
    }

    /**
     * Reads and checks the index of pack {@code name} of {@code size} bytes.
     *
     * @throws ChunkIntegrityException if the index was altered or belongs to another pack or key
     * @throws MalformedRecordException if it does not parse or points outside the pack's data
     */
    public static List<ChunkLocation> read(BlobStore store, String name, long size, MasterKey key)
            throws IOException, ChunkIntegrityException, MalformedRecordException {
        if (size < 4) {
            throw new MalformedRecordException("pack too small");
        }
        int sealedLength = new BinaryReader(store.read(name, size - 4, 4)).u32();
        if (sealedLength < MasterKey.OVERHEAD || sealedLength > MAX_INDEX_BYTES || sealedLength > size - 4) {
            throw new MalformedRecordException("bad pack index length " + sealedLength);
        }
        long dataSize = size - 4 - sealedLength;
        byte[] plain = key.open(PURPOSE, name, store.read(name, dataSize, sealedLength));
        BinaryReader r = new BinaryReader(plain);
        r.expect(MAGIC);
        if (r.u8() != VERSION) {
            throw new MalformedRecordException("unknown pack index version");
        }
        int n = r.uvarintAtMost(r.remaining() / (ChunkId.LENGTH + 2));
        List<ChunkLocation> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ChunkId id = ChunkId.of(r.raw(ChunkId.LENGTH));
            long offset = r.uvarint();
            int length = r.uvarintAtMost(Integer.MAX_VALUE);
            if (length == 0 || offset + length > dataSize) {
                throw new MalformedRecordException("chunk outside pack data");
            }
            out.add(new ChunkLocation(id, name, offset, length));
        }
        r.finish();
        return out;
    }
}
