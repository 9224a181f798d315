package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.client.PorClient;
import io.coffer.por.code.DeamortizedLog;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.net.ServerParameters;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobListing;
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
 * the paced rebuild (both read and written), U's block and copy, and its share of the former generation's deletes:
 * O(k), below n; the write that ends an epoch too (H frozen by renaming its sealed checksums' files, its objects
 * left where they are), where a rebuild at once reads n blocks and writes 2n vectors.
 */
class ObjectStorageWorkTest {
    private static final int BLOCK = 16;

    @TempDir
    Path dir;

    @Test
    void noWriteOfThreeEpochsTouchesMoreThanOrderKObjectsOfTheBucketAtKSevenAndNine() throws IOException {
        for (int k = 7; k <= 9; k += 2) {
            Counting bucket = new Counting(new MemoryBlobStore("bucket"));
            Path at = dir.resolve("k" + k);
            JournaledClients clients = new JournaledClients(k, BLOCK, 2);
            try (JournaledPorServer server = JournaledPorServer.open(at, new ServerParameters(k, 0, BLOCK), bucket,
                    0)) {
                PorClient client = clients.initialize(server);
                client.flush();
                byte[][] expected = new byte[1 << k][];
                long worst = 0;
                long endOfEpoch = 0;
                int windows = 0;
                for (int write = 0; write < 3 << k; write++) {
                    bucket.requests = 0;
                    clients.writeRandom(client, expected, 1);
                    client.flush();
                    if (server.storage().windowEpoch() == server.state().epoch() && server.state().t() == 0) {
                        endOfEpoch = Math.max(endOfEpoch, bucket.requests);
                        windows++;
                    } else {
                        worst = Math.max(worst, bucket.requests);
                    }
                }
                // vectors: an H add's writes (BoundedServerWorkTest) and the share's, each read as often at most
                long vectors = 2 * (2 + 4 * (k - 1) + 4 * (PacedCRebuild.unitsPerStep(k) + 1));
                long formerObjects = 2 * ((1L << k) + DeamortizedLog.SLOTS * ((2L << k) - 1));
                long deletesPerAdd = (formerObjects + (1L << (k - 1)) - 1) >> (k - 1);
                long uBlocks = 2 + PacedCRebuild.unitsPerStep(k); // the write, its copy, the rebuild's reads of U
                assertThat(windows).as("k = %d", k).isEqualTo(3); // each epoch's end opens one
                System.out.printf("k = %d: at most %d requests of the bucket per write, %d at an epoch's end%n", k,
                        worst, endOfEpoch);
                long bound = vectors + deletesPerAdd + uBlocks;
                assertThat(worst).as("k = %d", k).isLessThanOrEqualTo(bound).isLessThan(1L << k);
                // the write that ends an epoch: its own add, no more (a rebuild at once reads n blocks, writes 2n)
                assertThat(endOfEpoch).as("the epoch's end at k = %d", k).isLessThanOrEqualTo(bound)
                        .isLessThan(1L << k);
                clients.assertContent(client, expected);
            }
        }
    }

    /** Counts every request made of the bucket. */
    private static final class Counting extends ForwardingBlobStore {
        long requests;

        Counting(MemoryBlobStore bucket) {
            super(bucket);
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
            super.delete(name);
        }

        @Override
        public BlobListing list(String prefix) throws IOException {
            requests++;
            return super.list(prefix);
        }
    }
}
