package io.coffer.por.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.PorVerificationException;
import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.audit.AuditVerdict;
import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.client.PorClient;
import io.coffer.por.code.MemoryLevelStore;
import io.coffer.por.code.Part;
import io.coffer.por.field.Zp;
import io.coffer.por.server.MemoryPorServer;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link PorClient} runs unchanged against a {@link MemoryPorServer} behind a real socket. */
class RemotePorServerTest {
    static final byte[] MASTER_KEY = new byte[32];
    static final byte[] SESSION_KEY = new byte[PorKeyFile.KEY_BYTES];

    static {
        new SplittableRandom(42).nextBytes(MASTER_KEY);
        new SplittableRandom(43).nextBytes(SESSION_KEY);
    }

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private RemotePorServer serve(MemoryPorServer server) throws InterruptedException {
        PorNetServer net = PorNetServer.start(server, SESSION_KEY, new InetSocketAddress("127.0.0.1", 0),
                PorNetServer.Limits.DEFAULT);
        open.add(net);
        RemotePorServer remote = RemotePorServer.connect(new InetSocketAddress("127.0.0.1", net.port()), SESSION_KEY,
                Duration.ofSeconds(30));
        open.add(remote);
        return remote;
    }

    @Test
    void aPacedRebuildsWindowIsAuditedAndDecodedThroughTheSocket() throws Exception {
        int k = 6;
        int blockBytes = 24;
        MemoryPorServer server = new MemoryPorServer(k, 1, blockBytes);
        RemotePorServer remote = serve(server);
        assertThat(remote.pacesCRebuild()).isTrue();
        PorClient client = PorClient.initialize(remote, MASTER_KEY, new SecureRandom(), s -> { });
        byte[][] expected = new byte[1 << k][blockBytes];
        SplittableRandom random = new SplittableRandom(12);
        for (int i = 0; i < (1 << k) + 6; i++) { // an epoch, then three adds of the window
            int index = random.nextInt(1 << k);
            random.nextBytes(expected[index]);
            client.write(index, expected[index].clone());
        }
        assertThat(client.state().window()).isTrue();
        assertThat(server.windowProgress()).isNotNull();
        assertThat(client.audit().passed()).isTrue(); // the old C, the frozen runs (AUDIT_FROZEN), the current runs
        server.storage().setU(5, null);
        client.repair(List.of(5));
        assertThat(client.read(5)).isEqualTo(expected[5]);
        while (server.windowProgress() != null) {
            client.write(0, expected[0]);
        }
        assertThat(client.audit().passed()).isTrue(); // the new C
        assertThatThrownBy(() -> remote.auditFrozen(new AuditChallenge(List.of(BlockAddress.h(0, Part.X, 0)),
                new int[] {1}))).hasMessageContaining("no paced C rebuild");
    }

    @Test
    void aClientBehindTheServerResyncsOverASocket() throws Exception {
        int k = 5;
        int blockBytes = 24;
        MemoryPorServer server = new MemoryPorServer(k, 1, blockBytes);
        RemotePorServer remote = serve(server);
        PorClient client = PorClient.initialize(remote, MASTER_KEY, new SecureRandom(), s -> { });
        byte[][] expected = new byte[1 << k][];
        SplittableRandom random = new SplittableRandom(9);
        for (int i = 0; i < 7; i++) {
            expected[i] = new byte[blockBytes];
            random.nextBytes(expected[i]);
            client.write(i, expected[i]);
        }
        PorClient restarted = new PorClient(remote, client.state(), new SecureRandom(), s -> { });
        client.write(7, expected[0]); // the server is one write, and one batch, ahead of restarted
        expected[7] = expected[0];
        assertThatThrownBy(() -> restarted.read(1)).isInstanceOf(PorVerificationException.class);

        restarted.resync();

        assertThat(restarted.state().hLog().epoch()).isEqualTo(server.state().epoch()).isEqualTo(3);
        assertThat(restarted.audit().passed()).isTrue();
        for (int i = 0; i < 1 << k; i++) {
            assertThat(restarted.read(i)).isEqualTo(expected[i] == null ? new byte[blockBytes] : expected[i]);
        }
        restarted.write(9, expected[1]);
        restarted.flush();
        assertThat(restarted.audit().passed()).isTrue();
        assertThat(restarted.read(9)).isEqualTo(expected[1]);
    }

