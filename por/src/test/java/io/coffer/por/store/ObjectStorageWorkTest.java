package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.client.PorClient;
import io.coffer.por.code.DeamortizedLog;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.net.ServerParameters;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobListing;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.blob.ForwardingBlobStore;
import io.coffer.sdk.blob.MemoryBlobStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-write work of the server with U, C and H in a bucket, paced (issue 19: bounded worst-case work per write):
 * over three epochs at k = 7 and 9 (b = 0), no write makes more requests of the bucket than its H add, its share of
 * the paced rebuild (both read and written), U's block and copy, and its share of the former generation's deletes
 * and their listings: O(k), below n; the write that ends an epoch too (H frozen by renaming its sealed checksums'
 * files, its objects left where they are), where a rebuild at once reads n blocks and writes 2n vectors. The former
 * generation's deletes name only objects that are there, each once, and end before the next freeze.
 */
class ObjectStorageWorkTest {
    private static final int BLOCK = 16;

    @TempDir
    Path dir;

    @Test
    void noWriteOfThreeEpochsTouchesMoreThanOrderKObjectsOfTheBucketAtKSevenAndNine() throws IOException {
        for (int k = 7; k <= 9; k += 2) {
            Counting bucket = new Counting(new MemoryBlobStore("bucket"));
            try (Run run = new Run(k, bucket, 2)) {
                JournaledPorServer server = run.server;
                long worst = 0;
                long endOfEpoch = 0;
                int windows = 0;
                for (int write = 0; write < 3 << k; write++) {
                    bucket.requests = 0;
                    run.writeOne();
                    if (server.storage().windowEpoch() == server.state().epoch() && server.state().t() == 0) {
                        endOfEpoch = Math.max(endOfEpoch, bucket.requests);
                        windows++;
                    } else {
                        worst = Math.max(worst, bucket.requests);
                    }
                }
                // vectors: an H add's writes (BoundedServerWorkTest) and the share's, each read as often at most
                long vectors = 2 * (2 + 4 * (k - 1) + 4 * (PacedCRebuild.unitsPerStep(k) + 1));
                long deletesPerAdd = deleteShare(k) + listingsPerWrite(k); // the former generation's, listed
                long uBlocks = 2 + PacedCRebuild.unitsPerStep(k); // the write, its copy, the rebuild's reads of U
                assertThat(windows).as("k = %d", k).isEqualTo(3); // each epoch's end opens one
                System.out.printf("k = %d: at most %d requests of the bucket per write, %d at an epoch's end%n", k,
                        worst, endOfEpoch);
                long bound = vectors + deletesPerAdd + uBlocks;
                assertThat(worst).as("k = %d", k).isLessThanOrEqualTo(bound).isLessThan(1L << k);
                // the write that ends an epoch: its own add, no more (a rebuild at once reads n blocks, writes 2n)
                assertThat(endOfEpoch).as("the epoch's end at k = %d", k).isLessThanOrEqualTo(bound)
                        .isLessThan(1L << k);
            }
        }
    }

    @Test
    void thePacedDeletesOfAFormerGenerationDeleteOnlyItsObjectsAShareAtATimeAndEndBeforeTheNextFreeze()
            throws IOException {
        for (int k = 7; k <= 9; k += 2) {
            MemoryBlobStore plain = new MemoryBlobStore("bucket");
            Counting bucket = new Counting(plain);
            try (Run run = new Run(k, bucket, 0)) {
                JournaledPorServer server = run.server;
                Path at = run.at;
                long share = deleteShare(k);
                long listsPerWrite = listingsPerWrite(k);
                int switches = 0;
                long held = 0;
                long deletes = 0;
                for (int write = 0; write < 3 << k; write++) {
                    boolean inWindow = server.storage().windowEpoch() >= 0;
                    String former = BlobGenerations.prefix(BlobGenerations.read(at, plain).current());
                    long formerObjects = objects(plain, former + "h-") + objects(plain, former + "c-");
                    bucket.deletes = 0;
                    bucket.lists = 0;
                    run.writeOne();
                    if (inWindow && server.storage().windowEpoch() < 0) { // this write switched
                        switches++;
                        held = formerObjects;
                        deletes = 0;
                    }
                    deletes += bucket.deletes;
                    assertThat(bucket.deletes).as("k = %d, write %d", k, write).isLessThanOrEqualTo(share);
                    assertThat(bucket.lists).as("k = %d, write %d", k, write).isLessThanOrEqualTo(listsPerWrite);
                    if (server.state().t() == (1L << k) - 1 && switches > 0) { // the next write freezes H
                        assertThat(BlobGenerations.read(at, plain).retired()).isEqualTo(-1);
                        assertThat(deletes).as("the former generation's objects, each deleted once")
                                .isEqualTo(held);
                        assertThat(plain.list("").toList().stream().map(b -> b.name())
                                .filter(name -> !name.startsWith("u/")
                                        && !name.startsWith(BlobGenerations.prefix(server.state().epoch()))))
                                .as("objects outside the current generation and U").isEmpty();
                    }
                }
                assertThat(switches).as("k = %d", k).isEqualTo(2); // the windows of epochs 2 and 3
                assertThat(bucket.missingDeletes).as("deletes of objects that are not there").isZero();
                System.out.printf("k = %d: the former generation held %d of %d possible objects; at most %d deletes"
                        + " and %d listings per write%n", k, held, possibleObjects(k), share, listsPerWrite);
            }
        }
    }

