package io.coffer.por.net;

import io.coffer.por.checksum.ChecksumSealer;
import java.util.ArrayList;
import java.util.List;

/**
 * The payloads of the client's paced part of C's rebuild (protocol version 5; docs/POR.md, "Protocol"): SNAPSHOT_U
 * (a range of U's sealed checksums of the epoch's end) and its answer, NEXT_SEALED_C (a range of the next C's sealed
 * checksums). PACES_PART and REBUILD_C_PACED carry nothing. Every range is checked against n before anything is
 * allocated, and every payload must end where its last field does; anything else is a {@link MalformedFrameException}.
 */
final class ClientPartCodec {
    /** A range [from, from + count) of positions of U or of a part of C. */
    record Range(int from, int count) {
    }

    /** The arguments of NEXT_SEALED_C. */
    record NextSealed(int from, byte[][] x, byte[][] y) {
    }

    private final int n;

    ClientPartCodec(ServerParameters params) {
        this.n = params.n();
    }

    /** SNAPSHOT_U: u32 from, u32 count. */
    byte[] range(int from, int count) {
        return new WireWriter(8).i32(from).i32(count).toBytes();
    }

    Range readRange(byte[] payload) {
        WireReader r = new WireReader(payload);
        Range range = range(r);
        r.end();
        return range;
    }

    /** The answer to SNAPSHOT_U: u32 count, then per position a flag and, when set, the sealed checksum. */
    byte[] snapshot(List<byte[]> sealed) {
        WireWriter w = new WireWriter(4 + sealed.size() * (1 + ChecksumSealer.SEALED_BYTES));
        w.i32(sealed.size());
        for (byte[] s : sealed) {
            w.flag(s != null);
            if (s != null) {
                w.bytes(fixed(s));
            }
        }
        return w.toBytes();
    }

    /** The answer to a SNAPSHOT_U of {@code count} positions: exactly that many. */
    List<byte[]> readSnapshot(byte[] payload, int count) {
        WireReader r = new WireReader(payload);
        r.bounded(count, count, "U's sealed checksums of the range asked for");
        r.expect(count, 1, "sealed checksums");
        List<byte[]> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(r.flag() ? r.bytes(ChecksumSealer.SEALED_BYTES) : null);
        }
        r.end();
        return out;
    }

    /** NEXT_SEALED_C: u32 from, u32 count, count sealed checksums of X, then count of Y. */
    byte[] nextSealed(int from, byte[][] x, byte[][] y) {
        if (x.length != y.length) {
            throw new IllegalArgumentException(x.length + " sealed checksums of X, " + y.length + " of Y");
        }
        WireWriter w = new WireWriter(8 + 2 * x.length * ChecksumSealer.SEALED_BYTES);
        w.i32(from).i32(x.length);
        for (byte[][] part : new byte[][][] {x, y}) {
            for (byte[] s : part) {
                w.bytes(fixed(s));
            }
        }
        return w.toBytes();
    }

    NextSealed readNextSealed(byte[] payload) {
        WireReader r = new WireReader(payload);
        Range range = range(r);
        r.expect(2L * range.count(), ChecksumSealer.SEALED_BYTES, "sealed checksums of the next C");
        byte[][][] parts = new byte[2][range.count()][];
        for (byte[][] part : parts) {
            for (int i = 0; i < part.length; i++) {
                part[i] = r.bytes(ChecksumSealer.SEALED_BYTES);
            }
        }
        r.end();
        return new NextSealed(range.from(), parts[0], parts[1]);
    }

    private Range range(WireReader r) {
        int from = r.bounded(0, n - 1, "the first position");
        int count = r.bounded(1, n - from, "positions");
        return new Range(from, count);
    }

    private static byte[] fixed(byte[] sealed) {
        if (sealed == null || sealed.length != ChecksumSealer.SEALED_BYTES) {
            throw new IllegalArgumentException("a sealed checksum is " + ChecksumSealer.SEALED_BYTES + " bytes");
        }
        return sealed;
    }
}
