package io.coffer.gateway.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.PorVerificationException;
import io.coffer.por.client.PorClient;
import io.coffer.por.field.Segments;
import io.coffer.por.net.PorKeyFile;
import io.coffer.por.net.RemotePorServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./coffer por-server} as shipped: the launcher at the repository root runs the packaged jar (what
 * {@code mvn package} laid out before failsafe runs), and a {@link PorClient} over a {@link RemotePorServer} writes,
 * audits, finds damage the way it is meant to be found, and has it repaired: blocks of U corrupted on disk fail their
 * reads and are decoded back from C and H; vectors of C corrupted on disk fail the audit, and the next C rebuild
 * rewrites C from U.
 */
class PorServerReleaseIT {
    private static final Pattern LISTENING = Pattern.compile("listening: +127\\.0\\.0\\.1:(\\d+)");
    private static final int K = 7;
    private static final int N = 1 << K;
    private static final int BLOCK = 4096;

    @TempDir
    Path work;

    @Test
    void corruptedBlocksFailReadsCorruptedCodeFailsTheAuditAndRepairAndRebuildRestoreThem() throws Exception {
        Path log = work.resolve("por-server.log");
        // unbatched: every write reaches U's file at once and the epoch is exactly N writes, as the scenario counts
        ProcessBuilder pb = new ProcessBuilder(ShippedGateway.REPOSITORY.resolve("coffer").toString(), "por-server",
                "--data", "por", "--port", "0", "--k", Integer.toString(K), "--block-size", Integer.toString(BLOCK), "--batch", "0")
                .directory(work.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("COFFER_"));
        Process process = pb.start();
        try {
            int port = awaitListening(process, log);
            Path data = work.resolve("por"); // --data given relative: it resolves against the caller's directory
            byte[] sessionKey = PorKeyFile.load(data.resolve("session.key"));
            try (RemotePorServer remote = RemotePorServer.connect(new InetSocketAddress("127.0.0.1", port),
                    sessionKey, Duration.ofSeconds(60))) {
                runScenario(remote, data);
            }
        } finally {
            process.descendants().forEach(ProcessHandle::destroy);
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private void runScenario(RemotePorServer remote, Path data) throws IOException {
        byte[] masterKey = new byte[32];
        new SecureRandom().nextBytes(masterKey);
        PorClient client = PorClient.initialize(remote, masterKey, new SecureRandom(), s -> { });
        SplittableRandom random = new SplittableRandom(19);
        byte[][] expected = new byte[N][];
        for (int op = 0; op < N + 60; op++) { // one epoch (C then holds every block), then 60 writes in H
            write(client, expected, op < N ? op : random.nextInt(N), random);
        }
        assertThat(client.audit().passed()).isTrue();
        client.flush(); // the writes on disk: U's file holds them (until a flush the server may keep them in memory)

        // 30 % of U's blocks corrupted where the server keeps them: their reads fail, the audit (of C and H) passes
        List<Integer> damaged = new ArrayList<>();
        try (FileChannel u = FileChannel.open(data.resolve("u.blocks"), StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            for (int i = 0; i < N; i++) {
                if (random.nextInt(10) < 3) {
                    damaged.add(i);
                    long at = (long) i * BLOCK + random.nextInt(BLOCK);
                    ByteBuffer b = ByteBuffer.allocate(1);
                    u.read(b, at);
                    b.put(0, (byte) (b.get(0) ^ 0x5a));
                    b.rewind();
                    u.write(b, at);
                }
            }
        }
        assertThat(damaged.size()).isBetween(N / 5, N * 2 / 5);
        for (int i : damaged) {
            assertThatThrownBy(() -> client.read(i)).isInstanceOf(PorVerificationException.class);
        }
        assertThat(client.audit().passed()).isTrue();

        client.repair(damaged);
        for (int i = 0; i < N; i++) {
            assertThat(client.read(i)).as("block %d", i).isEqualTo(expected[i]);
        }

        // a quarter of C's X part corrupted: the audit samples 128 of C's 256 vectors and fails
        int record = (Segments.count(BLOCK) + 1) * Integer.BYTES;
        try (FileChannel c = FileChannel.open(data.resolve("c-" + (K + 1) + "-x.vectors"), StandardOpenOption.WRITE)) {
            for (int j = 0; j < N; j += 4) {
                c.write(ByteBuffer.allocate(Integer.BYTES).putInt(0, 12345), (long) j * record);
            }
        }
        assertThat(client.audit().passed()).isFalse();

        // the rest of the epoch: the C rebuild that ends it encodes U again, and the audit passes
        for (int op = 0; op < N - 60; op++) {
            write(client, expected, random.nextInt(N), random);
        }
        assertThat(client.audit().passed()).isTrue();
        for (int i = 0; i < N; i++) {
            assertThat(client.read(i)).as("block %d", i).isEqualTo(expected[i]);
        }
    }

    private static void write(PorClient client, byte[][] expected, int index, SplittableRandom random) {
        byte[] block = new byte[BLOCK];
        random.nextBytes(block);
        client.write(index, block);
        expected[index] = block;
    }

    /** The port ./coffer por-server listens on, from its log, once it says so. */
    static int awaitListening(Process process, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            String out = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
            if (out.contains(ShippedGateway.REBUILDING)) {
                throw new AssertionError("the launcher rebuilt the gateway instead of running the jar the build"
                        + " made; its output:\n" + out);
            }
            Matcher m = LISTENING.matcher(out);
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            if (!process.isAlive()) {
                throw new AssertionError("./coffer por-server exited with status " + process.exitValue()
                        + "; its output:\n" + out);
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("./coffer por-server did not listen within 120 s; its output:\n" + out);
            }
            Thread.sleep(200);
        }
    }
}
