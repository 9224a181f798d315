package io.coffer.por.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * U's blocks in one file, {@code u.blocks}: block i at i * blockBytes, read and written with positional I/O. Not
 * thread-safe (its server serialises every call).
 */
final class FileUBlocks implements UBlocks {
    private final FileChannel channel;
    /** The smallest direct buffer {@link #readRun} keeps: a 1 MiB read-ahead range. */
    private static final int RUN_BYTES = 1 << 20;
    private final int blockBytes;
    private boolean dirty;
    private ByteBuffer run;

    FileUBlocks(Path file, int blockBytes) throws IOException {
        this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        this.blockBytes = blockBytes;
    }

    @Override
    public byte[] read(int index) {
        return readRun(index, 1)[0];
    }

    /**
     * One positional read for the whole run, through a direct buffer kept for the next run (the JDK would copy a heap
     * buffer's read through a temporary direct one anyway), then one copy out per block.
     */
    @Override
    public byte[][] readRun(int first, int count) {
        int bytes = Math.multiplyExact(count, blockBytes);
        if (run == null || run.capacity() < bytes) {
            run = ByteBuffer.allocateDirect(Math.max(bytes, RUN_BYTES));
        }
        ByteBuffer b = run.clear().limit(bytes);
        long position = (long) first * blockBytes;
        try {
            while (b.hasRemaining()) {
                if (channel.read(b, position + b.position()) < 0) {
                    break; // past the end: zeros
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot read u.blocks", e);
        }
        byte[][] out = new byte[count][blockBytes];
        b.flip();
        for (byte[] block : out) {
            b.get(block, 0, Math.min(blockBytes, b.remaining())); // a short read leaves the rest zero
        }
        return out;
    }

    /** Always: a file has no holes to lose (damage inside it is found by the block's checksum). */
    @Override
    public boolean present(int index) {
        return true;
    }

    @Override
    public void write(int index, byte[] block) {
        ByteBuffer b = ByteBuffer.wrap(block);
        long position = (long) index * blockBytes;
        try {
            while (b.hasRemaining()) {
                channel.write(b, position + b.position());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot write u.blocks", e);
        }
        dirty = true;
    }

    @Override
    public void force() throws IOException {
        if (dirty) {
            channel.force(false);
            dirty = false;
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