    @Test
    void writesOverwritesDeletesAuditsReadsAndRepairPassOverASocket() throws Exception {
        int k = 7;
        int blockBytes = 40;
        MemoryPorServer server = new MemoryPorServer(k, 1, blockBytes);
        RemotePorServer remote = serve(server);
        assertThat(remote.parameters()).isEqualTo(new ServerParameters(k, 1, blockBytes));
        PorClient client = PorClient.initialize(remote, MASTER_KEY, new SecureRandom(), s -> { });
        byte[][] expected = new byte[1 << k][];
        SplittableRandom random = new SplittableRandom(5);
        int audits = 0;
        for (int op = 1; op <= 600; op++) {
            int index = random.nextInt(4) == 0 ? random.nextInt(8) : random.nextInt(1 << k);
            byte[] block = new byte[blockBytes];
            if (random.nextInt(10) != 0) { // one in ten is a delete: the zero block
                random.nextBytes(block);
            }
            client.write(index, block);
            expected[index] = block;
            int probe = random.nextInt(1 << k);
            assertThat(client.read(probe)).isEqualTo(expected[probe] == null ? new byte[blockBytes] : expected[probe]);
            if (op % 100 == 0) {
                AuditVerdict verdict = client.audit();
                assertThat(verdict.passed()).as("audit after %d writes: %s", op, verdict.reason()).isTrue();
                audits++;
            }
        }
        client.flush();
        assertThat(client.audit().passed()).isTrue();
        assertThat(audits).isEqualTo(6);

        List<Integer> damaged = List.of(3, 17, 64, 100, 127);
        for (int i : damaged) {
            server.storage().setU(i, null);
        }
        assertThatThrownBy(() -> client.read(17)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("lost");
        client.repair(damaged);
        for (int i = 0; i < 1 << k; i++) {
            assertThat(client.read(i)).isEqualTo(expected[i] == null ? new byte[blockBytes] : expected[i]);
        }
    }

    @Test
    void aCorruptedBlockOfCBehindTheSocketFailsTheAudit() throws Exception {
        MemoryPorServer server = new MemoryPorServer(6, 32); // C holds 128 = lambda code blocks: all sampled
        PorClient client = PorClient.initialize(serve(server), MASTER_KEY, new SecureRandom(), s -> { });
        SplittableRandom random = new SplittableRandom(9);
        for (int i = 0; i < 64 + 5; i++) {
            byte[] block = new byte[32];
            random.nextBytes(block);
            client.write(random.nextInt(64), block);
        }
        assertThat(client.audit().passed()).isTrue();
        MemoryLevelStore c = server.storage().cVectors();
        int[] v = new int[c.width()];
        c.read(server.storage().cParameters().cLevel(), Part.Y, 33, v);
        v[0] = Zp.add(v[0], 1);
        c.write(server.storage().cParameters().cLevel(), Part.Y, 33, v);
        AuditVerdict verdict = client.audit();
        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.reason()).contains("does not match");
    }

    @Test
    void aBlockCorruptedBehindTheSocketIsRejectedOnRead() throws Exception {
        MemoryPorServer server = new MemoryPorServer(5, 32);
        PorClient client = PorClient.initialize(serve(server), MASTER_KEY, new SecureRandom(), s -> { });
        client.write(4, new byte[32]);
        server.storage().u(4)[0] ^= 1;
        assertThatThrownBy(() -> client.read(4)).isInstanceOf(PorVerificationException.class);
    }

