package io.coffer.sdk.manifest;

import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.codec.BinaryReader;
import io.coffer.sdk.codec.BinaryWriter;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.crypto.ChunkCipher;
import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.similarity.SubChunkKeys;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The plaintext encoding of manifests and of stored object attributes (docs/FORMAT.md, "Manifest"). Sealing under the
 * master key happens around it, in the engine.
 */
public final class ManifestCodec {
    private static final byte[] MANIFEST_MAGIC = "CFMF".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ATTRIBUTES_MAGIC = "CFAT".getBytes(StandardCharsets.US_ASCII);
    /**
     * Version 1: a chunked manifest; version 2: an inline one, whose bytes follow the attributes; version 3: a chunked
     * one whose attributes also carry each part's checksum (a multipart object stored with checksums).
     */
    private static final int VERSION = 1;
    private static final int VERSION_INLINE = 2;
    private static final int VERSION_PART_CHECKSUMS = 3;
    /**
     * Version 4: a layer-mode object (a single PUT, or a multipart upload without part checksums); the number of
     * side-information entries follows the attributes. Version 5: the same for a multipart object with part
     * checksums, whose attributes are those of version 3.
     */
    private static final int VERSION_LAYER = 4;
    private static final int VERSION_LAYER_PART_CHECKSUMS = 5;
    /** Version 2 adds each part's checksum, as manifest version 3 does. */
    private static final int ATTRIBUTES_VERSION = 1;
    private static final int ATTRIBUTES_VERSION_PART_CHECKSUMS = 2;
    /**
     * Set in the version byte of a manifest or attributes record whose attributes end with the object's tag set (a
     * string map); records of untagged objects are as before, and a reader that does not know the flag refuses the
     * record as of an unknown version rather than dropping the tags.
     */
    private static final int TAGS_FLAG = 0x80;
    /**
     * Set in the version byte of a layer manifest whose entries may be derived: a table of cluster keys precedes the
     * entries, and a sub-chunk's entry is its cluster's index, its hash and its length, its key and id following from
     * them (98 bytes become about 35). Records without derived entries are as before.
     */
    private static final int DERIVED_FLAG = 0x40;
    /**
     * Set in a manifest's version byte when a version byte of its own follows the last-modified time: bit 0 set for a
     * version with its own id (written while its bucket's versioning was enabled), bit 1 for a delete marker. A
     * manifest without the flag is the null version, as every manifest before versioning was.
     */
    private static final int VERSIONING_FLAG = 0x20;
    private static final int VERSIONED = 1;
    private static final int DELETE_MARKER = 2;
    /** Far above any inline limit the builder accepts; only bounds what a damaged record can make us allocate. */
    private static final int MAX_INLINE = 16 << 20;
    private static final int ENTRY_SIZE = ChunkId.LENGTH + ChunkKey.LENGTH + 32 + 5;
    /** S3 allows 10,000 parts of up to 5 GiB; with chunks of at least 64 bytes this bounds a sane manifest. */
    private static final int MAX_ENTRIES = 1 << 26;

    private ManifestCodec() {
    }

    public static byte[] encode(Manifest m) {
        BinaryWriter w = new BinaryWriter(128 + m.entries().size() * ENTRY_SIZE
                + (m.isInline() ? m.inline().length : 0));
        boolean partChecksums = !m.partChecksums().isEmpty();
        int version = m.isLayer() ? (partChecksums ? VERSION_LAYER_PART_CHECKSUMS : VERSION_LAYER)
                : m.isInline() ? VERSION_INLINE : partChecksums ? VERSION_PART_CHECKSUMS : VERSION;
        boolean derived = m.isLayer() && m.entries().stream().anyMatch(e -> e.clusterKey() != null);
        boolean versioning = !m.nullVersion() || m.deleteMarker();
        w.raw(MANIFEST_MAGIC).u8(version | tagsFlag(m.attributes()) | (derived ? DERIVED_FLAG : 0)
                        | (versioning ? VERSIONING_FLAG : 0))
                .string(m.bucket()).string(m.key()).string(m.versionId())
                .uvarint(m.size()).string(m.etag()).u64(m.lastModified().toEpochMilli());
        if (versioning) {
            w.u8((m.nullVersion() ? 0 : VERSIONED) | (m.deleteMarker() ? DELETE_MARKER : 0));
        }
        writeAttributes(w, m.attributes(), m.partSizes(), m.partChecksums());
        if (m.isInline()) {
            w.uvarint(m.inline().length).raw(m.inline());
            return w.toByteArray();
        }
        if (m.isLayer()) {
            w.uvarint(m.layerSide());
        }
        if (derived) {
            writeDerivedEntries(w, m.entries());
            return w.toByteArray();
        }
        w.uvarint(m.entries().size());
        for (ManifestEntry e : m.entries()) {
            writeFullEntry(w, e);
        }
        return w.toByteArray();
    }

