package io.coffer.por.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.server.MemoryPorServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Clients that break the protocol get an error and a closed connection, allocate nothing beyond their frame limit,
 * and the server keeps serving an honest client throughout.
 */
class HostileClientTest {
    private static final byte[] KEY = RemotePorServerTest.SESSION_KEY;
    private static final int K = 5;
    private static final int BLOCK = 32;

    private PorNetServer net;

    @BeforeEach
    void start() throws InterruptedException {
        net = PorNetServer.start(new MemoryPorServer(K, BLOCK), KEY, new InetSocketAddress("127.0.0.1", 0),
                new PorNetServer.Limits(4, 2_000, 60));
    }

    @AfterEach
    void stop() {
        net.close();
    }

    private void anHonestClientIsStillServed() {
        try (RemotePorServer remote = RemotePorServer.connect(new InetSocketAddress("127.0.0.1", net.port()), KEY,
                Duration.ofSeconds(10))) {
            assertThat(remote.read(1).block()).isEqualTo(new byte[BLOCK]);
        }
    }

    private PorCodec.ErrorReply refusedBeforeTheSession(byte[] bytes) throws IOException {
        try (RawConnection c = new RawConnection(net.port())) {
            c.sendBytes(bytes);
            PorCodec.ErrorReply error = c.receiveError(false);
            assertThat(c.closedByServer()).isTrue();
            return error;
        }
    }

    private PorCodec.ErrorReply refusedInTheSession(MessageType type, byte[] payload) throws IOException {
        try (RawConnection c = new RawConnection(net.port()).handshake(KEY)) {
            c.sendSigned(type, payload);
            PorCodec.ErrorReply error = c.receiveError(true);
            assertThat(c.closedByServer()).isTrue();
            return error;
        }
    }

    private static byte[] framed(int length, byte... rest) {
        byte[] out = new byte[4 + rest.length];
        out[0] = (byte) (length >>> 24);
        out[1] = (byte) (length >>> 16);
        out[2] = (byte) (length >>> 8);
        out[3] = (byte) length;
        System.arraycopy(rest, 0, out, 4, rest.length);
        return out;
    }

    @Test
    void aHugeLengthBeforeTheHandshakeIsRefusedUnread() throws IOException {
        PorCodec.ErrorReply error = refusedBeforeTheSession(framed(Integer.MAX_VALUE, (byte) 1, (byte) 1));
        assertThat(error.kind()).isEqualTo(ErrorKind.PROTOCOL);
        assertThat(error.message()).contains("frame length 2147483647");
        anHonestClientIsStillServed();
    }

    @Test
    void aNegativeOrTinyLengthIsRefused() throws IOException {
        assertThat(refusedBeforeTheSession(framed(-5)).message()).contains("frame length -5");
        assertThat(refusedBeforeTheSession(framed(1, (byte) 1)).message()).contains("frame length 1");
        anHonestClientIsStillServed();
    }

    @Test
    void aWrongVersionOrUnknownTypeOrRequestBeforeHelloIsRefused() throws IOException {
        assertThat(refusedBeforeTheSession(framed(34, new byte[34])).message()).contains("version 0");
        byte[] unknown = new byte[34];
        unknown[0] = Frames.VERSION;
        unknown[1] = (byte) 99;
        assertThat(refusedBeforeTheSession(framed(34, unknown)).message()).contains("unknown message type 99");
        byte[] read = {Frames.VERSION, MessageType.READ.code(), 0, 0, 0, 1};
        assertThat(refusedBeforeTheSession(framed(read.length, read)).message()).contains("expected HELLO");
        anHonestClientIsStillServed();
    }