    /** The most objects a generation holds at b = 0: C's 2n, H's two parts of three run slots a level. */
    private static long possibleObjects(int k) {
        return 2 * ((1L << k) + DeamortizedLog.SLOTS * ((2L << k) - 1));
    }

    /** The former generation's deletes per write: the most it holds over the half epoch after the switch, but one. */
    private static long deleteShare(int k) {
        long adds = (1L << (k - 1)) - 1;
        return (possibleObjects(k) + adds - 1) / adds;
    }

    /** Their listings per write: one per full page and one per prefix (H's, C's) that ends. */
    private static long listingsPerWrite(int k) {
        return (deleteShare(k) + StoreShrink.PAGE - 1) / StoreShrink.PAGE + 2;
    }

    private static long objects(BlobStore bucket, String prefix) throws IOException {
        return bucket.list(prefix).toList().size();
    }

    /** A server at 2^k blocks (b = 0) over a bucket and its client, written a block at a time. */
    private final class Run implements AutoCloseable {
        final Path at;
        final JournaledPorServer server;
        private final JournaledClients clients;
        private final PorClient client;
        private final byte[][] expected;

        Run(int k, BlobStore bucket, int audits) throws IOException {
            at = dir.resolve("k" + k);
            clients = new JournaledClients(k, BLOCK, audits);
            server = JournaledPorServer.open(at, new ServerParameters(k, 0, BLOCK), bucket, 0);
            client = clients.initialize(server);
            client.flush();
            expected = new byte[1 << k][];
        }

        void writeOne() {
            clients.writeRandom(client, expected, 1);
            client.flush();
        }

        /** Every block read back (and audited, if asked for), then the server closed. */
        @Override
        public void close() throws IOException {
            try (JournaledPorServer s = server) {
                clients.assertContent(client, expected);
            }
        }
    }

    /** Counts every request made of the bucket. */
    private static final class Counting extends ForwardingBlobStore {
        private final MemoryBlobStore bucket;
        long requests;
        long deletes;
        long lists;
        long missingDeletes;

        Counting(MemoryBlobStore bucket) {
            super(bucket);
            this.bucket = bucket;
        }

        @Override
        public void put(String name, BlobContent content) throws IOException {
            requests++;
            super.put(name, content);
        }

        @Override
        public InputStream get(String name, long offset, long length) throws IOException {
            requests++;
            return super.get(name, offset, length);
        }

        @Override
        public void readInto(String name, long offset, byte[] dst, int dstOffset, int length) throws IOException {
            requests++;
            super.readInto(name, offset, dst, dstOffset, length);
        }

        @Override
        public Optional<BlobInfo> head(String name) throws IOException {
            requests++;
            return super.head(name);
        }

        @Override
        public void delete(String name) throws IOException {
            requests++;
            deletes++;
            if (bucket.head(name).isEmpty()) {
                missingDeletes++;
            }
            super.delete(name);
        }

        @Override
        public BlobListing list(String prefix) throws IOException {
            requests++;
            lists++;
            return super.list(prefix);
        }
    }
}