    public static Manifest decode(byte[] bytes) throws MalformedRecordException {
        BinaryReader r = new BinaryReader(bytes);
        r.expect(MANIFEST_MAGIC);
        int flagged = r.u8();
        boolean tagged = (flagged & TAGS_FLAG) != 0;
        boolean derived = (flagged & DERIVED_FLAG) != 0;
        boolean versioning = (flagged & VERSIONING_FLAG) != 0;
        int version = flagged & ~(TAGS_FLAG | DERIVED_FLAG | VERSIONING_FLAG);
        if (version < VERSION || version > VERSION_LAYER_PART_CHECKSUMS) {
            throw new MalformedRecordException("unknown manifest version");
        }
        String bucket = required(r.string());
        String key = required(r.string());
        String versionId = required(r.string());
        long size = r.uvarint();
        String etag = required(r.string());
        Instant modified = Instant.ofEpochMilli(r.u64());
        int versionBits = versioning ? r.u8() : 0;
        if ((versionBits & ~(VERSIONED | DELETE_MARKER)) != 0 || (versioning && versionBits == 0)) {
            throw new MalformedRecordException("unknown version bits " + versionBits);
        }
        boolean nullVersion = (versionBits & VERSIONED) == 0;
        boolean deleteMarker = (versionBits & DELETE_MARKER) != 0;
        boolean layer = version == VERSION_LAYER || version == VERSION_LAYER_PART_CHECKSUMS;
        if (derived && !layer) {
            throw new MalformedRecordException("derived entries outside a layer manifest");
        }
        Attributes a = readAttributes(r, version == VERSION_PART_CHECKSUMS || version == VERSION_LAYER_PART_CHECKSUMS,
                tagged);
        if (version == VERSION_INLINE) {
            byte[] inline = r.raw(r.uvarintAtMost(Math.min(MAX_INLINE, r.remaining())));
            r.finish();
            if (inline.length != size) {
                throw new MalformedRecordException("inline object of " + inline.length + " bytes, not " + size);
            }
            if (deleteMarker && size != 0) {
                throw new MalformedRecordException("a delete marker with content");
            }
            return new Manifest(bucket, key, versionId, size, etag, modified, a.attributes(), a.partSizes(),
                    List.of(), List.of(), inline, Manifest.ORDINARY, nullVersion, deleteMarker);
        }
        int layerSide = layer ? r.uvarintAtMost(MAX_ENTRIES) : Manifest.ORDINARY;
        List<ManifestEntry> entries = derived ? readDerivedEntries(r) : readFullEntries(r);
        r.finish();
        long total = 0;
        for (ManifestEntry e : entries) {
            total += e.length();
        }
        int n = entries.size();
        // a layer's chunks are its partially decoded form, whose length is not the object's
        if (!layer && total != size) {
            throw new MalformedRecordException("chunk lengths add up to " + total + ", not " + size);
        }
        if (layer && layerSide > n) {
            throw new MalformedRecordException("layer manifest with " + layerSide + " side entries of " + n);
        }
        if (deleteMarker) {
            throw new MalformedRecordException("a delete marker with chunks");
        }
        return new Manifest(bucket, key, versionId, size, etag, modified, a.attributes(), a.partSizes(),
                a.partChecksums(), entries, null, layerSide, nullVersion, false);
    }

