package io.coffer.sdk.codec;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads what {@link BinaryWriter} wrote, strictly: every length is checked against what remains, strings must be
 * valid UTF-8, and a record with bytes left over is malformed. Errors are {@link MalformedRecordException}.
 */
public final class BinaryReader {
    private final byte[] buf;
    private int pos;
    private final int end;

    public BinaryReader(byte[] buf) {
        this(buf, 0, buf.length);
    }

    public BinaryReader(byte[] buf, int offset, int length) {
        this.buf = buf;
        this.pos = offset;
        this.end = offset + length;
    }

    public long uvarint() throws MalformedRecordException {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = u8();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                if (v < 0) {
                    throw new MalformedRecordException("varint out of range");
                }
                return v;
            }
        }
        throw new MalformedRecordException("varint too long");
    }

    /** A varint that must fit in {@code [0, max]}. */
    public int uvarintAtMost(int max) throws MalformedRecordException {
        long v = uvarint();
        if (v > max) {
            throw new MalformedRecordException("value " + v + " exceeds " + max);
        }
        return (int) v;
    }

    public int u8() throws MalformedRecordException {
        need(1);
        return buf[pos++] & 0xFF;
    }

    public int u32() throws MalformedRecordException {
        need(4);
        int v = (buf[pos] & 0xFF) << 24 | (buf[pos + 1] & 0xFF) << 16 | (buf[pos + 2] & 0xFF) << 8 | (buf[pos + 3] & 0xFF);
        pos += 4;
        return v;
    }

    public long u64() throws MalformedRecordException {
        long hi = u32() & 0xFFFFFFFFL;
        return hi << 32 | (u32() & 0xFFFFFFFFL);
    }

    public byte[] raw(int n) throws MalformedRecordException {
        need(n);
        byte[] b = Arrays.copyOfRange(buf, pos, pos + n);
        pos += n;
        return b;
    }

    public byte[] bytes() throws MalformedRecordException {
        return raw(uvarintAtMost(end - pos));
    }

    public String string() throws MalformedRecordException {
        int present = u8();
        if (present == 0) {
            return null;
        }
        if (present != 1) {
            throw new MalformedRecordException("bad string flag");
        }
        byte[] b = bytes();
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString();
        } catch (CharacterCodingException e) {
            throw new MalformedRecordException("invalid UTF-8");
        }
    }

    public Map<String, String> stringMap() throws MalformedRecordException {
        int n = uvarintAtMost(end - pos);
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String k = string();
            String v = string();
            if (k == null || v == null) {
                throw new MalformedRecordException("null map entry");
            }
            m.put(k, v);
        }
        return m;
    }

    /** Checks a magic value at the current position. */
    public void expect(byte[] magic) throws MalformedRecordException {
        if (!Arrays.equals(raw(magic.length), magic)) {
            throw new MalformedRecordException("bad magic");
        }
    }

    public int remaining() {
        return end - pos;
    }

    /** Fails unless every byte was consumed. */
    public void finish() throws MalformedRecordException {
        if (pos != end) {
            throw new MalformedRecordException((end - pos) + " trailing bytes");
        }
    }

    private void need(int n) throws MalformedRecordException {
        if (n < 0 || end - pos < n) {
            throw new MalformedRecordException("truncated record");
        }
    }
}
