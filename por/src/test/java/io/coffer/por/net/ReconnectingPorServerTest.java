package io.coffer.por.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.PorVerificationException;
import io.coffer.por.client.PorClient;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.server.MemoryPorServer;
import io.coffer.por.server.PorServer;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A lost connection to the PoR server is replaced on the next call, and the client carries on (its paced part of
 * C's rebuild too: SNAPSHOT_U and NEXT_SEALED_C are retried); a server that comes
 * back resized is reached where the resize could have been this side's (larger, or down to a shrink sent through it).
 */
class ReconnectingPorServerTest {
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private PorNetServer start(MemoryPorServer server, int idleSeconds) throws InterruptedException {
        PorNetServer net = PorNetServer.start(server, RemotePorServerTest.SESSION_KEY,
                new InetSocketAddress("127.0.0.1", 0), new PorNetServer.Limits(32, 10_000, idleSeconds));
        open.add(net);
        return net;
    }

    private ReconnectingPorServer connect(AtomicReference<InetSocketAddress> address) {
        ReconnectingPorServer server = new ReconnectingPorServer(() -> RemotePorServer.connect(address.get(),
                RemotePorServerTest.SESSION_KEY, Duration.ofSeconds(30)));
        open.add(server);
        return server;
    }

    private static byte[] block(int i) {
        byte[] block = new byte[32];
        block[0] = (byte) i;
        block[31] = (byte) (i * 7);
        return block;
    }

    @Test
    void aConnectionTheServerClosedWhenIdleIsReplacedAndTheClientCarriesOn() throws Exception {
        MemoryPorServer server = new MemoryPorServer(5, 32);
        PorNetServer net = start(server, 1); // the server closes a connection idle for a second
        ReconnectingPorServer remote = connect(new AtomicReference<>(new InetSocketAddress("127.0.0.1", net.port())));
        PorClient client = PorClient.initialize(remote, RemotePorServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        for (int i = 0; i < 10; i++) {
            client.write(i, block(i));
        }
        assertThat(remote.reconnects()).isZero();

        Thread.sleep(2_500);
        assertThat(client.read(3)).isEqualTo(block(3));
        assertThat(remote.reconnects()).isEqualTo(1);
        Thread.sleep(2_500);
        client.write(10, block(10)); // its first call finds the connection closed, and reconnects
        assertThat(remote.reconnects()).isEqualTo(2);
        assertThat(client.audit().passed()).isTrue();
        assertThat(client.read(10)).isEqualTo(block(10));
    }

    @Test
    void theClientsPacedPartCarriesOnOverReplacedConnections() throws Exception {
        int k = 5;
        MemoryPorServer server = new MemoryPorServer(k, 32);
        PorNetServer net = start(server, 1);
        ReconnectingPorServer remote = connect(new AtomicReference<>(new InetSocketAddress("127.0.0.1", net.port())));
        PorClient client = PorClient.initialize(remote, RemotePorServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        byte[][] expected = new byte[1 << k][];
        for (int i = 0; i < 1 << k; i++) { // the last write ends the epoch: a window whose part the client owes
            expected[i] = block(i);
            client.write(i, expected[i]);
        }
        assertThat(client.state().clientPartPending()).isTrue();
        long switching = PacedCRebuild.stepsToComplete(k); // b = 0: one add a write
        int written = 0;
        while (client.state().hLog().t() < switching) {
            long t = client.state().hLog().t();
            if (t == 0 || t == switching - 2) { // the part's first call (SNAPSHOT_U), one of its last (NEXT_SEALED_C)
                assertThat(client.state().clientPartPending()).as("at add %d", t).isTrue(); // its call comes first
                int before = remote.reconnects();
                Thread.sleep(2_500);
                client.write(written % (1 << k), block(100 + written));
                assertThat(remote.reconnects()).as("at add %d", t).isEqualTo(before + 1);
            } else {
                client.write(written % (1 << k), block(100 + written));
            }
            expected[written % (1 << k)] = block(100 + written);
            written++;
        }
        assertThat(client.state().clientPartPending()).isFalse();
        assertThat(client.audit().passed()).isTrue();
        for (int i = 0; i < 1 << k; i++) {
            assertThat(client.read(i)).isEqualTo(expected[i]);
        }
    }

    @Test
    void aRestartedServerIsReachedAgainOneWithOtherParametersIsRefusedAndALargerOneFollowed() throws Exception {
        MemoryPorServer server = new MemoryPorServer(5, 32);
        PorNetServer first = start(server, 600);
        AtomicReference<InetSocketAddress> address = new AtomicReference<>(
                new InetSocketAddress("127.0.0.1", first.port()));
        ReconnectingPorServer remote = connect(address);
        PorClient client = PorClient.initialize(remote, RemotePorServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        client.write(4, block(4));

        first.close(); // the server restarts (here: on another port)
        PorNetServer second = start(server, 600);
        address.set(new InetSocketAddress("127.0.0.1", second.port()));
        assertThat(client.read(4)).isEqualTo(block(4));
        assertThat(remote.reconnects()).isEqualTo(1);

        second.close();
        PorNetServer smaller = start(new MemoryPorServer(4, 32), 600);
        address.set(new InetSocketAddress("127.0.0.1", smaller.port()));
        assertThatThrownBy(() -> client.read(4)).isInstanceOf(PorTransportException.class)
                .hasMessageContaining("other parameters");

        // a larger k is a server that grew (a grow whose answer was lost): reached, and the client's checks fail
        // until it resynchronises to it
        smaller.close();
        address.set(new InetSocketAddress("127.0.0.1", start(new MemoryPorServer(6, 32), 600).port()));
        assertThatThrownBy(() -> client.read(4)).isInstanceOf(PorVerificationException.class);
        assertThat(remote.k()).isEqualTo(6);
    }

    @Test
    void aServerThatShrankWithoutAnsweringIsReachedAgainAtTheSmallerKAndTheClientFollowsIt() throws Exception {
        MemoryPorServer server = new MemoryPorServer(5, 32);
        PorServer answerLost = (PorServer) java.lang.reflect.Proxy.newProxyInstance(PorServer.class.getClassLoader(),
                new Class<?>[] {PorServer.class}, (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(server, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (method.getName().equals("resize")) {
                        throw new IllegalStateException("the server died before it answered");
                    }
                    return result;
                });
        PorNetServer first = PorNetServer.start(answerLost, RemotePorServerTest.SESSION_KEY,
                new InetSocketAddress("127.0.0.1", 0), new PorNetServer.Limits(32, 10_000, 600));
        open.add(first);
        AtomicReference<InetSocketAddress> address = new AtomicReference<>(
                new InetSocketAddress("127.0.0.1", first.port()));
        ReconnectingPorServer remote = connect(address);
        PorClient client = PorClient.initialize(remote, RemotePorServerTest.MASTER_KEY, new SecureRandom(), s -> { });
        client.write(4, block(4));

        assertThatThrownBy(() -> client.shrink(4)).hasMessageContaining("died");
        assertThat(server.k()).isEqualTo(4);
        first.close(); // the server restarts at the smaller k
        address.set(new InetSocketAddress("127.0.0.1", start(server, 600).port()));

        client.resync(4); // reached although smaller than the connection's k: a shrink went through it
        assertThat(remote.k()).isEqualTo(4);
        assertThat(client.state().k()).isEqualTo(4);
        assertThat(client.read(4)).isEqualTo(block(4));
        assertThat(client.audit().passed()).isTrue();
    }
}
