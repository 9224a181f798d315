package io.coffer.por.net;

import io.coffer.por.audit.AuditChallenge;
import io.coffer.por.server.PorServer;
import io.coffer.por.server.SealedLevel;
import io.coffer.por.server.SealedVectors;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one request into one call of a {@link PorServer} and its answer into a response. The payload is decoded, and
 * so checked against the server's parameters, before the server is called; a payload that does not decode is a
 * {@link MalformedFrameException} for the transport to answer by closing. What the server refuses becomes an error
 * message, and the connection goes on.
 */
public final class RequestDispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(RequestDispatcher.class);

    private final PorServer server;
    /** The codec of the server's k: replaced after a grow (one request at a time, so read and set on that thread). */
    private volatile PorCodec codec;

    public RequestDispatcher(PorServer server) {
        this.server = server;
        this.codec = new PorCodec(new ServerParameters(server.k(), server.batchExponent(), server.blockBytes()));
    }

    public PorCodec codec() {
        return codec;
    }

    /** The largest k the server grows to, as the handshake states it. */
    public int maxK() {
        return server.maxK();
    }

    /**
     * The longest GROW an open session may send: a frame of the server's largest k (it carries C's checksums for the
     * new capacity; the session is authenticated before this limit applies).
     */
    public int frameLimit() {
        return codec.at(Math.max(codec.parameters().k(), Math.min(server.maxK(), ServerParameters.MAX_K)))
                .parameters().maxFrameBytes() + 1; // a RESYNC's payload at that k, and the k
    }

    /** Calls the server for a request of type {@code type}; a malformed payload throws before the server is called. */
    public Message dispatch(MessageType type, byte[] payload) {
        switch (type) {
            case READ -> {
                int index = codec.readIndex(payload);
                return answer(MessageType.PROVEN_BLOCK, () -> codec.provenBlock(server.read(index)));
            }
            case READ_BLOCKS -> {
                List<Integer> indices = codec.readReadBlocks(payload);
                return answer(MessageType.PROVEN_BLOCKS, () -> codec.provenBlocks(server.readBlocks(indices)));
            }
            case LEAVES -> {
                List<Integer> indices = codec.readLeaves(payload);
                return answer(MessageType.LEAF_PROOFS, () -> codec.leafProofs(server.leaves(indices)));
            }
            case LEAF -> {
                int index = codec.readIndex(payload);
                return answer(MessageType.LEAF_PROOF, () -> codec.leafProof(server.leaf(index)));
            }
            case SEALED_INPUTS -> {
                int count = codec.readAddCount(payload);
                return answer(MessageType.SEALED_VECTORS, () -> codec.sealedVectors(server.sealedInputs(count)));
            }
            case WRITE -> {
                PorCodec.WriteRequest w = codec.readWrite(payload);
                return done(() -> server.write(w.index(), w.block(), w.sealedChecksum(), w.written()));
            }
            case FLUSH -> {
                SealedVectors written = codec.readFlush(payload);
                return done(() -> server.flush(written));
            }
            case SEALED_U -> {
                PorCodec.readEmpty(payload);
                return answer(MessageType.SEALED_LIST, () -> codec.sealedList(server.sealedU()));
            }
            case REBUILD_C -> {
                SealedLevel c = codec.readRebuildC(payload);
                return done(() -> server.rebuildC(c));
            }
            case AUDIT -> {
                AuditChallenge challenge = codec.readAudit(payload);
                return answer(MessageType.AUDIT_RESPONSE, () -> codec.auditResponse(server.audit(challenge)));
            }
            case AUDIT_FROZEN -> {
                AuditChallenge challenge = codec.readAudit(payload);
                return answer(MessageType.AUDIT_RESPONSE, () -> codec.auditResponse(server.auditFrozen(challenge)));
            }
            case PACES -> {
                PorCodec.readEmpty(payload);
                return answer(MessageType.FLAG, () -> PorCodec.flag(server.pacesCRebuild()));
            }
            case PACES_PART -> {
                PorCodec.readEmpty(payload);
                return answer(MessageType.FLAG, () -> PorCodec.flag(server.pacesClientPart()));
            }
            case REBUILD_C_PACED -> {
                PorCodec.readEmpty(payload);
                return done(server::rebuildCPaced);
            }
            case SNAPSHOT_U -> {
                ClientPartCodec part = new ClientPartCodec(codec.parameters());
                ClientPartCodec.Range range = part.readRange(payload);
                return answer(MessageType.SEALED_LIST,
                        () -> part.snapshot(server.snapshotSealedU(range.from(), range.count())));
            }
            case NEXT_SEALED_C -> {
                ClientPartCodec.NextSealed next = new ClientPartCodec(codec.parameters()).readNextSealed(payload);
                return done(() -> server.putNextSealedC(next.from(), next.x(), next.y()));
            }
            case DECODE -> {
                List<Integer> indices = codec.readDecode(payload);
                return answer(MessageType.PROVEN_BLOCKS, () -> codec.provenBlocks(server.decode(indices)));
            }
            case PREPARE_DECODE -> {
                List<Integer> indices = codec.readPrepareDecode(payload);
                return done(() -> server.prepareDecode(indices));
            }
            case RESTORE -> {
                PorCodec.RestoreRequest r = codec.readRestore(payload);
                return done(() -> server.restore(r.index(), r.block()));
            }
            case LOG_STATE -> {
                PorCodec.readEmpty(payload);
                return answer(MessageType.STATE, () -> codec.logState(server.logState()));
            }
            case RESYNC -> {
                PorCodec.ResyncRequest r = codec.readResync(payload);
                return done(() -> server.resync(r.epoch(), r.c()));
            }
            case GROW -> {
                PorCodec.GrowRequest g = codec.readGrow(payload, server.maxK());
                return done(() -> {
                    server.resize(g.k(), g.epoch(), g.c());
                    codec = codec.at(server.k());
                });
            }
            default -> throw new MalformedFrameException(type + " is not a request");
        }
    }

    private static Message done(Runnable call) {
        return answer(MessageType.OK, () -> {
            call.run();
            return Message.EMPTY;
        });
    }

    private static Message answer(MessageType type, Supplier<byte[]> call) {
        try {
            return new Message(type, call.get());
        } catch (IllegalArgumentException e) {
            return error(ErrorKind.REJECTED, e.getMessage());
        } catch (IllegalStateException e) {
            return error(ErrorKind.STATE, e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("PoR server call failed", e);
            return error(ErrorKind.INTERNAL, e.toString());
        }
    }

    static Message error(ErrorKind kind, String message) {
        return new Message(MessageType.ERROR, PorCodec.error(kind, message));
    }
}
