package io.coffer.keyserver.wire;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The KSInit answer of OPRFv2 (body of a 200 answer to {@code POST /session} over mutual TLS).
 *
 * <pre>
 * offset size field
 * 0      1    version = 0x01
 * 1      16   session id (random)
 * 17     32   session key (random; HMAC-SHA256 key for both directions)
 * 49     4    lifetime in seconds (uint32)
 * 53     2    UDP port of the server
 * </pre>
 * Exactly 55 bytes. The session key is secret: {@code toString()} omits it.
 */
public final class SessionGrant {
    public static final int LENGTH = 55;
    public static final int ID_LENGTH = 16;
    public static final int KEY_LENGTH = 32;

    private final byte[] sessionId;
    private final byte[] sessionKey;
    private final int lifetimeSeconds;
    private final int udpPort;

    public SessionGrant(byte[] sessionId, byte[] sessionKey, int lifetimeSeconds, int udpPort) {
        if (sessionId.length != ID_LENGTH || sessionKey.length != KEY_LENGTH || lifetimeSeconds <= 0 || udpPort <= 0 || udpPort > 0xFFFF) {
            throw new IllegalArgumentException("invalid session grant");
        }
        this.sessionId = sessionId.clone();
        this.sessionKey = sessionKey.clone();
        this.lifetimeSeconds = lifetimeSeconds;
        this.udpPort = udpPort;
    }

    public byte[] sessionId() {
        return sessionId.clone();
    }

    public byte[] sessionKey() {
        return sessionKey.clone();
    }

    public int lifetimeSeconds() {
        return lifetimeSeconds;
    }

    public int udpPort() {
        return udpPort;
    }

    public byte[] encode() {
        return ByteBuffer.allocate(LENGTH).put((byte) 0x01).put(sessionId).put(sessionKey)
                .putInt(lifetimeSeconds).putShort((short) udpPort).array();
    }

    public static SessionGrant decode(byte[] msg) throws MalformedMessageException {
        if (msg.length != LENGTH || msg[0] != 0x01) {
            throw new MalformedMessageException("bad session grant");
        }
        ByteBuffer b = ByteBuffer.wrap(msg, 1, LENGTH - 1);
        byte[] id = new byte[ID_LENGTH];
        byte[] key = new byte[KEY_LENGTH];
        b.get(id).get(key);
        int lifetime = b.getInt();
        int port = b.getShort() & 0xFFFF;
        if (lifetime <= 0 || port == 0) {
            throw new MalformedMessageException("bad session grant");
        }
        SessionGrant g = new SessionGrant(id, key, lifetime, port);
        Arrays.fill(key, (byte) 0);
        return g;
    }

    @Override
    public String toString() {
        return "SessionGrant[lifetime " + lifetimeSeconds + "s, udp " + udpPort + "]";
    }
}
