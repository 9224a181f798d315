package io.coffer.por.net;

import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.audit.AuditResponse;
import io.coffer.por.code.LogState;
import io.coffer.por.server.LeafProof;
import io.coffer.por.server.PorServer;
import io.coffer.por.server.ProvenBlock;
import io.coffer.por.server.SealedLevel;
import io.coffer.por.server.SealedVectors;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A PoR server across the network, for {@link io.coffer.por.client.PorClient}: each call is one request and one
 * response (a range read several, pipelined) over one authenticated connection, blocking, with a timeout. What the
 * server refuses comes back as the exception the in-process server throws ({@link IllegalArgumentException},
 * {@link IllegalStateException}); a lost connection, a timeout, a bad MAC or a broken frame is a
 * {@link PorTransportException}, after which this connection is closed and every further call fails: connect again.
 * Thread-safe (calls are serialised).
 */
public final class RemotePorServer implements PorServer, AutoCloseable {
    /** Blocks per READ_BLOCKS request of a range: a 1 MiB range of 64 KiB blocks goes as four or five requests. */
    static final int READ_PART = 4;
    /** Requests sent ahead of the answer being read: enough to keep the server busy, few enough to stay buffered. */
    static final int IN_FLIGHT = 8;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final SessionMac mac;
    /** The codec of the server's k: replaced after a grow. */
    private PorCodec codec;
    private final int maxK;
    private final String peer;
    private boolean broken;

    private RemotePorServer(Socket socket, InputStream in, OutputStream out, SessionMac mac, ServerParameters params,
            int maxK) {
        this.maxK = maxK;
        this.socket = socket;
        this.in = in;
        this.out = out;
        this.mac = mac;
        this.codec = new PorCodec(params);
        this.peer = String.valueOf(socket.getRemoteSocketAddress());
    }

    /**
     * Connects and runs the handshake: the server proves it holds {@code sharedKey} (its CHALLENGE is MAC'd over both
     * nonces) and tells its parameters; this side proves it with AUTH. {@code timeout} bounds the connect and every
     * call (a C rebuild of a large store takes minutes: size it for that).
     */
    public static RemotePorServer connect(InetSocketAddress address, byte[] sharedKey, Duration timeout) {
        Socket socket = new Socket();
        try {
            int millis = Math.toIntExact(Math.max(1, timeout.toMillis()));
            socket.connect(address, millis);
            socket.setSoTimeout(millis);
            socket.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
            OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
            byte[] clientNonce = new byte[SessionMac.NONCE_BYTES];
            new SecureRandom().nextBytes(clientNonce);
            Frames.write(out, Frames.body(MessageType.HELLO, clientNonce, null));
            byte[] body = Frames.read(in, Frames.HANDSHAKE_LIMIT);
            if (body.length > 1 && MessageType.of(body[1]) == MessageType.ERROR) {
                throw refusal(Frames.parse(body, false), address);
            }
            Frames.Frame challenge = Frames.parse(body, true);
            if (challenge.type() != MessageType.CHALLENGE) {
                throw new MalformedFrameException("expected CHALLENGE, got " + challenge.type());
            }
            WireReader r = new WireReader(challenge.payload());
            byte[] serverNonce = r.bytes(SessionMac.NONCE_BYTES);
            int k = r.u8();
            int b = r.u8();
            int blockBytes = r.i32();
            int maxK = r.u8();
            r.end();
            SessionMac mac = SessionMac.client(sharedKey, clientNonce, serverNonce);
            mac.verify(challenge.type(), challenge.payload(), challenge.mac());
            ServerParameters params = parameters(k, b, blockBytes);
            if (maxK < k || maxK > ServerParameters.MAX_K) {
                throw new MalformedFrameException("the server grows to k = " + maxK + ", its k is " + k);
            }
            Frames.write(out, Frames.body(MessageType.AUTH, Message.EMPTY, mac.sign(MessageType.AUTH, Message.EMPTY)));
            return new RemotePorServer(socket, in, out, mac, params, maxK);
        } catch (IOException | RuntimeException e) {
            closeQuietly(socket);
            if (e instanceof PorTransportException t) {
                throw t;
            }
            throw new PorTransportException("PoR server " + address + ": handshake failed: " + e.getMessage(), e);
        }
    }

