package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.client.ClientState;
import io.coffer.por.client.PorClient;
import io.coffer.por.code.LogState;
import io.coffer.por.field.Segments;
import io.coffer.por.net.ServerParameters;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store created before H was deamortised (no layout mark in its parameters file) is not used through H until the
 * client resynchronises once; a journal holding adds in the earlier format is refused with what to run.
 */
class AmortizedLayoutTest {
    private static final int BLOCK = 24;
    private static final ServerParameters PARAMS = new ServerParameters(5, 1, BLOCK);
    private static final byte[] MASTER_KEY = new byte[32];

    @TempDir
    Path dir;

    private final List<ClientState> persisted = new ArrayList<>();
    private final SplittableRandom random = new SplittableRandom(12);

    private void write(PorClient client, byte[][] expected, int count) {
        for (int i = 0; i < count; i++) {
            int index = random.nextInt(expected.length);
            byte[] block = new byte[BLOCK];
            random.nextBytes(block);
            client.write(index, block);
            expected[index] = block;
        }
    }

    private void assertContent(PorClient client, byte[][] expected) {
        assertThat(client.audit().passed()).isTrue();
        for (int i = 0; i < expected.length; i++) {
            assertThat(client.read(i)).isEqualTo(expected[i] == null ? new byte[BLOCK] : expected[i]);
        }
    }

    /** The parameters file as a version before the layout mark wrote it. */
    private void unmark() throws IOException {
        Path file = dir.resolve("parameters");
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        assertThat(text).contains("hLayout=deamortized");
        Files.writeString(file, text.replace("hLayout=deamortized\n", ""), StandardCharsets.US_ASCII);
    }

    @Test
    void anOlderStoreRefusesHUntilTheClientResynchronisesThenIsMarked() throws IOException {
        byte[][] expected = new byte[32][];
        try (JournaledPorServer server = JournaledPorServer.open(dir, PARAMS)) {
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            write(client, expected, 32 + 13); // a C rebuild, then t = 6 and a block pending
        }
        unmark();
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            PorClient client = new PorClient(server, persisted.get(persisted.size() - 1), new SecureRandom(),
                    persisted::add);
            assertThat(server.logState()).as("apart from every client's state").isEqualTo(new LogState(4, 0, 3));
            assertThat(client.read(3)).isEqualTo(expected[3] == null ? new byte[BLOCK] : expected[3]); // U serves
            assertThatThrownBy(() -> write(client, expected, 1)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("resynchronise");
            assertThat(client.audit().passed()).isFalse();
            client.resync();
            assertThat(Files.readString(dir.resolve("parameters"))).contains("hLayout=deamortized");
            assertContent(client, expected);
            write(client, expected, 20);
            assertContent(client, expected);
        }
        try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
            PorClient client = new PorClient(server, persisted.get(persisted.size() - 1), new SecureRandom(),
                    persisted::add);
            assertThat(server.logState()).isEqualTo(client.state().hLog());
            assertContent(client, expected);
        }
    }

    @Test
    void anOlderStoreWhoseJournalHoldsAnAddIsRefusedWithWhatToRun() throws IOException {
        byte[][] expected = new byte[32][];
        long twoLevels = 3 * 6L * (Segments.count(BLOCK) + 1) * 2 * Integer.BYTES; // no checkpoint at odd t
        try (JournaledPorServer server = JournaledPorServer.open(dir, PARAMS, null, twoLevels)) {
            PorClient client = PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
            write(client, expected, 3); // an add, then a block pending: the close leaves them in the journal
        }
        unmark();
        assertThatThrownBy(() -> JournaledPorServer.open(dir, null)).isInstanceOf(IOException.class)
                .hasMessageContaining("start the earlier version on it, have the client flush, stop it");
    }
}
