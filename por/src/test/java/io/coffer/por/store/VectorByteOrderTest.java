package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.client.ClientState;
import io.coffer.por.client.PorClient;
import io.coffer.por.net.ServerParameters;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store created before the vectors' byte order was recorded (big-endian level files, no {@code vectorOrder} in
 * {@code parameters}) keeps working after the change, and holds the same ints as a new store in the platform's order.
 */
class VectorByteOrderTest {
    private static final byte[] MASTER_KEY = new byte[32];
    private static final int BLOCK = 24;
    private static final ServerParameters PARAMS = new ServerParameters(5, 1, BLOCK);

    static {
        new SplittableRandom(5).nextBytes(MASTER_KEY);
    }

    @TempDir
    Path dir;

    /** Writes the same 70 blocks (over two C rebuilds, a batch pending) to the server in {@code store}. */
    private static byte[][] write(Path store, List<ClientState> persisted) throws IOException {
        SplittableRandom random = new SplittableRandom(23);
        byte[][] expected = new byte[32][];
        try (JournaledPorServer server = JournaledPorServer.open(store, PARAMS)) {
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            for (int i = 0; i < 70; i++) {
                int index = random.nextInt(expected.length);
                expected[index] = new byte[BLOCK];
                random.nextBytes(expected[index]);
                client.write(index, expected[index]);
            }
            assertContent(client, expected);
        }
        return expected;
    }

    private static void assertContent(PorClient client, byte[][] expected) {
        assertThat(client.audit().passed()).isTrue();
        for (int i = 0; i < expected.length; i++) {
            assertThat(client.read(i)).isEqualTo(expected[i] == null ? new byte[BLOCK] : expected[i]);
        }
    }

    private static int[] ints(Path file, ByteOrder order) throws IOException {
        IntBuffer view = ByteBuffer.wrap(Files.readAllBytes(file)).order(order).asIntBuffer();
        int[] out = new int[view.remaining()];
        view.get(out);
        return out;
    }

    @Test
    void aBigEndianStoreOfTheFormerLayoutReadsAuditsAndWritesOnInItsOwnOrder() throws IOException {
        Path legacy = Files.createDirectories(dir.resolve("legacy"));
        Files.writeString(legacy.resolve("parameters"), "k=5\nbatch=1\nblockBytes=" + BLOCK + "\n",
                StandardCharsets.US_ASCII); // as the server wrote it before the order was recorded
        List<ClientState> legacyStates = new ArrayList<>();
        byte[][] expected = write(legacy, legacyStates);
        Path current = dir.resolve("current");
        write(current, new ArrayList<>());

        // the same code vectors, in big-endian ints in the old store and in the platform's order in the new one
        List<Path> vectorFiles;
        try (Stream<Path> files = Files.list(legacy)) {
            vectorFiles = files.filter(f -> f.getFileName().toString().endsWith(".vectors")).sorted().toList();
        }
        assertThat(vectorFiles).hasSizeGreaterThan(4);
        for (Path f : vectorFiles) {
            Path twin = current.resolve(f.getFileName());
            assertThat(ints(f, ByteOrder.BIG_ENDIAN)).as("%s", f.getFileName())
                    .isEqualTo(ints(twin, ByteOrder.nativeOrder()));
        }
        assertThat(Files.readString(legacy.resolve("parameters"))).doesNotContain("vectorOrder");

        try (JournaledPorServer server = JournaledPorServer.open(legacy, null)) {
            PorClient client = new PorClient(server, legacyStates.get(legacyStates.size() - 1), new SecureRandom(),
                    legacyStates::add);
            assertContent(client, expected);
            SplittableRandom random = new SplittableRandom(29);
            for (int i = 0; i < 9; i++) {
                int index = random.nextInt(expected.length);
                expected[index] = new byte[BLOCK];
                random.nextBytes(expected[index]);
                client.write(index, expected[index]);
            }
            client.flush();
            assertContent(client, expected);
        }
    }
}