    /** The server's parameters, as its handshake stated them. */
    public ServerParameters parameters() {
        return codec.parameters();
    }

    @Override
    public int blockBytes() {
        return codec.parameters().blockBytes();
    }

    @Override
    public int k() {
        return codec.parameters().k();
    }

    @Override
    public int batchExponent() {
        return codec.parameters().batchExponent();
    }

    @Override
    public int maxK() {
        return maxK;
    }

    /**
     * The server grows or shrinks (GROW); then this side's bounds are those of the new k (as a new handshake would
     * state them).
     */
    @Override
    public void resize(int k, long epoch, SealedLevel c) {
        if (k == k() || k < batchExponent() || k > maxK) {
            throw new IllegalArgumentException("the server resizes from k = " + k() + " within [" + batchExponent()
                    + ", " + maxK + "], not to " + k);
        }
        ok(call(MessageType.GROW, codec.grow(k, epoch, c), MessageType.OK));
        codec = codec.at(k);
    }

    @Override
    public ProvenBlock read(int index) {
        byte[] payload = call(MessageType.READ, codec.index(index), MessageType.PROVEN_BLOCK);
        return parse(() -> codec.readProvenBlock(payload));
    }

    /** Reads in requests of at most {@link ServerParameters#maxDecodeCount()} blocks, so each answer fits a frame. */
    @Override
    public List<ProvenBlock> readBlocks(List<Integer> indices) {
        return provenBlocks(MessageType.READ_BLOCKS, indices, codec::readBlocks, "read");
    }

    @Override
    public LeafProof leaf(int index) {
        byte[] payload = call(MessageType.LEAF, codec.index(index), MessageType.LEAF_PROOF);
        return parse(() -> codec.readLeafProof(payload));
    }

    /** Asks in requests of at most {@link ServerParameters#maxLeafCount()} leaves, so each answer fits a frame. */
    @Override
    public List<LeafProof> leaves(List<Integer> indices) {
        int chunk = codec.parameters().maxLeafCount();
        List<LeafProof> out = new ArrayList<>(indices.size());
        for (int from = 0; from < indices.size(); from += chunk) {
            List<Integer> part = indices.subList(from, Math.min(indices.size(), from + chunk));
            byte[] payload = call(MessageType.LEAVES, codec.leaves(part), MessageType.LEAF_PROOFS);
            List<LeafProof> leaves = parse(() -> codec.readLeafProofs(payload));
            if (leaves.size() != part.size()) {
                throw transportFailure("asked for " + part.size() + " leaves, got " + leaves.size(), null);
            }
            out.addAll(leaves);
        }
        return out;
    }

    @Override
    public SealedVectors sealedInputs(int count) {
        byte[] payload = call(MessageType.SEALED_INPUTS, codec.addCount(count), MessageType.SEALED_VECTORS);
        return parse(() -> codec.readSealedVectors(payload));
    }

    @Override
    public void write(int index, byte[] block, byte[] sealedChecksum, SealedVectors written) {
        ok(call(MessageType.WRITE, codec.write(index, block, sealedChecksum, written), MessageType.OK));
    }

    @Override
    public void flush(SealedVectors written) {
        ok(call(MessageType.FLUSH, codec.flush(written), MessageType.OK));
    }

    @Override
    public List<byte[]> sealedU() {
        byte[] payload = call(MessageType.SEALED_U, Message.EMPTY, MessageType.SEALED_LIST);
        return parse(() -> codec.readSealedList(payload));
    }

    @Override
    public void rebuildC(SealedLevel c) {
        ok(call(MessageType.REBUILD_C, codec.rebuildC(c), MessageType.OK));
    }

    @Override
    public LogState logState() {
        byte[] payload = call(MessageType.LOG_STATE, Message.EMPTY, MessageType.STATE);
        return parse(() -> codec.readLogState(payload));
    }

    @Override
    public void resync(long epoch, SealedLevel c) {
        ok(call(MessageType.RESYNC, codec.resync(epoch, c), MessageType.OK));
    }

