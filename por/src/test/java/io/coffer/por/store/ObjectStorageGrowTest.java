package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.client.PorClient;
import io.coffer.por.net.ServerParameters;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.blob.ForwardingBlobStore;
import io.coffer.sdk.blob.MemoryBlobStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A grow of the journaled server whose U, C and H are objects of a bucket ({@link MemoryBlobStore} as the bucket):
 * the C objects of the former capacities are deleted once the grow is made (past a shrink also U's cut blocks and
 * H's higher levels), or at the next open when a crash came
 * between the grow and the deletes or the bucket failed them; C's objects at the current capacity, U's and H's stay.
 */
class ObjectStorageGrowTest {
    private static final int K = 3;
    private static final ServerParameters INITIAL = new ServerParameters(K, 1, 48);

    @TempDir
    Path dir;

    private final JournaledClients clients = new JournaledClients(57, 48, 2);
    private final MemoryBlobStore bucket = new MemoryBlobStore("bucket");

    @Test
    void twoGrowsLeaveOnlyTheCurrentCapacitysCObjectsInTheBucket() throws IOException {
        try (JournaledPorServer server = JournaledPorServer.open(dir, INITIAL, bucket, 0)) {
            byte[][] expected = new byte[1 << K][];
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, expected, 20); // over a C rebuild: C's objects at level K + 1 written
            assertThat(cNames("c-" + (K + 1) + "-")).isNotEmpty();

            client.grow(K + 1);
            client.grow(K + 2);

            assertThat(cNames("c-" + (K + 1) + "-")).isEmpty();
            assertThat(cNames("c-" + (K + 2) + "-")).isEmpty();
            assertThat(cNames("c-" + (K + 3) + "-")).hasSize(2 << (K + 2)); // x and y, n each
            assertThat(hNames("h-")).isNotEmpty();
            expected = Arrays.copyOf(expected, 1 << (K + 2));
            clients.assertContent(client, expected);
            clients.writeRandom(client, expected, 40); // over a C rebuild at the new k
            client.flush();
            clients.assertContent(client, expected);
        }
    }

    @Test
    void formerCObjectsACrashLeftAreDeletedAtTheNextOpenWhoseBucketAllowsItAndTheStoreStaysWhole() throws IOException {
        byte[][] expected = new byte[1 << K][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, INITIAL, bucket, 0)) {
            PorClient client = clients.initialize(server);
            clients.writeRandom(client, expected, 20);
            client.grow(K + 1);
            client.flush();
        }
        List<String> current = cNames("c-" + (K + 2) + "-");
        // as a kill -9 between the grow and its deletes leaves them (and 2,500 of an older grow, level 2: deleted
        // 1,000 at a time)
        for (String name : List.of("c-" + (K + 1) + "-x/0", "c-" + (K + 1) + "-y/7")) {
            bucket.put(cPrefix() + name, BlobContent.of(new byte[16]));
        }
        for (int i = 0; i < 2500; i++) {
            bucket.put(cPrefix() + "c-2-x/" + i, BlobContent.of(new byte[16]));
        }
        BlobStore failingDeletes = new ForwardingBlobStore(bucket) {
            @Override
            public void delete(String name) throws IOException {
                throw new IOException("the bucket is unavailable");
            }
        };
        try (JournaledPorServer server = JournaledPorServer.open(dir, null, failingDeletes, 0)) {
            assertThat(cNames("c-2-")).hasSize(2500); // left to the next open; this one goes on
            clients.assertResumes(server, Arrays.copyOf(expected, 1 << (K + 1)), 0);
        }

        try (JournaledPorServer server = JournaledPorServer.open(dir, null, bucket, 0)) {
            assertThat(cNames("c-" + (K + 1) + "-")).isEmpty();
            assertThat(cNames("c-2-")).isEmpty();
            assertThat(cNames("c-" + (K + 2) + "-")).isEqualTo(current);
            clients.assertResumes(server, Arrays.copyOf(expected, 1 << (K + 1)), 30);
        }
    }

    @Test
    void aShrinkDeletesTheCutBlocksHsHigherLevelsAndTheLargerCodeFromTheBucket() throws IOException {
        try (JournaledPorServer server = JournaledPorServer.open(dir, INITIAL, bucket, 0)) {
            PorClient client = clients.initialize(server);
            client.grow(K + 2);
            byte[][] expected = new byte[1 << (K + 2)][];
            clients.writeRandom(client, expected, 70); // over C rebuilds at K + 2: H's highest level written
            for (int i = 1 << K; i < expected.length; i++) {
                client.write(i, new byte[48]);
                expected[i] = null;
            }
            assertThat(names("u/")).hasSizeGreaterThan(1 << K);
            assertThat(hNames("h-" + K + "-")).isNotEmpty();

            client.shrink(K);

            assertThat(names("u/")).allMatch(name -> Integer.parseInt(name.substring(2)) < 1 << K);
            assertThat(cNames("c-" + (K + 3) + "-")).isEmpty();
            assertThat(cNames("c-" + (K + 1) + "-")).hasSize(2 << K);
            assertThat(hNames("h-" + K + "-")).isEmpty(); // H's k - b is K - 1 now
            assertThat(hNames("h-" + (K + 1) + "-")).isEmpty();
            expected = Arrays.copyOf(expected, 1 << K);
            clients.assertContent(client, expected);
            clients.writeRandom(client, expected, 30);
            client.flush();
            clients.assertContent(client, expected);
        }
    }

    /** C's names under its generation's prefix (BlobGenerations: a paced window's switch moves it). */
    private List<String> cNames(String prefix) throws IOException {
        return names(cPrefix() + prefix);
    }

    private List<String> hNames(String prefix) throws IOException {
        return names(BlobGenerations.hPrefix(dir, bucket) + prefix);
    }

    private String cPrefix() throws IOException {
        return BlobGenerations.prefix(BlobGenerations.read(dir, bucket).current());
    }

    private List<String> names(String prefix) throws IOException {
        return bucket.list(prefix).toList().stream().map(BlobInfo::name).toList();
    }
}
