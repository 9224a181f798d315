package io.coffer.sdk.engine;

import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobListing;
import io.coffer.sdk.blob.BlobNotFoundException;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.crypto.ChunkIntegrityException;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.MetadataStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's key check (docs/FORMAT.md, "Key check"; docs/SECURITY.md, "Master key"): a gateway whose master key
 * is not the store's refuses to open it rather than write data the other gateways cannot read, and a new store is
 * made only where asked. Also key rotation: the new key wraps the earlier ones, so data sealed before stays readable.
 * Errors name key ids, never keys.
 */
public final class KeyCheck {
    private static final Logger LOG = LoggerFactory.getLogger(KeyCheck.class);
    /** Sealed records a pre-check store is verified against, in this order (small, and present in any used store). */
    private static final List<String> PROBED = List.of(BackendLayout.BUCKETS, BackendLayout.MANIFESTS,
            BackendLayout.TOMBSTONES);
    private static final int MAX_PROBED_BYTES = 16 << 20;

    private KeyCheck() {
    }

    /** Whether the backend holds no blob at all and the metadata store no record: a new store may be made there. */
    public static boolean isEmptyStore(BlobStore blobs, MetadataStore meta) throws IOException {
        return meta.isEmpty() && first(blobs, "").isEmpty();
    }

    /**
     * Checks {@code given} against the store and returns the key to run with ({@code given}, with the earlier keys
     * it wraps). A store without a key check gets one, sealed under {@code given}, if it is empty, if {@code init},
     * or if it was made before key checks and a sealed record of it opens with {@code given}; with {@code writable}
     * false (a read-only backend) the check is verified but never written.
     *
     * @throws IllegalStateException if the key is not the store's, or the store cannot be checked and init is false
     */
    public static MasterKey open(BlobStore blobs, MetadataStore meta, MasterKey given, boolean init, boolean writable)
            throws IOException {
        Optional<byte[]> sealed = read(blobs, KeyCheckRecord.BLOB);
        if (sealed.isPresent()) {
            return openChecked(blobs, given, sealed.get());
        }
        if (!isEmptyStore(blobs, meta) && !opensPreCheckStore(blobs, given) && !init) {
            throw new IllegalStateException("the backend (" + blobs.describe() + ") or the metadata store is not"
                    + " empty, but holds no key check and no sealed record that master key " + given.keyIdHex()
                    + " could be checked against; give the key of the store that is there, or use --init to make a"
                    + " new store in its place");
        }
        if (writable) {
            KeyCheckRecord check = new KeyCheckRecord(given.keyIdHex(), given.keyIdHex(),
                    Instant.now().truncatedTo(ChronoUnit.MILLIS), List.of());
            blobs.put(KeyCheckRecord.BLOB, BlobContent.of(check.seal(given)));
            // two gateways that made a store at once with different keys: the one whose check did not stay refuses
            openChecked(blobs, given, read(blobs, KeyCheckRecord.BLOB).orElseThrow(
                    () -> new IOException("the key check just written is missing from " + blobs.describe())));
            LOG.info("wrote the key check for master key {} to {}", given.keyIdHex(), blobs.describe());
        }
        return given;
    }

    /**
     * Makes {@code next} the store's master key: it wraps {@code current} and every key {@code current} wraps, then
     * the key check is rewritten under it, then the wrappings under {@code current} are deleted. A crash in between
     * leaves the store openable with {@code current} (before the check is rewritten) or with {@code next} (after).
     * Returns {@code next} with its keyring.
     */
    public static MasterKey rotate(BlobStore blobs, MasterKey current, MasterKey next) throws IOException {
        KeyCheckRecord old = openRecord(blobs, current, read(blobs, KeyCheckRecord.BLOB).orElseThrow(
                () -> new IllegalStateException("the store has no key check to rotate; open it once first")));
        if (next.keyIdHex().equals(current.keyIdHex())) {
            throw new IllegalArgumentException("the new master key is the current one (" + next.keyIdHex() + ")");
        }
        List<MasterKey> earlier = new ArrayList<>(current.previousKeys());
        earlier.add(current);
        if (earlier.stream().anyMatch(k -> k.keyIdHex().equals(next.keyIdHex()))) {
            throw new IllegalArgumentException("the new master key " + next.keyIdHex() + " was used by this store"
                    + " before; make a new one");
        }
        List<String> ids = new ArrayList<>();
        MasterKey root = null;
        for (MasterKey k : earlier) {
            String name = KeyCheckRecord.previousBlob(next.keyIdHex(), k.keyIdHex());
            blobs.put(name, BlobContent.of(next.wrap(name, k)));
            ids.add(k.keyIdHex());
            if (k.keyIdHex().equals(old.rootKeyId())) {
                root = k;
            }
        }
        KeyCheckRecord check = new KeyCheckRecord(next.keyIdHex(), old.rootKeyId(), old.created(), ids);
        blobs.put(KeyCheckRecord.BLOB, BlobContent.of(check.seal(next)));
        for (String id : old.previousKeyIds()) {
            deleteQuietly(blobs, KeyCheckRecord.previousBlob(current.keyIdHex(), id));
        }
        LOG.info("rotated the master key of {} from {} to {}", blobs.describe(), current.keyIdHex(), next.keyIdHex());
        return next.withKeyring(root, earlier);
    }

