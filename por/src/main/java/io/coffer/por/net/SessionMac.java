package io.coffer.por.net;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The MAC of one session: key = HMAC-SHA256(shared key, label || client nonce || server nonce), and each frame's MAC
 * = HMAC-SHA256(key, direction || sequence number || version || type || payload). Fresh nonces on both sides make
 * every session's key new, and the per-direction sequence numbers refuse a frame replayed, reordered, dropped or
 * reflected back to its sender.
 */
final class SessionMac {
    static final int BYTES = 32;
    static final int NONCE_BYTES = 32;
    private static final byte[] LABEL = "coffer-por session v1".getBytes(StandardCharsets.US_ASCII);
    private static final int CLIENT_TO_SERVER = 1;
    private static final int SERVER_TO_CLIENT = 2;

    private final Mac sendMac;
    private final Mac receiveMac;
    private final int sendDirection;
    private long sent;
    private long received;

    private SessionMac(byte[] sharedKey, byte[] clientNonce, byte[] serverNonce, boolean serverSide) {
        try {
            Mac derive = Mac.getInstance("HmacSHA256");
            derive.init(new SecretKeySpec(sharedKey, "HmacSHA256"));
            derive.update(LABEL);
            derive.update(clientNonce);
            SecretKeySpec key = new SecretKeySpec(derive.doFinal(serverNonce), "HmacSHA256");
            sendMac = Mac.getInstance("HmacSHA256");
            sendMac.init(key);
            receiveMac = Mac.getInstance("HmacSHA256");
            receiveMac.init(key);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available", e);
        }
        this.sendDirection = serverSide ? SERVER_TO_CLIENT : CLIENT_TO_SERVER;
    }

    static SessionMac server(byte[] sharedKey, byte[] clientNonce, byte[] serverNonce) {
        return new SessionMac(sharedKey, clientNonce, serverNonce, true);
    }

    static SessionMac client(byte[] sharedKey, byte[] clientNonce, byte[] serverNonce) {
        return new SessionMac(sharedKey, clientNonce, serverNonce, false);
    }

    /** The MAC of the next frame this side sends. */
    synchronized byte[] sign(MessageType type, byte[] payload) {
        return compute(sendMac, sendDirection, sent++, type, payload);
    }

    /** Checks the MAC of the next frame this side receives; a frame that fails closes the session. */
    synchronized void verify(MessageType type, byte[] payload, byte[] mac) {
        byte[] expected = compute(receiveMac, 3 - sendDirection, received++, type, payload);
        if (mac == null || !MessageDigest.isEqual(expected, mac)) {
            throw new MalformedFrameException("bad MAC on a " + type + " frame");
        }
    }

    private static byte[] compute(Mac mac, int direction, long sequence, MessageType type, byte[] payload) {
        mac.update((byte) direction);
        for (int shift = 56; shift >= 0; shift -= 8) {
            mac.update((byte) (sequence >>> shift));
        }
        mac.update(Frames.VERSION);
        mac.update(type.code());
        return mac.doFinal(payload);
    }
}
