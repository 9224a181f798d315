package io.coffer.por.net;

/** One frame's content: its type and its payload (the MAC and the framing are the transport's). */
public record Message(MessageType type, byte[] payload) {
    static final byte[] EMPTY = new byte[0];

    public static Message ok() {
        return new Message(MessageType.OK, EMPTY);
    }
}
