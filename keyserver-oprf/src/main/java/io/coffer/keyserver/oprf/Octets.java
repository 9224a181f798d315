package io.coffer.keyserver.oprf;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** Octet-string primitives shared by the OPRF suites (I2OSP, OS2IP, hashing, concatenation). */
final class Octets {
    private Octets() {}

    static byte[] i2osp(long value, int length) {
        byte[] out = new byte[length];
        for (int i = length - 1; i >= 0; i--) {
            out[i] = (byte) value;
            value >>>= 8;
        }
        if (value != 0) {
            throw new IllegalArgumentException("integer too large for " + length + " octets");
        }
        return out;
    }

    /** Big-endian, fixed length, unsigned encoding of a non-negative integer smaller than 256^length. */
    static byte[] i2osp(BigInteger value, int length) {
        byte[] raw = value.toByteArray();
        if (raw.length == length) {
            return raw;
        }
        if (raw.length == length + 1 && raw[0] == 0) {
            byte[] out = new byte[length];
            System.arraycopy(raw, 1, out, 0, length);
            return out;
        }
        if (raw.length > length) {
            throw new IllegalArgumentException("integer too large for " + length + " octets");
        }
        byte[] out = new byte[length];
        System.arraycopy(raw, 0, out, length - raw.length, raw.length);
        return out;
    }

    static BigInteger os2ip(byte[] bytes) {
        return new BigInteger(1, bytes);
    }

    static BigInteger os2ip(byte[] bytes, int offset, int length) {
        byte[] part = new byte[length];
        System.arraycopy(bytes, offset, part, 0, length);
        return new BigInteger(1, part);
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** I2OSP(len(x), 2) || x, the length-prefixed framing RFC 9497 uses in its transcripts. */
    static byte[] lengthPrefixed(byte[] x) {
        return concat(i2osp(x.length, 2), x);
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    static byte[] sha256(byte[]... parts) {
        MessageDigest md = sha256();
        for (byte[] p : parts) {
            md.update(p);
        }
        return md.digest();
    }
}
