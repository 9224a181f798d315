package io.coffer.sdk.pack;

import io.coffer.sdk.codec.BinaryWriter;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.ChunkLocation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds one pack in memory: chunk ciphertexts back to back, then the sealed index and its length
 * (docs/FORMAT.md, "Packs"). The caller encrypts straight into {@link #buffer()} at the offset {@link #reserve} gives,
 * so a chunk is written once. The buffer grows on demand, so a pack of one small object stays small.
 */
public final class PackWriter {
    private final String name;
    private byte[] buf;
    private int size;
    private final List<ChunkLocation> chunks = new ArrayList<>();

    public PackWriter(String name, int initialCapacity) {
        this(name, new byte[Math.max(1024, initialCapacity)]);
    }

    /** A pack built in {@code buffer} (a previous pack's, once its upload finished: no new 8 MiB array per pack). */
    public PackWriter(String name, byte[] buffer) {
        this.name = name;
        this.buf = buffer;
    }

    public String name() {
        return name;
    }

    /** Data bytes written so far (without the index). */
    public int dataSize() {
        return size;
    }

    public boolean isEmpty() {
        return chunks.isEmpty();
    }

    /** Reserves {@code length} bytes for chunk {@code id} and returns their offset in {@link #buffer()}. */
    public int reserve(ChunkId id, int length) {
        ensure(size + length);
        int offset = size;
        size += length;
        chunks.add(new ChunkLocation(id, name, offset, length));
        return offset;
    }

    /**
     * Shortens the chunk reserved last to {@code length} bytes (a chunk whose room was reserved for its uncompressed
     * size and that was stored compressed) and records its plaintext length for the metadata store's statistics.
     */
    public void sealedLast(int length, int plainLength) {
        ChunkLocation last = chunks.get(chunks.size() - 1);
        if (length < 0 || length > last.length()) {
            throw new IllegalArgumentException("cannot shorten a chunk of " + last.length() + " bytes to " + length);
        }
        size -= last.length() - length;
        chunks.set(chunks.size() - 1, new ChunkLocation(last.id(), name, last.offset(), length, plainLength));
    }

    /** Appends ciphertext copied from elsewhere (pack rewrites move chunks without decrypting them). */
    public void append(ChunkId id, byte[] ciphertext) {
        int off = reserve(id, ciphertext.length);
        System.arraycopy(ciphertext, 0, buf, off, ciphertext.length);
    }

    /** The buffer to write reserved chunks into; valid until the next {@link #reserve}. */
    public byte[] buffer() {
        return buf;
    }

    public List<ChunkLocation> chunks() {
        return List.copyOf(chunks);
    }

    /**
     * Appends the sealed index and its length; returns the total blob size. The blob is {@code buffer()[0, size)}.
     */
    public int finish(MasterKey masterKey) {
        byte[] index = PackIndex.encode(chunks);
        byte[] sealed = masterKey.seal(PackIndex.PURPOSE, name, index);
        ensure(size + sealed.length + 4);
        System.arraycopy(sealed, 0, buf, size, sealed.length);
        size += sealed.length;
        byte[] len = new BinaryWriter(4).u32(sealed.length).toByteArray();
        System.arraycopy(len, 0, buf, size, 4);
        size += 4;
        return size;
    }

    private void ensure(int capacity) {
        if (capacity > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(capacity, (int) Math.min(Integer.MAX_VALUE - 16, buf.length * 2L)));
        }
    }
}
