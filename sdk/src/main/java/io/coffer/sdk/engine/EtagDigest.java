package io.coffer.sdk.engine;

import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

/**
 * The S3 ETag of bytes fed in order: their MD5, or for an object of parts (their sizes given) the MD5 of the parts'
 * MD5s followed by {@code -<part count>}. fsck compares it with the ETag an object was stored with.
 */
final class EtagDigest {
    private final List<Long> partSizes;
    private final MessageDigest md5 = Md5Tap.newMd5();
    private final MessageDigest md5OfParts = Md5Tap.newMd5();
    private int part;
    private long partLeft;
    private long total;

    /** {@code partSizes}: empty for an object put in one request. */
    EtagDigest(List<Long> partSizes) {
        this.partSizes = partSizes;
        this.partLeft = partSizes.isEmpty() ? Long.MAX_VALUE : partSizes.get(0);
    }

    void update(byte[] buf, int off, int len) {
        total += len;
        for (int at = off; at < off + len; ) {
            int take = (int) Math.min(off + len - at, partLeft);
            md5.update(buf, at, take);
            at += take;
            partLeft -= take;
            if (partLeft == 0 && part < partSizes.size()) {
                md5OfParts.update(md5.digest());
                part++;
                partLeft = part < partSizes.size() ? partSizes.get(part) : Long.MAX_VALUE;
            }
        }
    }

    /** How many bytes were fed. */
    long total() {
        return total;
    }

    /** The ETag of what was fed (unquoted); call once, at the end. */
    String etag() {
        return partSizes.isEmpty() ? HexFormat.of().formatHex(md5.digest())
                : HexFormat.of().formatHex(md5OfParts.digest()) + "-" + part;
    }
}
