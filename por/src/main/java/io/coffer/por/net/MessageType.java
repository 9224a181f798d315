package io.coffer.por.net;

/**
 * The message types of the PoR protocol: the handshake, one request per {@link io.coffer.por.server.PorServer}
 * method, and the responses. The code is the type byte of a frame.
 */
public enum MessageType {
    HELLO(1), CHALLENGE(2), AUTH(3),
    READ(10), LEAF(11), SEALED_INPUTS(12), WRITE(13), FLUSH(14), SEALED_U(15), REBUILD_C(16), AUDIT(17), DECODE(18),
    RESTORE(19), LOG_STATE(20), RESYNC(21), PREPARE_DECODE(22), READ_BLOCKS(23), LEAVES(24), GROW(25),
    AUDIT_FROZEN(26), PACES(27), PACES_PART(28), REBUILD_C_PACED(29), SNAPSHOT_U(30), NEXT_SEALED_C(31),
    OK(40), PROVEN_BLOCK(41), LEAF_PROOF(42), SEALED_VECTORS(43), SEALED_LIST(44), AUDIT_RESPONSE(45),
    PROVEN_BLOCKS(46), STATE(47), LEAF_PROOFS(48), FLAG(49),
    ERROR(50);

    private static final MessageType[] BY_CODE = new MessageType[256];

    static {
        for (MessageType t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    private final int code;

    MessageType(int code) {
        this.code = code;
    }

    public byte code() {
        return (byte) code;
    }

    /** The type of {@code code}, or null when no type has it. */
    public static MessageType of(byte code) {
        return BY_CODE[code & 0xff];
    }

    /** Whether a client sends this type once its session is open. */
    public boolean isRequest() {
        return code >= READ.code && code <= NEXT_SEALED_C.code;
    }
}