    private static void writeFullEntry(BinaryWriter w, ManifestEntry e) {
        w.raw(e.id().toBytes()).raw(e.key().rawBytesForCipher()).raw(e.hash()).uvarint(e.length());
    }

    /**
     * {@code uvarint clusterCount | clusterCount x clusterKey(32) | uvarint entryCount | entries}, an entry {@code
     * uvarint 0} and a full entry, or {@code uvarint c} (1 + its cluster's index), its hash and its length. Each
     * derived entry is checked against its key and id, so a wrong cluster key fails here and not at the next read.
     */
    private static void writeDerivedEntries(BinaryWriter w, List<ManifestEntry> entries) {
        Map<ChunkKey, Integer> index = new LinkedHashMap<>();
        for (ManifestEntry e : entries) {
            if (e.clusterKey() != null) {
                index.putIfAbsent(e.clusterKey(), index.size());
            }
        }
        w.uvarint(index.size());
        for (ChunkKey k : index.keySet()) {
            w.raw(k.rawBytesForCipher());
        }
        w.uvarint(entries.size());
        Map<ChunkKey, SubChunkKeys> derivers = new HashMap<>();
        for (ManifestEntry e : entries) {
            if (e.clusterKey() == null) {
                w.uvarint(0);
                writeFullEntry(w, e);
                continue;
            }
            ChunkKey k = derivers.computeIfAbsent(e.clusterKey(), SubChunkKeys::new).keyFor(e.hash());
            if (!k.equals(e.key()) || !ChunkCipher.idOf(k).equals(e.id())) {
                throw new IllegalArgumentException("entry " + e + " does not derive from its cluster key");
            }
            w.uvarint(index.get(e.clusterKey()) + 1L).raw(e.hash()).uvarint(e.length());
        }
    }