    private static MasterKey openChecked(BlobStore blobs, MasterKey given, byte[] sealed) throws IOException {
        KeyCheckRecord check = openRecord(blobs, given, sealed);
        List<MasterKey> earlier = new ArrayList<>();
        MasterKey root = check.rootKeyId().equals(given.keyIdHex()) ? given : null;
        for (String id : check.previousKeyIds()) {
            String name = KeyCheckRecord.previousBlob(check.keyId(), id);
            byte[] wrapped = read(blobs, name).orElseThrow(() -> new IllegalStateException("the store's earlier"
                    + " master key " + id + " (" + name + ") is missing from " + blobs.describe()
                    + ": data sealed under it cannot be read"));
            MasterKey k;
            try {
                k = given.unwrap(name, wrapped);
            } catch (ChunkIntegrityException e) {
                throw new IllegalStateException("the store's earlier master key " + id + " (" + name + ") failed its"
                        + " integrity check", e);
            }
            if (!k.keyIdHex().equals(id)) {
                throw new IllegalStateException(name + " holds key " + k.keyIdHex() + ", not " + id);
            }
            earlier.add(k);
            if (id.equals(check.rootKeyId())) {
                root = k;
            }
        }
        if (root == null) {
            throw new IllegalStateException("the key check names root key " + check.rootKeyId()
                    + ", which is neither the master key nor one it wraps");
        }
        return given.withKeyring(root, earlier);
    }

    private static KeyCheckRecord openRecord(BlobStore blobs, MasterKey given, byte[] sealed) {
        String expected = MasterKey.sealedKeyIdHex(sealed);
        if (expected != null && !expected.equals(given.keyIdHex())) {
            throw new IllegalStateException(mismatch(blobs, given, expected));
        }
        try {
            return KeyCheckRecord.open(given, sealed);
        } catch (ChunkIntegrityException | MalformedRecordException e) {
            throw new IllegalStateException("the key check " + KeyCheckRecord.BLOB + " on " + blobs.describe()
                    + " failed its integrity check with master key " + given.keyIdHex() + " (" + e.getMessage()
                    + "): it was altered or damaged", e);
        }
    }

    private static String mismatch(BlobStore blobs, MasterKey given, String expected) {
        return "master key " + given.keyIdHex() + " is not the key of the store on " + blobs.describe()
                + ", which expects master key " + expected + ": give every gateway of a store the same key file"
                + " (--master-key FILE)";
    }

    /**
     * A store made before key checks: the first sealed record found must open with {@code given}. True if one did,
     * false if there is none to try.
     */
    private static boolean opensPreCheckStore(BlobStore blobs, MasterKey given) throws IOException {
        for (String prefix : PROBED) {
            Optional<BlobInfo> blob = first(blobs, prefix);
            if (blob.isEmpty() || blob.get().size() > MAX_PROBED_BYTES) {
                continue;
            }
            String name = blob.get().name();
            byte[] sealed = blobs.read(name, 0, (int) blob.get().size());
            String sealedBy = MasterKey.sealedKeyIdHex(sealed);
            if (sealedBy != null && !sealedBy.equals(given.keyIdHex())) {
                throw new IllegalStateException(mismatch(blobs, given, sealedBy) + " (read from " + name + ")");
            }
            try {
                switch (prefix) {
                    case BackendLayout.BUCKETS -> StoredRecords.openBucket(given, name, sealed);
                    case BackendLayout.MANIFESTS -> StoredRecords.openManifest(given, name, sealed);
                    default -> StoredRecords.openTombstone(given, name, sealed);
                }
            } catch (ChunkIntegrityException | MalformedRecordException e) {
                throw new IllegalStateException("master key " + given.keyIdHex() + " does not open " + name + " on "
                        + blobs.describe() + " (" + e.getMessage() + "): not this store's key, or the record is"
                        + " damaged", e);
            }
            LOG.info("store made before key checks: master key {} opens {}", given.keyIdHex(), name);
            return true;
        }
        return false;
    }

    private static Optional<BlobInfo> first(BlobStore blobs, String prefix) throws IOException {
        try (BlobListing listing = blobs.list(prefix)) {
            Iterator<BlobInfo> it = listing.iterator();
            return it.hasNext() ? Optional.of(it.next()) : Optional.empty();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static Optional<byte[]> read(BlobStore blobs, String name) throws IOException {
        Optional<BlobInfo> info = blobs.head(name);
        if (info.isEmpty()) {
            return Optional.empty();
        }
        if (info.get().size() > MAX_PROBED_BYTES) {
            throw new IOException(name + " on " + blobs.describe() + " is " + info.get().size()
                    + " bytes, far more than a key record");
        }
        try {
            return Optional.of(blobs.read(name, 0, (int) info.get().size()));
        } catch (BlobNotFoundException e) {
            return Optional.empty();
        }
    }

    private static void deleteQuietly(BlobStore blobs, String name) {
        try {
            blobs.delete(name);
        } catch (IOException e) {
            LOG.warn("could not delete {} (a key wrapped under the previous master key): {}", name, e.toString());
        }
    }
}
