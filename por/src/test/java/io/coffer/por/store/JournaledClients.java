package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.client.ClientState;
import io.coffer.por.client.PorClient;
import io.coffer.por.server.PorServer;
import io.coffer.por.server.SealedLevel;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * What the journaled server's tests share: a client whose every state is kept (as the gateway persists it), random
 * writes, the check that every block reads back and audits pass, damage to a file, and the journal's segments.
 */
final class JournaledClients {
    static final byte[] MASTER_KEY = new byte[32];

    static {
        new SplittableRandom(42).nextBytes(MASTER_KEY);
    }

    /** Every client state, as the client hands them over. */
    final List<ClientState> persisted = new ArrayList<>();
    private final SplittableRandom random;
    private final int blockBytes;
    private final int audits;

    JournaledClients(long seed, int blockBytes, int audits) {
        this.random = new SplittableRandom(seed);
        this.blockBytes = blockBytes;
        this.audits = audits;
    }

    PorClient initialize(PorServer server) {
        return PorClient.initialize(server, MASTER_KEY, new SecureRandom(), persisted::add);
    }

    /** A client from the latest state kept. */
    PorClient resume(PorServer server) {
        return resume(server, persisted.get(persisted.size() - 1));
    }

    PorClient resume(PorServer server, ClientState state) {
        return new PorClient(server, state, new SecureRandom(), persisted::add);
    }

    void writeRandom(PorClient client, byte[][] expected, int count) {
        for (int i = 0; i < count; i++) {
            int index = random.nextInt(expected.length);
            byte[] block = new byte[blockBytes];
            random.nextBytes(block);
            client.write(index, block);
            expected[index] = block;
        }
    }

    /** The audits pass, and every block reads back as {@code expected} (null: never written). */
    void assertContent(PorClient client, byte[][] expected) {
        for (int audit = 0; audit < audits; audit++) {
            assertThat(client.audit().passed()).isTrue();
        }
        for (int i = 0; i < expected.length; i++) {
            assertThat(client.read(i)).isEqualTo(expected[i] == null ? new byte[blockBytes] : expected[i]);
        }
    }

    /** The content is there, {@code more} writes and a flush go on, and it is there again. */
    void assertGoesOn(PorClient client, byte[][] expected, int more) {
        assertContent(client, expected);
        writeRandom(client, expected, more);
        client.flush();
        assertContent(client, expected);
    }

    /** A client resumed on {@code server}: the content is there, {@code more} writes go on, and it is there again. */
    PorClient assertResumes(PorServer server, byte[][] expected, int more) {
        PorClient client = resume(server);
        assertContent(client, expected);
        writeRandom(client, expected, more);
        assertContent(client, expected);
        return client;
    }

    /** Overwrites the first half of {@code file} with random bytes, as an interrupted rewrite of it may leave it. */
    void garble(Path file) throws IOException {
        garble(file, 0, (int) (Files.size(file) / 2));
    }

    void garble(Path file, long from, int length) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        byte[] noise = new byte[length];
        random.nextBytes(noise);
        System.arraycopy(noise, 0, bytes, (int) from, length);
        Files.write(file, bytes);
    }

    void nextBytes(byte[] into) {
        random.nextBytes(into);
    }

    /** The journal's segment files in {@code dir}, oldest first. */
    static List<Path> segments(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith(SegmentedJournal.PREFIX)).sorted()
                    .toList();
        }
    }

    /**
     * {@code resize} (a grow or shrink of {@code client}) reaches the server, which records it and is killed before it
     * makes it.
     */
    static void killedOnceRecorded(JournaledPorServer server, PorClient client, Consumer<PorClient> resize) {
        PorServer killedOnResize = (PorServer) Proxy.newProxyInstance(PorServer.class.getClassLoader(),
                new Class<?>[] {PorServer.class}, (proxy, method, args) -> {
                    if (method.getName().equals("resize")) {
                        server.recordGrow((int) args[0], (long) args[1], (SealedLevel) args[2]);
                        server.haltAsKilled();
                        throw new IllegalStateException("killed");
                    }
                    try {
                        return method.invoke(server, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        PorClient resizing = new PorClient(killedOnResize, client.state(), new SecureRandom(), s -> { });
        assertThatThrownBy(() -> resize.accept(resizing)).hasMessageContaining("killed");
    }

    /**
     * {@code resize} recorded and the server killed ({@link #killedOnceRecorded}), the next open making it, then killed
     * before the record's delete: the record is put back, as such a kill leaves it. The resized store's k is checked.
     */
    static void resizedWithItsRecordPutBack(Path dir, JournaledPorServer killed, PorClient client,
            Consumer<PorClient> resize, int k) throws IOException {
        killedOnceRecorded(killed, client, resize);
        byte[] record = Files.readAllBytes(dir.resolve(StoreGrowth.FILE));
        JournaledPorServer resized = JournaledPorServer.open(dir, null);
        assertThat(resized.k()).isEqualTo(k);
        resized.haltAsKilled();
        Files.write(dir.resolve(StoreGrowth.FILE), record);
    }
}
