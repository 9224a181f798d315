package io.coffer.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.client.ClientState;
import io.coffer.por.client.PorClient;
import io.coffer.por.net.RemotePorServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code coffer por-server} serves a PoR client over the network and keeps its content across a restart. */
class PorServerCommandTest {
    private static final Pattern LISTENING = Pattern.compile("listening: +127\\.0\\.0\\.1:(\\d+)");

    @TempDir
    Path dir;

    private final List<ClientState> persisted = new ArrayList<>();

    @Test
    void aClientWritesAuditsAndReadsBackAcrossARestart() throws Exception {
        byte[] masterKey = new byte[32];
        new SecureRandom().nextBytes(masterKey);
        InProcessPorServer first = InProcessPorServer.start(Map.of(), "--data", dir.toString(), "--port", "0", "--k",
                "6", "--block-size", "64");
        assertThat(first.out().toString()).contains("Coffer PoR server", "listening:   127.0.0.1:" + first.port(),
                "2^6 blocks of 64 bytes", "(created now: give it to the client)");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(PorServerCommand.KEY_FILE))))
                .isEqualTo("rw-------");
        try (RemotePorServer remote = InProcessPorServer.connect(dir, first.port())) {
            PorClient client = PorClient.initialize(remote, masterKey, new SecureRandom(), persisted::add);
            for (int i = 0; i < 70; i++) { // past one C rebuild
                client.write(i % 64, block(i));
            }
            assertThat(client.audit().passed()).isTrue();
        }
        assertThat(first.stop()).isZero();

        InProcessPorServer second = InProcessPorServer.start(Map.of(), "--data", dir.toString(), "--port", "0");
        assertThat(second.out().toString()).contains("2^6 blocks of 64 bytes").doesNotContain("created now");
        try (RemotePorServer remote = InProcessPorServer.connect(dir, second.port())) {
            PorClient client = new PorClient(remote, persisted.get(persisted.size() - 1), new SecureRandom(),
                    persisted::add);
            assertThat(client.audit().passed()).isTrue();
            assertThat(client.read(3)).isEqualTo(block(67));
            assertThat(client.read(10)).isEqualTo(block(10));
        }
        assertThat(second.stop()).isZero();
    }

    @Test
    void aServerKilledWithSigkillComesBackWithEveryAcknowledgedWrite() throws Exception {
        byte[] masterKey = new byte[32];
        new SecureRandom().nextBytes(masterKey);
        Path data = dir.resolve("por");
        try (CofferProcess first = CofferProcess.start(dir, Map.of(), "por-server", "--data", data.toString(),
                "--port", "0", "--k", "5", "--block-size", "64", "--batch", "1")) {
            int port = listeningPort(first);
            try (RemotePorServer remote = InProcessPorServer.connect(data, port)) {
                PorClient client = PorClient.initialize(remote, masterKey, new SecureRandom(), persisted::add);
                for (int i = 0; i < 45; i++) { // past one C rebuild, one block pending in its batch
                    client.write(i % 32, block(i));
                }
            }
            first.kill();
        }
        try (CofferProcess second = CofferProcess.start(dir, Map.of(), "por-server", "--data", data.toString(),
                "--port", "0")) {
            try (RemotePorServer remote = InProcessPorServer.connect(data, listeningPort(second))) {
                PorClient client = new PorClient(remote, persisted.get(persisted.size() - 1), new SecureRandom(),
                        persisted::add);
                assertThat(client.audit().passed()).isTrue();
                for (int i = 13; i < 45; i++) {
                    assertThat(client.read(i % 32)).isEqualTo(block(i));
                }
                client.write(0, block(99));
                client.flush();
                assertThat(client.audit().passed()).isTrue();
            }
        }
    }

    private static int listeningPort(CofferProcess process) throws Exception {
        Matcher m = LISTENING.matcher(process.awaitOut(l -> LISTENING.matcher(l).find(), Duration.ofSeconds(60)));
        assertThat(m.find()).isTrue();
        return Integer.parseInt(m.group(1));
    }

    @Test
    void aFirstStartWithoutItsParametersFailsWithAClearMessage() {
        StringWriter err = new StringWriter();
        CommandLine cl = CofferCommand.commandLine();
        cl.setErr(new PrintWriter(err, true));
        assertThat(cl.execute("por-server", "--data", dir.toString(), "--port", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("give k and the block size");
        assertThat(CofferCommand.runsAServer("por-server", "--data", "x")).isTrue();
    }

    private static byte[] block(int i) {
        byte[] b = new byte[64];
        b[0] = (byte) i;
        b[63] = (byte) (i * 7);
        return b;
    }
}