    @Override
    public AuditResponse audit(AuditChallenge challenge) {
        byte[] payload = call(MessageType.AUDIT, codec.audit(challenge), MessageType.AUDIT_RESPONSE);
        return parse(() -> codec.readAuditResponse(payload));
    }

    @Override
    public AuditResponse auditFrozen(AuditChallenge challenge) {
        byte[] payload = call(MessageType.AUDIT_FROZEN, codec.audit(challenge), MessageType.AUDIT_RESPONSE);
        return parse(() -> codec.readAuditResponse(payload));
    }

    @Override
    public boolean pacesCRebuild() {
        byte[] payload = call(MessageType.PACES, Message.EMPTY, MessageType.FLAG);
        return parse(() -> PorCodec.readFlag(payload));
    }

    @Override
    public boolean pacesClientPart() {
        byte[] payload = call(MessageType.PACES_PART, Message.EMPTY, MessageType.FLAG);
        return parse(() -> PorCodec.readFlag(payload));
    }

    @Override
    public void rebuildCPaced() {
        ok(call(MessageType.REBUILD_C_PACED, Message.EMPTY, MessageType.OK));
    }

    @Override
    public List<byte[]> snapshotSealedU(int from, int count) {
        ClientPartCodec part = new ClientPartCodec(codec.parameters());
        byte[] payload = call(MessageType.SNAPSHOT_U, part.range(from, count), MessageType.SEALED_LIST);
        return parse(() -> part.readSnapshot(payload, count));
    }

    @Override
    public void putNextSealedC(int from, byte[][] x, byte[][] y) {
        ok(call(MessageType.NEXT_SEALED_C, new ClientPartCodec(codec.parameters()).nextSealed(from, x, y),
                MessageType.OK));
    }

    @Override
    public void prepareDecode(List<Integer> indices) {
        ok(call(MessageType.PREPARE_DECODE, codec.prepareDecode(indices), MessageType.OK));
    }

    /** Decodes in requests of at most {@link ServerParameters#maxDecodeCount()} blocks, so each answer fits a frame. */
    @Override
    public List<ProvenBlock> decode(List<Integer> indices) {
        return provenBlocks(MessageType.DECODE, indices, codec::decode, "decode");
    }

    /**
     * {@code indices}' blocks asked for with requests of {@code type}, a frame's worth of blocks per request. Reads go
     * in parts of at most {@link #READ_PART} blocks, all sent before the first answer is read: the server reads and
     * signs a part while this side receives and checks the one before (a 1 MiB range was one round trip in which
     * each side waited for the other).
     */
    private List<ProvenBlock> provenBlocks(MessageType type, List<Integer> indices,
            Function<List<Integer>, byte[]> request, String verb) {
        int chunk = codec.parameters().maxDecodeCount();
        if (type == MessageType.READ_BLOCKS) {
            chunk = Math.min(chunk, READ_PART);
        }
        List<List<Integer>> parts = new ArrayList<>();
        List<byte[]> requests = new ArrayList<>();
        int from = 0;
        do {
            List<Integer> part = indices.subList(from, Math.min(indices.size(), from + chunk));
            parts.add(part);
            requests.add(request.apply(part));
            from += chunk;
        } while (from < indices.size());
        List<byte[]> payloads = calls(type, requests, MessageType.PROVEN_BLOCKS);
        List<ProvenBlock> out = new ArrayList<>(indices.size());
        for (int i = 0; i < parts.size(); i++) {
            byte[] payload = payloads.get(i);
            List<ProvenBlock> blocks = parse(() -> codec.readProvenBlocks(payload));
            if (blocks.size() != parts.get(i).size()) {
                throw transportFailure("asked to " + verb + " " + parts.get(i).size() + " blocks, got "
                        + blocks.size(), null);
            }
            out.addAll(blocks);
        }
        return out;
    }

    @Override
    public void restore(int index, byte[] block) {
        ok(call(MessageType.RESTORE, codec.restore(index, block), MessageType.OK));
    }

    @Override
    public synchronized void close() {
        broken = true;
        closeQuietly(socket);
    }

    private byte[] call(MessageType type, byte[] payload, MessageType expected) {
        return calls(type, List.of(payload), expected).get(0);
    }

