package io.coffer.keyserver.wire;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * OPRFv2 datagram framing, both directions.
 *
 * <pre>
 * offset  size field
 * 0       16   session id
 * 16      8    sequence number (uint64; requests strictly increasing per session, responses echo it)
 * 24      m    body: an EvaluationRequest (client to server) or EvaluationResponse (server to client)
 * 24+m    32   tag = HMAC-SHA256(session key, direction || bytes 0 .. 24+m)
 * </pre>
 * direction is one byte, 0x51 ('Q') for requests and 0x52 ('R') for responses, so an answer can never be
 * reflected back as a query. Tags are compared with {@link MessageDigest#isEqual}.
 */
public final class DatagramFrame {
    public static final int HEADER_LENGTH = SessionGrant.ID_LENGTH + 8;
    public static final int TAG_LENGTH = 32;
    public static final int OVERHEAD = HEADER_LENGTH + TAG_LENGTH;
    public static final byte REQUEST = 0x51;
    public static final byte RESPONSE = 0x52;

    /** One Mac per thread: Mac.getInstance looks the algorithm up in the providers, which costs more than the tag. */
    private static final ThreadLocal<Mac> MAC = ThreadLocal.withInitial(() -> {
        try {
            return Mac.getInstance("HmacSHA256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    });

    private DatagramFrame() {}

    public static byte[] seal(byte direction, byte[] sessionId, long sequence, byte[] body, byte[] key) {
        ByteBuffer b = ByteBuffer.allocate(OVERHEAD + body.length);
        b.put(sessionId).putLong(sequence).put(body);
        byte[] tag = tag(key, direction, b.array(), HEADER_LENGTH + body.length);
        b.put(tag);
        return b.array();
    }

    /** The session id of a frame at least {@link #OVERHEAD} bytes long. */
    public static byte[] sessionId(byte[] frame) {
        return Arrays.copyOf(frame, SessionGrant.ID_LENGTH);
    }

    public static long sequence(byte[] frame) {
        return ByteBuffer.wrap(frame, SessionGrant.ID_LENGTH, 8).getLong();
    }

    /** Whether the frame's tag is correct for this key and direction. */
    public static boolean verify(byte direction, byte[] frame, byte[] key) {
        if (frame.length < OVERHEAD) {
            return false;
        }
        int macStart = frame.length - TAG_LENGTH;
        byte[] expected = tag(key, direction, frame, macStart);
        return MessageDigest.isEqual(expected, Arrays.copyOfRange(frame, macStart, frame.length));
    }

    /**
     * The sequence number of {@code frame} if it is an authentic answer in the session {@code sessionId}: long enough
     * to hold a response, the same session id, a valid {@link #RESPONSE} tag under {@code key}. Otherwise -1: a client
     * ignores anything else its socket receives.
     */
    public static long answerSequence(byte[] frame, byte[] sessionId, byte[] key) {
        if (frame.length < OVERHEAD + EvaluationResponse.MIN_LENGTH
                || !MessageDigest.isEqual(sessionId(frame), sessionId)
                || !verify(RESPONSE, frame, key)) {
            return -1;
        }
        return sequence(frame);
    }

    public static byte[] body(byte[] frame) {
        return Arrays.copyOfRange(frame, HEADER_LENGTH, frame.length - TAG_LENGTH);
    }

    private static byte[] tag(byte[] key, byte direction, byte[] data, int length) {
        try {
            Mac mac = MAC.get();
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(direction);
            mac.update(data, 0, length);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
