package io.coffer.sdk.engine;

import io.coffer.sdk.codec.BinaryReader;
import io.coffer.sdk.codec.BinaryWriter;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.crypto.ChunkIntegrityException;
import io.coffer.sdk.crypto.MasterKey;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The backend's key check ({@code k/check}, docs/FORMAT.md "Key check"): which master key the store is sealed under
 * now, which key it was created with (the root of its names and derived secrets), when, and which earlier keys are
 * wrapped under the current one ({@code k/previous/<current>/<earlier>}).
 */
record KeyCheckRecord(String keyId, String rootKeyId, Instant created, List<String> previousKeyIds) {
    static final String BLOB = "k/check";
    static final String PURPOSE = "key-check";
    private static final String PREVIOUS = "k/previous/";
    private static final byte[] MAGIC = "CFKC".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 1;
    /** Far more keys than any store rotates through; bounds what a damaged record can make us read. */
    private static final int MAX_PREVIOUS = 1024;

    KeyCheckRecord {
        previousKeyIds = List.copyOf(previousKeyIds);
    }

    /** Where {@code wrapping} keeps earlier key {@code keyId}. */
    static String previousBlob(String wrappingKeyId, String keyId) {
        return PREVIOUS + wrappingKeyId + "/" + keyId;
    }

    /** The folder of the earlier keys wrapped under {@code wrappingKeyId}. */
    static String previousFolder(String wrappingKeyId) {
        return PREVIOUS + wrappingKeyId + "/";
    }

    /** This record sealed under {@code key}, whose id it must name. */
    byte[] seal(MasterKey key) {
        if (!key.keyIdHex().equals(keyId)) {
            throw new IllegalArgumentException("key check names key " + keyId + ", sealed under " + key.keyIdHex());
        }
        BinaryWriter w = new BinaryWriter(64).raw(MAGIC).u8(VERSION).string(keyId).string(rootKeyId)
                .u64(created.toEpochMilli()).uvarint(previousKeyIds.size());
        for (String id : previousKeyIds) {
            w.string(id);
        }
        return key.seal(PURPOSE, BLOB, w.toByteArray());
    }

    /** Opens the sealed check with {@code key}; fails if the key is not the one that sealed it or it was altered. */
    static KeyCheckRecord open(MasterKey key, byte[] sealed) throws ChunkIntegrityException, MalformedRecordException {
        BinaryReader r = new BinaryReader(key.open(PURPOSE, BLOB, sealed));
        r.expect(MAGIC);
        if (r.u8() != VERSION) {
            throw new MalformedRecordException("unknown key check version");
        }
        String keyId = r.string();
        String rootKeyId = r.string();
        Instant created = Instant.ofEpochMilli(r.u64());
        int n = r.uvarintAtMost(MAX_PREVIOUS);
        List<String> previous = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            previous.add(r.string());
        }
        r.finish();
        if (keyId == null || rootKeyId == null || !keyId.equals(MasterKey.sealedKeyIdHex(sealed))) {
            throw new MalformedRecordException("key check names another key than the one that sealed it");
        }
        return new KeyCheckRecord(keyId, rootKeyId, created, previous);
    }
}
