package io.coffer.sdk.engine;

import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.codec.BinaryReader;
import io.coffer.sdk.codec.BinaryWriter;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.manifest.Manifest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the manifests of small (inline) objects that commit at about the same time as one backend blob, a manifest
 * group (docs/FORMAT.md, "Manifest groups"), so that concurrent small PUTs share one backend write instead of paying
 * one each.
 *
 * <p>Group commit without a timer: a writer joins the open group; the first writer to find no group write in flight
 * takes the open group (everyone who joined so far) and writes it, while later writers gather in the next one. A
 * writer alone therefore waits for nothing, and under load a group holds whoever arrived during the previous write.
 * Every member's version id is {@code <groupId>.<index>}, which is how the rest of the engine knows where its manifest
 * lives. A writer returns once its group is durable (or throws if the group's write failed: then none of its members
 * is committed).
 */
final class ManifestGroups {
    private static final byte[] MAGIC = "CFMG".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 1;
    /** At most this many manifests in one group: an inline manifest is at most about 17 KiB, a group about 1 MiB. */
    static final int MAX_MEMBERS = 64;

    /** A manifest as committed: with its group version id, and sealed under it. */
    record Member(Manifest manifest, byte[] sealed) {
    }

    private static final class Group {
        final String id = BackendLayout.newId();
        final List<byte[]> sealed = new ArrayList<>();
        boolean done;
        IOException failure;
    }

    private final BlobStore blobs;
    private final MasterKey key;
    private Group open = new Group();
    private boolean writing;

    ManifestGroups(BlobStore blobs, MasterKey key) {
        this.blobs = blobs;
        this.key = key;
    }

    /** Seals {@code m} as a member of a group, under a version id of that group; returns once the group is durable. */
    Member write(Manifest m) throws IOException {
        Group g;
        Member member;
        boolean leader = false;
        boolean interrupted = false;
        synchronized (this) {
            while (open.sealed.size() >= MAX_MEMBERS) {
                interrupted |= await();
            }
            g = open;
            String versionId = BackendLayout.groupMember(g.id, g.sealed.size());
            Manifest versioned = m.copyAs(m.bucket(), m.key(), versionId, m.lastModified(), m.attributes());
            member = new Member(versioned, StoredRecords.sealManifest(key, versioned));
            g.sealed.add(member.sealed());
            while (!g.done) {
                if (!writing && open == g) {
                    writing = true;
                    open = new Group();
                    notifyAll();
                    leader = true;
                    break;
                }
                interrupted |= await();
            }
        }
        if (leader) {
            IOException failure = null;
            boolean written = false;
            try {
                // a group is written once, by one thread, after it stopped taking members: no lock needed to read it
                blobs.put(BackendLayout.group(g.id), BlobContent.of(encode(g.sealed)));
                written = true;
            } catch (IOException e) {
                failure = e;
            } catch (RuntimeException e) {
                failure = new IOException("manifest group write failed", e);
            } finally {
                if (!written && failure == null) {
                    // an Error on the way: the members are still woken, and fail
                    failure = new IOException("the manifest group write did not finish");
                }
                synchronized (this) {
                    g.failure = failure;
                    g.done = true;
                    writing = false;
                    notifyAll();
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (g.failure != null) {
            throw new IOException("could not write the manifest group: " + g.failure.getMessage(), g.failure);
        }
        return member;
    }

    /** How many manifests the open group holds, waiting for the group write in flight to end (for tests). */
    synchronized int gathering() {
        return open.sealed.size();
    }

    /**
     * Waits for a change, not giving up on an interrupt (the interrupt is kept for the caller): a writer that left
     * would leave its manifest in the group uncommitted and without a tombstone, for reindex to bring back. A group
     * write takes milliseconds.
     */
    private boolean await() {
        try {
            wait();
            return false;
        } catch (InterruptedException e) {
            return true;
        }
    }

    /** {@code "CFMG" | u8 1 | uvarint count | count x bytes(sealed manifest)}. */
    static byte[] encode(List<byte[]> sealed) {
        int size = MAGIC.length + 1 + 5;
        for (byte[] s : sealed) {
            size += 5 + s.length;
        }
        BinaryWriter w = new BinaryWriter(size).raw(MAGIC).u8(VERSION).uvarint(sealed.size());
        for (byte[] s : sealed) {
            w.bytes(s);
        }
        return w.toByteArray();
    }

    /** The sealed manifests of a group blob, in member order (member {@code i} has version {@code <groupId>.i}). */
    static List<byte[]> decode(byte[] blob) throws MalformedRecordException {
        BinaryReader r = new BinaryReader(blob);
        r.expect(MAGIC);
        if (r.u8() != VERSION) {
            throw new MalformedRecordException("unknown manifest group version");
        }
        int count = r.uvarintAtMost(MAX_MEMBERS);
        List<byte[]> sealed = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            sealed.add(r.bytes());
        }
        r.finish();
        return sealed;
    }
}
