package io.coffer.por.net;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The framing: a 4-byte big-endian length, then the body: version (1), type (1), payload, and the 32-byte MAC except
 * on HELLO and on errors sent before a session is open. The length is checked against the receiver's limit before the
 * body is read.
 */
final class Frames {
    /** 2 since H is deamortised: an add's sealed checksums per vector (SEALED_INPUTS) instead of whole levels. */
    /** 3 since porgrow: the CHALLENGE states the server's largest k, and GROW exists. */
    /**
     * 5 since cpace: PACES_PART, REBUILD_C_PACED, SNAPSHOT_U and NEXT_SEALED_C for the client's paced part of C's
     * rebuild; 4 (cdeam2) added PACES and AUDIT_FROZEN for a paced C rebuild's window.
     */
    static final byte VERSION = 5;
    /** A frame before the session is open: HELLO, CHALLENGE, AUTH, or an error. */
    static final int HANDSHAKE_LIMIT = 1200;

    private Frames() {
    }

    /** A parsed frame body. {@code mac} is null when the frame carries none. */
    record Frame(MessageType type, byte[] payload, byte[] mac) {
    }

    static byte[] body(MessageType type, byte[] payload, byte[] mac) {
        int macBytes = mac == null ? 0 : mac.length;
        byte[] body = new byte[2 + payload.length + macBytes];
        body[0] = VERSION;
        body[1] = type.code();
        System.arraycopy(payload, 0, body, 2, payload.length);
        if (mac != null) {
            System.arraycopy(mac, 0, body, 2 + payload.length, macBytes);
        }
        return body;
    }

    /** Parses a body; {@code withMac} says whether its last 32 bytes are a MAC. */
    static Frame parse(byte[] body, boolean withMac) {
        int macBytes = withMac ? SessionMac.BYTES : 0;
        if (body.length < 2 + macBytes) {
            throw new MalformedFrameException("a frame of " + body.length + " bytes is too short");
        }
        if (body[0] != VERSION) {
            throw new MalformedFrameException("unsupported protocol version " + (body[0] & 0xff));
        }
        MessageType type = MessageType.of(body[1]);
        if (type == null) {
            throw new MalformedFrameException("unknown message type " + (body[1] & 0xff));
        }
        byte[] payload = new byte[body.length - 2 - macBytes];
        System.arraycopy(body, 2, payload, 0, payload.length);
        byte[] mac = null;
        if (withMac) {
            mac = new byte[macBytes];
            System.arraycopy(body, body.length - macBytes, mac, 0, macBytes);
        }
        return new Frame(type, payload, mac);
    }

    static void write(OutputStream out, byte[] body) throws IOException {
        int n = body.length;
        out.write(new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
        out.write(body);
        out.flush();
    }

    /** Reads one frame body of at most {@code limit} bytes; a longer or shorter length is refused unread. */
    static byte[] read(InputStream in, int limit) throws IOException {
        DataInputStream data = new DataInputStream(in);
        int n = data.readInt();
        if (n < 2 || n > limit) {
            throw new MalformedFrameException("frame length " + n + " outside [2, " + limit + "]");
        }
        byte[] body = new byte[n];
        data.readFully(body);
        return body;
    }
}
