package io.coffer.sdk.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Test helper: a ustar archive of generated text files, written by hand (header fields as POSIX lays them out). */
public final class TestTar {
    private TestTar() {
    }

    /** {@code files} text files of about {@code fileSize} bytes each (seeded by index), all with mtime {@code mtime}. */
    public static byte[] of(int files, int fileSize, long mtime) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < files; i++) {
            byte[] body = TestData.text(1000 + i, fileSize - (i * 37) % (fileSize / 2));
            out.writeBytes(header("pkg/dir" + i % 7 + "/file" + i + ".py", body.length, mtime, '0'));
            out.writeBytes(body);
            out.writeBytes(new byte[(512 - body.length % 512) % 512]);
        }
        out.writeBytes(new byte[1024]);
        return out.toByteArray();
    }

    /** One 512-byte ustar header. */
    public static byte[] header(String name, long size, long mtime, char type) {
        byte[] h = new byte[512];
        put(h, 0, name.getBytes(StandardCharsets.US_ASCII));
        put(h, 100, octal(0644, 8));
        put(h, 108, octal(1000, 8));
        put(h, 116, octal(1000, 8));
        put(h, 124, octal(size, 12));
        put(h, 136, octal(mtime, 12));
        for (int i = 148; i < 156; i++) {
            h[i] = ' ';
        }
        h[156] = (byte) type;
        put(h, 257, "ustar".getBytes(StandardCharsets.US_ASCII));
        put(h, 263, "00".getBytes(StandardCharsets.US_ASCII));
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        put(h, 148, octal(sum, 7));
        return h;
    }

    private static byte[] octal(long v, int width) {
        String s = String.format("%0" + (width - 1) + "o", v);
        byte[] b = new byte[width];
        put(b, 0, s.getBytes(StandardCharsets.US_ASCII));
        return b;
    }

    private static void put(byte[] dst, int at, byte[] src) {
        System.arraycopy(src, 0, dst, at, src.length);
    }
}
