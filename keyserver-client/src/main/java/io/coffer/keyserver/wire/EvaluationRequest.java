package io.coffer.keyserver.wire;

import io.coffer.keyserver.oprf.KeyId;
import io.coffer.keyserver.oprf.Suite;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A batched OPRF query: suite, key id and n blinded elements of equal length.
 *
 * <pre>
 * offset size  field
 * 0      1     version = 0x01
 * 1      1     type = 0x01 (evaluation request)
 * 2      1     suite id (0x01 RSA-FDH-SHA256, 0x02 P256-SHA256 OPRF, 0x03 P256-SHA256 VOPRF)
 * 3      8     key id
 * 11     2     n, number of elements, 1..65535 (servers apply a lower configured maximum)
 * 13     2     L, length of each element, 1..1024
 * 15     n*L   elements
 * </pre>
 * The message is exactly 15 + n*L bytes; anything else is rejected.
 */
public final class EvaluationRequest {
    public static final int VERSION = 0x01;
    static final int TYPE = 0x01;
    public static final int HEADER_LENGTH = 15;
    public static final int MAX_ELEMENT_LENGTH = 1024;

    private final Suite suite;
    private final KeyId keyId;
    private final List<byte[]> elements;

    public EvaluationRequest(Suite suite, KeyId keyId, List<byte[]> elements) {
        if (elements.isEmpty() || elements.size() > 0xFFFF) {
            throw new IllegalArgumentException("1..65535 elements");
        }
        int len = elements.get(0).length;
        for (byte[] e : elements) {
            if (e.length != len || len == 0 || len > MAX_ELEMENT_LENGTH) {
                throw new IllegalArgumentException("elements must share one length in 1..1024");
            }
        }
        this.suite = suite;
        this.keyId = keyId;
        this.elements = List.copyOf(elements);
    }

    public Suite suite() {
        return suite;
    }

    public KeyId keyId() {
        return keyId;
    }

    public List<byte[]> elements() {
        return elements;
    }

    public int count() {
        return elements.size();
    }

    public int elementLength() {
        return elements.get(0).length;
    }

    /** Encoded size of a request with n elements of length len. */
    public static int encodedLength(int n, int len) {
        return HEADER_LENGTH + n * len;
    }

    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(encodedLength(count(), elementLength()));
        b.put((byte) VERSION).put((byte) TYPE).put((byte) suite.id()).put(keyId.toBytes());
        b.putShort((short) count()).putShort((short) elementLength());
        for (byte[] e : elements) {
            b.put(e);
        }
        return b.array();
    }

    /** Strict decoding; {@code maxCount} is the server's batch limit. */
    public static EvaluationRequest decode(byte[] msg, int maxCount) throws MalformedMessageException {
        if (msg.length < HEADER_LENGTH) {
            throw new MalformedMessageException("short request");
        }
        ByteBuffer b = ByteBuffer.wrap(msg);
        if ((b.get() & 0xFF) != VERSION) {
            throw new MalformedMessageException("unknown version");
        }
        if ((b.get() & 0xFF) != TYPE) {
            throw new MalformedMessageException("not a request");
        }
        Suite suite = Suite.fromId(b.get() & 0xFF);
        if (suite == null) {
            throw new MalformedMessageException("unknown suite");
        }
        byte[] id = new byte[KeyId.LENGTH];
        b.get(id);
        int n = b.getShort() & 0xFFFF;
        int len = b.getShort() & 0xFFFF;
        if (n == 0 || n > maxCount) {
            throw new MalformedMessageException("bad element count");
        }
        if (len == 0 || len > MAX_ELEMENT_LENGTH) {
            throw new MalformedMessageException("bad element length");
        }
        if ((long) msg.length != (long) HEADER_LENGTH + (long) n * len) {
            throw new MalformedMessageException("length mismatch");
        }
        List<byte[]> elements = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] e = new byte[len];
            b.get(e);
            elements.add(e);
        }
        return new EvaluationRequest(suite, KeyId.of(id), elements);
    }
}
