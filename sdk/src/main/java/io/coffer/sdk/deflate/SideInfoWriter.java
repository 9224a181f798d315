package io.coffer.sdk.deflate;

import java.io.IOException;
import java.io.OutputStream;

/** Writes side information records (docs/FORMAT.md, "Partially decoded gzip"), after a 4-byte magic and version. */
final class SideInfoWriter {
    static final byte[] MAGIC = {'c', 'p', 'd', 1};

    private final OutputStream out;
    private final byte[] buf = new byte[16 * 1024];
    private int pos;
    private long written;

    SideInfoWriter(OutputStream out) throws IOException {
        this.out = out;
        bytes(MAGIC, 0, MAGIC.length);
    }

    void write(SideRecord record) throws IOException {
        if (record instanceof SideRecord.MemberStart m) {
            u8(SideRecord.MEMBER_START);
            varint(m.header().length);
            bytes(m.header(), 0, m.header().length);
        } else if (record instanceof SideRecord.StoredBlock s) {
            u8(SideRecord.STORED_BLOCK);
            u8(s.last() ? 1 : 0);
            u8(s.paddingBitCount());
            u8(s.paddingBits());
            u8(s.length() & 0xFF);
            u8(s.length() >>> 8);
        } else if (record instanceof SideRecord.FixedBlock f) {
            u8(SideRecord.FIXED_BLOCK);
            u8(f.last() ? 1 : 0);
        } else if (record instanceof SideRecord.DynamicBlock d) {
            u8(SideRecord.DYNAMIC_BLOCK);
            u8(d.last() ? 1 : 0);
            varint(d.headerBitCount());
            bytes(d.headerBits(), 0, d.headerBits().length);
        } else if (record instanceof SideRecord.MemberEnd e) {
            u8(SideRecord.MEMBER_END);
            u8(e.paddingBitCount());
            u8(e.paddingBits());
            bytes(e.trailer(), 0, e.trailer().length);
        } else if (record instanceof SideRecord.TrailingBytes t) {
            u8(SideRecord.TRAILING_BYTES);
            varint(t.bytes().length);
            bytes(t.bytes(), 0, t.bytes().length);
        } else {
            u8(SideRecord.END);
        }
    }

    private void u8(int b) throws IOException {
        if (pos == buf.length) {
            drain();
        }
        buf[pos++] = (byte) b;
    }

    private void varint(long v) throws IOException {
        while (v >= 0x80) {
            u8((int) (v & 0x7F) | 0x80);
            v >>>= 7;
        }
        u8((int) v);
    }

    private void bytes(byte[] b, int off, int len) throws IOException {
        for (int i = 0; i < len; i++) {
            u8(b[off + i]);
        }
    }

    long bytesWritten() {
        return written + pos;
    }

    private void drain() throws IOException {
        out.write(buf, 0, pos);
        written += pos;
        pos = 0;
    }

    void flush() throws IOException {
        drain();
        out.flush();
    }
}
