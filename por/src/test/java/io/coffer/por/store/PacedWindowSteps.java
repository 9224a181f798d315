package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.client.PorClient;
import io.coffer.por.code.LogState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A paced window's directory put in the state a kill at one of its steps leaves (PacedWindowFiles), and the reopen
 * checked, for the server in files and with a bucket alike: the kill tests of both share them.
 */
final class PacedWindowSteps {
    /** Opens the killed server's directory again (with its bucket, if any). */
    interface Reopen {
        JournaledPorServer open() throws IOException;
    }

    private PacedWindowSteps() {
    }

    /** A freeze killed after its record: half of the frozen H's renames (vectors or sealed checksums) not made yet. */
    static void freezeCutAfterItsRecord(Path dir, long epoch) throws IOException {
        List<Path> frozen = named(dir, "hf-");
        assertThat(frozen).isNotEmpty();
        for (Path p : frozen.subList(0, frozen.size() / 2)) {
            Files.move(p, dir.resolve("h-" + p.getFileName().toString().substring(3)));
        }
        boolean clientPart = PacedWindowFiles.read(dir).clientPart(); // as the freeze wrote it
        PacedWindowFiles.write(dir, new PacedWindowFiles.State(epoch, PacedWindowFiles.FREEZING, clientPart));
    }

    /** A freeze killed before its record: no rename made, no record (c.next.sealed left over, written again). */
    static void freezeCutBeforeItsRecord(Path dir) throws IOException {
        for (Path p : named(dir, "hf-")) {
            Files.move(p, dir.resolve("h-" + p.getFileName().toString().substring(3)));
        }
        Files.delete(dir.resolve(PacedWindowFiles.RECORD));
    }

    /**
     * Reopened at add {@code adds} of the window of epoch 2 (k - b = {@code hK}, the switch at add {@code switchAt}):
     * content and audits there, past the switch, over a further epoch with its own window, and after another reopen.
     */
    static void assertReopensInTheWindowAndGoesOn(Reopen reopen, JournaledClients clients, byte[][] expected, int hK,
            int adds, int switchAt) throws IOException {
        try (JournaledPorServer server = reopen.open()) {
            assertThat(server.state()).isEqualTo(new LogState(hK, adds, 2));
            assertThat(server.storage().windowEpoch()).isEqualTo(2);
            PorClient client = clients.resume(server);
            clients.assertContent(client, expected);
            clients.assertGoesOn(client, expected, switchAt - adds); // the switch
            assertThat(server.storage().windowEpoch()).isEqualTo(-1);
            clients.assertGoesOn(client, expected, 1 << hK); // a further epoch, its own window
        }
        try (JournaledPorServer server = reopen.open()) {
            clients.assertContent(clients.resume(server), expected);
        }
    }

    /** The files of {@code dir} whose names start with {@code prefix}, sorted. */
    static List<Path> named(Path dir, String prefix) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix)).sorted().toList();
        }
    }
}