    @Test
    void aWrongKeyIsRefusedAtAuth() throws IOException {
        byte[] other = KEY.clone();
        other[5] ^= 1;
        try (RawConnection c = new RawConnection(net.port())) {
            // the HELLO is answered, but the challenge's MAC fails under the wrong key: send AUTH anyway
            try {
                c.handshake(other);
            } catch (MalformedFrameException expected) {
                assertThat(expected.getMessage()).contains("bad MAC");
            }
        }
        try (RawConnection c = new RawConnection(net.port())) {
            c.sendRaw(Frames.body(MessageType.HELLO, new byte[SessionMac.NONCE_BYTES], null));
            c.readBody(); // the challenge
            c.sendRaw(Frames.body(MessageType.AUTH, new byte[0], new byte[SessionMac.BYTES]));
            assertThat(c.receiveError(false).message()).contains("bad MAC");
            assertThat(c.closedByServer()).isTrue();
        }
        anHonestClientIsStillServed();
    }

    @Test
    void aFrameWithABadMacInTheSessionIsRefused() throws IOException {
        try (RawConnection c = new RawConnection(net.port()).handshake(KEY)) {
            c.sendRaw(Frames.body(MessageType.READ, new byte[4], new byte[SessionMac.BYTES]));
            assertThat(c.receiveError(true).message()).contains("bad MAC on a READ frame");
            assertThat(c.closedByServer()).isTrue();
        }
        anHonestClientIsStillServed();
    }

    @Test
    void anIndexOutOfRangeIsRefusedAndTheConnectionClosed() throws IOException {
        PorCodec.ErrorReply error = refusedInTheSession(MessageType.READ, new byte[] {0, 0, 0, 32});
        assertThat(error.kind()).isEqualTo(ErrorKind.PROTOCOL);
        assertThat(error.message()).contains("block index 32 outside [0, 31]");
        assertThat(refusedInTheSession(MessageType.READ, new byte[] {(byte) 0x80, 0, 0, 0}).message())
                .contains("block index -2147483648");
        anHonestClientIsStillServed();
    }

    @Test
    void truncatedAndTrailingPayloadsAreRefused() throws IOException {
        assertThat(refusedInTheSession(MessageType.READ, new byte[] {0, 0}).message()).contains("truncated");
        assertThat(refusedInTheSession(MessageType.READ, new byte[] {0, 0, 0, 1, 7}).message())
                .contains("after the last field");
        byte[] write = new byte[4 + BLOCK + 10]; // the sealed checksum cut short
        assertThat(refusedInTheSession(MessageType.WRITE, write).message()).contains("truncated");
        anHonestClientIsStillServed();
    }

    @Test
    void countsBeyondTheParametersAreRefusedBeforeAllocation() throws IOException {
        // an add beyond the epoch, an add claiming 2^30 vectors, a decode of 2^31 - 1 blocks, an audit of 2^31 - 1
        // samples
        byte[] flush = new WireWriter(16).flag(true).i32((1 << K) + 1).i32(1).toBytes();
        assertThat(refusedInTheSession(MessageType.FLUSH, flush).message()).contains("add count 33 outside [1, 32]")
                .doesNotContain("truncated");
        byte[] flush2 = new WireWriter(16).flag(true).i32(3).i32(1 << 30).toBytes();
        assertThat(refusedInTheSession(MessageType.FLUSH, flush2).message())
                .contains("vectors of an add 1073741824 outside [0, 9]");
        byte[] inputs = new WireWriter(4).i32(Integer.MAX_VALUE).toBytes();
        assertThat(refusedInTheSession(MessageType.SEALED_INPUTS, inputs).message()).contains("add count");
        byte[] decode = new WireWriter(4).i32(Integer.MAX_VALUE).toBytes();
        assertThat(refusedInTheSession(MessageType.DECODE, decode).message()).contains("blocks to decode");
        assertThat(refusedInTheSession(MessageType.READ_BLOCKS, decode).message()).contains("blocks to read");
        assertThat(refusedInTheSession(MessageType.LEAVES, decode).message()).contains("leaves");
        byte[] audit = new WireWriter(4).i32(Integer.MAX_VALUE).toBytes();
        assertThat(refusedInTheSession(MessageType.AUDIT, audit).message()).contains("audit samples");
        anHonestClientIsStillServed();
    }

