package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.client.ClientState;
import io.coffer.por.client.PorClient;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.net.ServerParameters;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.MemoryBlobStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journaled server with U's blocks and the code vectors of C and H as objects of a blob store (the sdk's
 * {@link MemoryBlobStore} here, as it would be a bucket): the same protocol passes, a restart finds everything, and
 * blocks deleted or damaged in the bucket are found and repaired.
 */
class ObjectStorageTest {
    private static final int BLOCK = 40;
    private static final byte[] MASTER_KEY = new byte[32];

    static {
        new SplittableRandom(4).nextBytes(MASTER_KEY);
    }

    @TempDir
    Path dir;

    private final List<ClientState> persisted = new ArrayList<>();
    private final SplittableRandom random = new SplittableRandom(21);

    @Test
    void uCAndHLiveInTheBucketAcrossARestartAndLostOrDamagedBlocksAreRepaired() throws IOException {
        ServerParameters params = new ServerParameters(5, 1, BLOCK);
        MemoryBlobStore bucket = new MemoryBlobStore("bucket");
        byte[][] expected = new byte[32][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, params, bucket, 0)) {
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            for (int op = 0; op < 32 + 11; op++) { // one C rebuild over written blocks, then H, one block pending
                write(client, expected, op < 32 ? op : random.nextInt(32));
            }
            assertContent(client, expected);
        }
        assertThat(bucket.head("u/7")).isPresent();
        assertThat(bucket.head("c-6-x/31")).isPresent();
        assertThat(bucket.head("h-0-x/0")).isPresent(); // a memory budget of 0: every level of H in the bucket
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString())).doesNotContain("u.blocks")
                    .noneMatch(f -> f.endsWith(".vectors"));
        }

        try (JournaledPorServer server = JournaledPorServer.open(dir, null, bucket, 0)) {
            PorClient client = new PorClient(server, persisted.get(persisted.size() - 1), new SecureRandom(),
                    persisted::add);
            assertContent(client, expected);

            bucket.delete("u/3");
            byte[] damaged = expected[9].clone();
            damaged[0] ^= 1;
            bucket.put("u/9", BlobContent.of(damaged));
            assertThatThrownBy(() -> client.read(3)).hasMessageContaining("lost");
            assertThatThrownBy(() -> client.read(9)).hasMessageContaining("does not match its checksum");
            assertThat(client.audit().passed()).isTrue(); // C and H are whole

            client.repair(List.of(3, 9));
            assertContent(client, expected);
            for (int op = 0; op < 30; op++) { // over the next C rebuild, which reads U from the bucket
                write(client, expected, random.nextInt(32));
            }
            client.flush();
            assertContent(client, expected);
        }
    }

    @Test
    void aBlockGoneFromTheBucketAtTheEpochsEndIsDecodedForThePacedNextCAndRepaired() throws IOException {
        MemoryBlobStore bucket = new MemoryBlobStore("bucket");
        byte[][] expected = new byte[16][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, new ServerParameters(4, 0, BLOCK), bucket)) {
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            for (int i = 0; i < 15; i++) {
                write(client, expected, i);
            }
            client.flush(); // the writes so far on disk: U's blocks in the bucket
            bucket.delete("u/2");
            // the epoch's last write goes in: the paced rebuild (no C rebuilt at once) decodes block 2 when it
            // reads it, from the old C and the frozen H
            write(client, expected, 15);
            assertThat(server.storage().windowEpoch()).isEqualTo(2);
            for (int i = 0; i < PacedCRebuild.stepsToComplete(4); i++) { // to the switch
                write(client, expected, 15);
            }
            assertThat(server.storage().windowEpoch()).isEqualTo(-1);
            assertThatThrownBy(() -> client.read(2)).hasMessageContaining("lost");
            client.repair(List.of(2)); // from the new C
            client.flush();
            assertContent(client, expected);
        }
    }

    private void write(PorClient client, byte[][] expected, int index) {
        byte[] block = new byte[BLOCK];
        random.nextBytes(block);
        client.write(index, block);
        expected[index] = block;
    }

    private static void assertContent(PorClient client, byte[][] expected) {
        assertThat(client.audit().passed()).isTrue();
        for (int i = 0; i < expected.length; i++) {
            assertThat(client.read(i)).isEqualTo(expected[i] == null ? new byte[BLOCK] : expected[i]);
        }
    }
}