    private static List<ManifestEntry> readFullEntries(BinaryReader r) throws MalformedRecordException {
        int n = r.uvarintAtMost(Math.min(MAX_ENTRIES, r.remaining() / (ChunkId.LENGTH + ChunkKey.LENGTH + 33)));
        List<ManifestEntry> entries = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            entries.add(readFullEntry(r));
        }
        return entries;
    }

    private static ManifestEntry readFullEntry(BinaryReader r) throws MalformedRecordException {
        ChunkId id = ChunkId.of(r.raw(ChunkId.LENGTH));
        ChunkKey k = ChunkKey.of(r.raw(ChunkKey.LENGTH));
        byte[] hash = r.raw(32);
        return new ManifestEntry(id, k, hash, length(r));
    }

    private static int length(BinaryReader r) throws MalformedRecordException {
        int len = r.uvarintAtMost(Integer.MAX_VALUE);
        if (len == 0) {
            throw new MalformedRecordException("empty chunk");
        }
        return len;
    }

    private static List<ManifestEntry> readDerivedEntries(BinaryReader r) throws MalformedRecordException {
        int clusters = r.uvarintAtMost(Math.min(MAX_ENTRIES, r.remaining() / ChunkKey.LENGTH));
        List<SubChunkKeys> keys = new ArrayList<>(clusters);
        for (int i = 0; i < clusters; i++) {
            keys.add(new SubChunkKeys(ChunkKey.of(r.raw(ChunkKey.LENGTH))));
        }
        int n = r.uvarintAtMost(Math.min(MAX_ENTRIES, r.remaining() / 34));
        List<ManifestEntry> entries = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int c = r.uvarintAtMost(clusters);
            if (c == 0) {
                entries.add(readFullEntry(r));
                continue;
            }
            SubChunkKeys cluster = keys.get(c - 1);
            byte[] hash = r.raw(32);
            ChunkKey k = cluster.keyFor(hash);
            entries.add(new ManifestEntry(ChunkCipher.idOf(k), k, hash, length(r), cluster.clusterKey()));
        }
        return entries;
    }

    /**
     * Object attributes, part sizes and part checksums, as kept in the metadata store's row for HEAD and listings.
     *
     * @param partChecksums each part's checksum in the algorithm of the object's checksum, or empty
     */
    public record Attributes(ObjectAttributes attributes, List<Long> partSizes, List<String> partChecksums) {
        public Attributes {
            partSizes = List.copyOf(partSizes);
            partChecksums = List.copyOf(partChecksums);
        }
    }

    public static byte[] encodeAttributes(ObjectAttributes a, List<Long> partSizes) {
        return encodeAttributes(a, partSizes, List.of());
    }

    /** The metadata row's attributes of the object a manifest describes. */
    public static byte[] encodeAttributes(Manifest m) {
        return encodeAttributes(m.attributes(), m.partSizes(), m.partChecksums());
    }

    /** A metadata row's attributes: {@code a} with an object's part sizes and part checksums (none: empty). */
    public static byte[] encodeAttributes(ObjectAttributes a, List<Long> partSizes, List<String> partChecksums) {
        BinaryWriter w = new BinaryWriter(64);
        w.raw(ATTRIBUTES_MAGIC).u8((partChecksums.isEmpty() ? ATTRIBUTES_VERSION : ATTRIBUTES_VERSION_PART_CHECKSUMS)
                | tagsFlag(a));
        writeAttributes(w, a, partSizes, partChecksums);
        return w.toByteArray();
    }

    public static Attributes decodeAttributes(byte[] bytes) throws MalformedRecordException {
        BinaryReader r = new BinaryReader(bytes);
        r.expect(ATTRIBUTES_MAGIC);
        int flagged = r.u8();
        int version = flagged & ~TAGS_FLAG;
        if (version != ATTRIBUTES_VERSION && version != ATTRIBUTES_VERSION_PART_CHECKSUMS) {
            throw new MalformedRecordException("unknown attributes version");
        }
        Attributes a = readAttributes(r, version == ATTRIBUTES_VERSION_PART_CHECKSUMS, (flagged & TAGS_FLAG) != 0);
        r.finish();
        return a;
    }

    private static void writeAttributes(BinaryWriter w, ObjectAttributes a, List<Long> partSizes,
                                        List<String> partChecksums) {
        if (!partChecksums.isEmpty() && partChecksums.size() != partSizes.size()) {
            throw new IllegalArgumentException("one checksum per part, or none");
        }
        w.string(a.contentType()).stringMap(a.userMetadata()).stringMap(a.headers()).stringMap(a.checksums());
        w.uvarint(partSizes.size());
        for (long s : partSizes) {
            w.uvarint(s);
        }
        for (String c : partChecksums) {
            w.string(c);
        }
        if (!a.tags().isEmpty()) {
            w.stringMap(a.tags());
        }
    }

    private static int tagsFlag(ObjectAttributes a) {
        return a.tags().isEmpty() ? 0 : TAGS_FLAG;
    }

    private static Attributes readAttributes(BinaryReader r, boolean withPartChecksums, boolean tagged)
            throws MalformedRecordException {
        String contentType = r.string();
        ObjectAttributes a = new ObjectAttributes(contentType, r.stringMap(), r.stringMap(), r.stringMap());
        int parts = r.uvarintAtMost(10_000);
        List<Long> sizes = new ArrayList<>(parts);
        for (int i = 0; i < parts; i++) {
            sizes.add(r.uvarint());
        }
        List<String> checksums = new ArrayList<>(withPartChecksums ? parts : 0);
        if (withPartChecksums) {
            if (parts == 0) {
                throw new MalformedRecordException("part checksums without parts");
            }
            for (int i = 0; i < parts; i++) {
                checksums.add(required(r.string()));
            }
        }
        if (tagged) {
            Map<String, String> tags = r.stringMap();
            if (tags.isEmpty()) {
                throw new MalformedRecordException("tags flag without tags");
            }
            a = a.withTags(tags);
        }
        return new Attributes(a, sizes, checksums);
    }

    private static String required(String s) throws MalformedRecordException {
        if (s == null) {
            throw new MalformedRecordException("missing field");
        }
        return s;
    }
}