    @Test
    void whatTheServerRefusesComesBackAsTheSameExceptionAndTheConnectionGoesOn() throws Exception {
        MemoryPorServer server = new MemoryPorServer(5, 32);
        RemotePorServer remote = serve(server);
        PorClient.initialize(remote, MASTER_KEY, new SecureRandom(), s -> { });
        assertThatThrownBy(() -> remote.sealedInputs(3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the next add of H is 1");
        assertThatThrownBy(() -> remote.write(1, new byte[31], new byte[48], null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(remote.read(0).block()).isEqualTo(new byte[32]);
    }

    @Test
    void aClientWithAnotherKeyIsRefused() throws Exception {
        MemoryPorServer server = new MemoryPorServer(5, 32);
        PorNetServer net = PorNetServer.start(server, SESSION_KEY, new InetSocketAddress("127.0.0.1", 0),
                PorNetServer.Limits.DEFAULT);
        open.add(net);
        byte[] otherKey = SESSION_KEY.clone();
        otherKey[0] ^= 1;
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", net.port());
        // the server's CHALLENGE does not verify under the wrong key: the client refuses the server
        assertThatThrownBy(() -> RemotePorServer.connect(address, otherKey, Duration.ofSeconds(10)))
                .isInstanceOf(PorTransportException.class).hasMessageContaining("bad MAC");
    }

    @Test
    void aDecodeLargerThanOneFrameIsSplitIntoSeveralRequests() throws Exception {
        // blocks of 64 KiB: a 1 MiB frame holds 15 of them, and C over 32 blocks must be decoded in 3 requests
        MemoryPorServer server = new MemoryPorServer(5, 1 << 16);
        RemotePorServer remote = serve(server);
        assertThat(remote.parameters().maxDecodeCount()).isLessThan(32);
        PorClient client = PorClient.initialize(remote, MASTER_KEY, new SecureRandom(), s -> { });
        List<Integer> all = writeMarkedBlocks(client, 32);
        for (int i : all) {
            server.storage().setU(i, null);
        }
        client.repair(all);
        assertThat(client.read(20)[20]).isEqualTo((byte) 21);

        // repairAll: one PREPARE_DECODE for the set, then the pages from the server's spool
        for (int i : all) {
            server.storage().setU(i, null);
        }
        assertThat(client.repairAll(all)).isEmpty();
        for (int i : all) {
            assertThat(client.read(i)[i]).isEqualTo((byte) (i + 1));
        }
    }

    @Test
    void aBatchedReadLargerThanOneFrameIsSplitIntoSeveralRequestsAndEachBlockVerifies() throws Exception {
        MemoryPorServer server = new MemoryPorServer(5, 1 << 16);
        RemotePorServer remote = serve(server);
        PorClient client = PorClient.initialize(remote, MASTER_KEY, new SecureRandom(), s -> { });
        List<Integer> all = writeMarkedBlocks(client, 32);
        Collections.reverse(all); // any order: the answers come back in the order asked
        List<PorClient.Fetched> fetched = client.fetchAll(all);
        assertThat(fetched).hasSize(32);
        for (PorClient.Fetched f : fetched) {
            assertThat(client.check(f)[f.index()]).isEqualTo((byte) (f.index() + 1));
        }
        server.storage().u(7)[0] ^= 1;
        PorClient.Fetched damaged = client.fetchAll(List.of(6, 7)).get(1);
        assertThatThrownBy(() -> client.check(damaged)).isInstanceOf(PorVerificationException.class);
    }

    @Test
    void aRangeReadGoesAsPipelinedPartsAndAPartRefusedLeavesTheConnectionInStep() throws Exception {
        MemoryPorServer server = new MemoryPorServer(5, 32);
        RemotePorServer remote = serve(server);
        PorClient client = PorClient.initialize(remote, MASTER_KEY, new SecureRandom(), s -> { });
        List<Integer> range = new ArrayList<>();
        for (int i = 0; i < 3 * RemotePorServer.READ_PART + 1; i++) { // four parts, all sent before any answer
            byte[] block = new byte[32];
            block[0] = (byte) (i + 1);
            client.write(i, block);
            range.add(i);
        }
        for (PorClient.Fetched f : client.fetchAll(range)) {
            assertThat(client.check(f)[0]).isEqualTo((byte) (f.index() + 1));
        }
        server.storage().setU(RemotePorServer.READ_PART + 1, null); // lost: the second part is refused
        assertThatThrownBy(() -> remote.readBlocks(range)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("lost");
        // the answers to the parts after the refused one were read: the next calls get their own answers
        assertThat(client.read(range.size() - 1)[0]).isEqualTo((byte) range.size());
        assertThat(client.fetchAll(range.subList(0, RemotePorServer.READ_PART))).hasSize(RemotePorServer.READ_PART);
    }

    /** Writes blocks 0 .. count - 1 of 64 KiB, block i marked with i + 1 at byte i; returns their indices. */
    private static List<Integer> writeMarkedBlocks(PorClient client, int count) {
        List<Integer> indices = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] block = new byte[1 << 16];
            block[i] = (byte) (i + 1);
            client.write(i, block);
            indices.add(i);
        }
        return indices;
    }

    /**
     * A grow over the socket (protocol version 3's GROW): from 2^3 to 2^14 blocks, whose C's checksums (1.5 MiB) are
     * a frame longer than any other the session at k = 3 accepts; then both sides use the bounds of k = 14, and a new
     * connection's handshake states it. Then it shrinks back to 2^3 (the same message), once every index from 8 on is
     * empty again.
     */
    @Test
    void aClientGrowsTheServerOverASocketBeyondTheOldFrameLimitAndShrinksItBack() throws Exception {
        int blockBytes = 24;
        MemoryPorServer server = new MemoryPorServer(3, 1, blockBytes, 14);
        PorNetServer net = PorNetServer.start(server, SESSION_KEY, new InetSocketAddress("127.0.0.1", 0),
                PorNetServer.Limits.DEFAULT);
        open.add(net);
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", net.port());
        ReconnectingPorServer remote = new ReconnectingPorServer(() -> RemotePorServer.connect(address, SESSION_KEY,
                Duration.ofSeconds(30)));
        open.add(remote);
        assertThat(remote.maxK()).isEqualTo(14);
        PorClient client = PorClient.initialize(remote, MASTER_KEY, new SecureRandom(), s -> { });
        SplittableRandom random = new SplittableRandom(11);
        byte[][] expected = new byte[1 << 14][];
        for (int i = 0; i < 8; i++) {
            expected[i] = new byte[blockBytes];
            random.nextBytes(expected[i]);
            client.write(i, expected[i]);
        }
        assertThat(new ServerParameters(3, 1, blockBytes).maxFrameBytes())
                .isLessThan(new PorCodec(new ServerParameters(3, 1, blockBytes)).grow(14, 3, sealedC(14)).length);

        client.grow(14);

        assertThat(server.k()).isEqualTo(14);
        assertThat(remote.k()).isEqualTo(14);
        expected[10_000] = new byte[blockBytes];
        random.nextBytes(expected[10_000]);
        client.write(10_000, expected[10_000]);
        client.flush();
        assertThat(client.audit().passed()).isTrue();
        for (int i : new int[] {0, 3, 7, 8, 9_999, 10_000, (1 << 14) - 1}) {
            assertThat(client.read(i)).isEqualTo(expected[i] == null ? new byte[blockBytes] : expected[i]);
        }
        try (RemotePorServer again = RemotePorServer.connect(address, SESSION_KEY, Duration.ofSeconds(30))) {
            assertThat(again.parameters()).isEqualTo(new ServerParameters(14, 1, blockBytes));
        }

        client.write(10_000, new byte[blockBytes]); // deleted: every index from 8 on empty again
        client.shrink(3); // the same GROW message, to a smaller k

        assertThat(server.k()).isEqualTo(3);
        assertThat(remote.k()).isEqualTo(3);
        assertThat(client.audit().passed()).isTrue();
        for (int i = 0; i < 8; i++) {
            assertThat(client.read(i)).isEqualTo(expected[i]);
        }
        try (RemotePorServer again = RemotePorServer.connect(address, SESSION_KEY, Duration.ofSeconds(30))) {
            assertThat(again.parameters()).isEqualTo(new ServerParameters(3, 1, blockBytes));
        }
    }

    /** Sealed checksums of C's size at 2^k blocks (their contents do not matter for a frame's length). */
    private static io.coffer.por.server.SealedLevel sealedC(int k) {
        byte[][] x = new byte[1 << k][];
        for (int i = 0; i < x.length; i++) {
            x[i] = new byte[io.coffer.por.checksum.ChecksumSealer.SEALED_BYTES];
        }
        return new io.coffer.por.server.SealedLevel(k + 1, x, x);
    }
}