    @Test
    void aResponseTypeSentAsARequestIsRefused() throws IOException {
        assertThat(refusedInTheSession(MessageType.OK, new byte[0]).message()).contains("OK is not a request");
        assertThat(refusedInTheSession(MessageType.HELLO, new byte[32]).message()).contains("not a request");
        anHonestClientIsStillServed();
    }

    @Test
    void aFrameLongerThanTheSessionLimitIsRefusedUnread() throws IOException {
        int limit = new ServerParameters(K, 0, BLOCK).maxFrameBytes();
        try (RawConnection c = new RawConnection(net.port()).handshake(KEY)) {
            c.sendBytes(framed(limit + 1, Frames.VERSION, MessageType.WRITE.code()));
            assertThat(c.receiveError(true).message()).contains("frame length " + (limit + 1));
            assertThat(c.closedByServer()).isTrue();
        }
        anHonestClientIsStillServed();
    }

    @Test
    void aGrowBeyondTheServersLargestKOrToItsOwnKIsRefusedAndOnlyAGrowMayExceedTheSessionLimit() throws IOException {
        assertThat(refusedInTheSession(MessageType.GROW, new byte[] {21}).message()).contains("to k = 21");
        assertThat(refusedInTheSession(MessageType.GROW, new byte[] {K}).message()).contains("to k = " + K);
        int limit = new ServerParameters(K, 0, BLOCK).maxFrameBytes();
        int growLimit = new ServerParameters(ServerParameters.MAX_K, 0, BLOCK).maxFrameBytes() + 1;
        try (RawConnection c = new RawConnection(net.port()).handshake(KEY)) {
            c.sendBytes(framed(growLimit + 1, Frames.VERSION, MessageType.GROW.code()));
            assertThat(c.receiveError(true).message()).contains("frame length " + (growLimit + 1) + " outside [2, "
                    + growLimit + "]");
        }
        try (RawConnection c = new RawConnection(net.port()).handshake(KEY)) {
            c.sendBytes(framed(limit + 1, Frames.VERSION, MessageType.RESYNC.code()));
            assertThat(c.receiveError(true).message()).contains("outside [2, " + limit + "]");
        }
        anHonestClientIsStillServed();
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws IOException {
        try (RawConnection c = new RawConnection(net.port()).handshake(KEY)) {
            for (int i = 0; i < 20; i++) {
                c.sendSigned(MessageType.LEAF, new byte[] {0, 0, 0, (byte) i});
            }
            PorCodec codec = new PorCodec(new ServerParameters(K, 0, BLOCK));
            for (int i = 0; i < 20; i++) {
                Frames.Frame f = c.receiveSigned();
                assertThat(f.type()).isEqualTo(MessageType.LEAF_PROOF);
                assertThat(codec.readLeafProof(f.payload()).index()).isEqualTo(i);
            }
        }
    }

    @Test
    void aStalledHandshakeIsClosedAndConnectionsBeyondTheLimitAreRefused() throws IOException {
        try (RawConnection idle = new RawConnection(net.port())) {
            idle.sendBytes(new byte[] {0, 0}); // half a length, then nothing
            assertThat(idle.receiveError(false).message()).contains("no handshake within 2000 ms");
            assertThat(idle.closedByServer()).isTrue();
        }
        RawConnection[] held = new RawConnection[4];
        try {
            for (int i = 0; i < held.length; i++) {
                held[i] = new RawConnection(net.port()).handshake(KEY);
            }
            try (RawConnection extra = new RawConnection(net.port())) {
                assertThat(extra.closedByServer()).isTrue();
            }
        } finally {
            for (RawConnection c : held) {
                if (c != null) {
                    c.close();
                }
            }
        }
    }
}
