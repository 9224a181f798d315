package io.coffer.sdk.engine;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * Names of what Coffer writes to a backend (docs/FORMAT.md, "Backend layout"): random ids under a one-letter prefix
 * and a two-hex-digit shard, so names say what a blob is and nothing about its content or object key.
 */
public final class BackendLayout {
    public static final String PACKS = "p/";
    public static final String MANIFESTS = "m/";
    public static final String BUCKETS = "b/";
    /** Manifest groups: the sealed manifests of several small objects written as one blob. */
    public static final String GROUPS = "g/";
    /** Tombstones: a grouped manifest's version that was deleted or replaced. */
    public static final String TOMBSTONES = "t/";
    /** Object Lock records: a version's retention and legal hold, sealed (docs/FORMAT.md, "Object lock records"). */
    public static final String LOCKS = "l/";
    /**
     * Version attribute records: a version's tags and ACL as changed after it was written, sealed (docs/FORMAT.md,
     * "Version attribute records").
     */
    public static final String ATTRIBUTES = "a/";
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

    /** A manifest group: {@code id} is 32 hex digits, like a pack's. */
    public static String group(String id) {
        return GROUPS + id.substring(0, 2) + "/" + id;
    }

    /** The version id of the {@code index}-th manifest of group {@code groupId}. */
    public static String groupMember(String groupId, int index) {
        return groupId + "." + index;
    }

    /** Whether a version's manifest lives in a group (its id is {@code <groupId>.<index>}), not in a blob of its own. */
    public static boolean isGrouped(String versionId) {
        return versionId.indexOf('.') >= 0;
    }

    /** The group a grouped version's manifest lives in. */
    public static String groupOf(String versionId) {
        return versionId.substring(0, versionId.indexOf('.'));
    }

    /** The groups that hold at least one of these versions' manifests (their group ids). */
    public static Set<String> groupsOf(Collection<String> versionIds) {
        Set<String> groups = new HashSet<>();
        for (String v : versionIds) {
            if (isGrouped(v)) {
                groups.add(groupOf(v));
            }
        }
        return groups;
    }

    /** A grouped version's position in its group, or -1 if its id has no valid one. */
    public static int memberIndex(String versionId) {
        try {
            return Integer.parseInt(versionId.substring(versionId.indexOf('.') + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The tombstone of a grouped version. */
    public static String tombstone(String versionId) {
        return TOMBSTONES + versionId.substring(0, 2) + "/" + versionId;
    }

    /** The Object Lock record of a version (grouped or not). */
    public static String lock(String versionId) {
        return LOCKS + versionId.substring(0, 2) + "/" + versionId;
    }

    /** The attribute record (tags, ACL) of a version (grouped or not). */
    public static String attributes(String versionId) {
        return ATTRIBUTES + versionId.substring(0, 2) + "/" + versionId;
    }

    /** The id part of a pack or manifest blob name. */
    public static String idOf(String blobName) {
        return blobName.substring(blobName.lastIndexOf('/') + 1);
    }

    /**
     * Every folder the names above use: the 256 shards of packs, manifests, groups and tombstones, and buckets. Lock
     * records' and attribute records' shards are not created ahead: few stores use them, and each write creates the
     * folder it needs.
     */
    public static List<String> folders() {
        List<String> folders = new ArrayList<>(4 * 256 + 1);
        for (int shard = 0; shard < 256; shard++) {
            String hex = HexFormat.of().toHexDigits((byte) shard);
            folders.add(PACKS + hex + "/");
            folders.add(MANIFESTS + hex + "/");
            folders.add(GROUPS + hex + "/");
            folders.add(TOMBSTONES + hex + "/");
        }
        folders.add(BUCKETS);
        return folders;
    }

    public static String bucket(String blindedName) {
        return BUCKETS + blindedName;
    }
}
