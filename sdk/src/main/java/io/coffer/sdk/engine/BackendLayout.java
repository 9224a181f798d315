package io.coffer.sdk.engine;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Names of what Coffer writes to a backend (docs/FORMAT.md, "Backend layout"): random ids under a one-letter prefix
 * and a two-hex-digit shard, so names say what a blob is and nothing about its content or object key.
 */
public final class BackendLayout {
    public static final String PACKS = "p/";
    public static final String MANIFESTS = "m/";
    public static final String BUCKETS = "b/";
    private static final SecureRandom RANDOM = new SecureRandom();

    private BackendLayout() {
    }

    /** A new random 128-bit id in hex. */
    public static String newId() {
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    public static String pack(String id) {
        return PACKS + id.substring(0, 2) + "/" + id;
    }

    /** The manifest blob of an object version. */
    public static String manifest(String versionId) {
        return MANIFESTS + versionId.substring(0, 2) + "/" + versionId;
    }

    /** The id part of a pack or manifest blob name. */
    public static String idOf(String blobName) {
        return blobName.substring(blobName.lastIndexOf('/') + 1);
    }

    /** Every folder the names above use: the 256 pack shards, the 256 manifest shards and the bucket folder. */
    public static List<String> folders() {
        List<String> folders = new ArrayList<>(2 * 256 + 1);
        for (int shard = 0; shard < 256; shard++) {
            String hex = HexFormat.of().toHexDigits((byte) shard);
            folders.add(PACKS + hex + "/");
            folders.add(MANIFESTS + hex + "/");
        }
        folders.add(BUCKETS);
        return folders;
    }

    public static String bucket(String blindedName) {
        return BUCKETS + blindedName;
    }
}