    /**
     * Requests of {@code type}, up to {@link #IN_FLIGHT} sent ahead of the answer being read, in order (the server
     * answers a connection's requests one at a time, in order). The window keeps the unread requests small: with all of
     * a long list written first, a server blocked writing an answer nobody reads would stop reading requests, and this
     * side would block writing them. When one is refused, the answers to the rest are still read, so the connection
     * stays in step, and the first refusal is thrown.
     */
    private synchronized List<byte[]> calls(MessageType type, List<byte[]> payloads, MessageType expected) {
        if (broken) {
            throw new PorTransportException("PoR server " + peer + ": connection closed");
        }
        List<Frames.Frame> responses = new ArrayList<>(payloads.size());
        try {
            int sent = 0;
            for (int i = 0; i < payloads.size(); i++) {
                for (; sent < payloads.size() && sent < i + IN_FLIGHT; sent++) {
                    byte[] payload = payloads.get(sent);
                    Frames.write(out, Frames.body(type, payload, mac.sign(type, payload)));
                }
                byte[] body = Frames.read(in, codec.parameters().maxFrameBytes());
                Frames.Frame response = Frames.parse(body, true);
                try {
                    mac.verify(response.type(), response.payload(), response.mac());
                } catch (MalformedFrameException e) {
                    if (response.type() == MessageType.ERROR || MessageType.of(body[1]) == MessageType.ERROR) {
                        throw refusal(Frames.parse(body, false), peer); // the server refused the session
                    }
                    throw e;
                }
                responses.add(response);
            }
        } catch (SocketTimeoutException e) {
            throw transportFailure(type + " timed out", e);
        } catch (IOException | MalformedFrameException e) {
            throw transportFailure(type + ": " + e.getMessage(), e);
        } catch (PorTransportException e) {
            close();
            throw e;
        }
        List<byte[]> out = new ArrayList<>(responses.size());
        for (Frames.Frame response : responses) {
            out.add(payload(type, response, expected));
        }
        return out;
    }

    /** The payload of an answer of type {@code expected}; an error answer is thrown as its kind says. */
    private byte[] payload(MessageType type, Frames.Frame response, MessageType expected) {
        if (response.type() == MessageType.ERROR) {
            PorCodec.ErrorReply error = readError(response.payload());
            switch (error.kind()) {
                case REJECTED -> throw new IllegalArgumentException(error.message());
                case STATE -> throw new IllegalStateException(error.message());
                case PROTOCOL -> throw transportFailure("refused " + type + ": " + error.message(), null);
                default -> throw new PorTransportException("PoR server " + peer + " failed on " + type + ": "
                        + error.message());
            }
        }
        if (response.type() != expected) {
            throw transportFailure("answered " + type + " with " + response.type(), null);
        }
        return response.payload();
    }

    private PorCodec.ErrorReply readError(byte[] payload) {
        try {
            return PorCodec.readError(payload);
        } catch (MalformedFrameException e) {
            throw transportFailure("malformed error frame: " + e.getMessage(), e);
        }
    }

    private void ok(byte[] payload) {
        parse(() -> {
            PorCodec.readEmpty(payload);
            return null;
        });
    }

    /** Decodes a response payload; one that breaks the protocol ends the connection. */
    private <T> T parse(Supplier<T> decode) {
        try {
            return decode.get();
        } catch (MalformedFrameException e) {
            throw transportFailure("malformed response: " + e.getMessage(), e);
        }
    }

    private PorTransportException transportFailure(String message, Throwable cause) {
        close();
        return new PorTransportException("PoR server " + peer + ": " + message, cause);
    }

    private static PorTransportException refusal(Frames.Frame error, Object peer) {
        String reason;
        try {
            reason = PorCodec.readError(error.payload()).message();
        } catch (MalformedFrameException e) {
            reason = "(unreadable error)";
        }
        return new PorTransportException("PoR server " + peer + " refused the session: " + reason);
    }

    private static ServerParameters parameters(int k, int b, int blockBytes) {
        try {
            return new ServerParameters(k, b, blockBytes);
        } catch (IllegalArgumentException e) {
            throw new MalformedFrameException("the server's parameters are out of range: " + e.getMessage());
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing a socket that failed: nothing to report beyond the failure itself
        }
    }
}
