package io.coffer.keyserver.wire;

import io.coffer.keyserver.oprf.Evaluation;
import io.coffer.keyserver.oprf.KeyId;
import io.coffer.keyserver.oprf.Suite;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The answer to an {@link EvaluationRequest}: a status, the key id the answer was made with, and for
 * {@link Status#OK} the evaluated elements (same order and count as the request) and the batch proof.
 *
 * <pre>
 * offset    size  field
 * 0         1     version = 0x01
 * 1         1     type = 0x02 (evaluation response)
 * 2         1     status (0 OK, 1 RATE_LIMITED, 2 UNKNOWN_KEY, 3 BAD_REQUEST, 4 BUSY, 5 SERVER_ERROR)
 * 3         1     suite id (0x00 when the status is not OK and the suite was not understood)
 * 4         8     key id (the key that evaluated; for errors the key id the request named, or zeros)
 * 12        2     n, number of elements (0 unless OK; then >= 1)
 * 14        2     L, element length (0 unless OK)
 * 16        n*L   evaluated elements
 * 16+n*L    2     P, proof length (64 for P256-SHA256 VOPRF, else 0)
 * 18+n*L    P     proof: c || s, two 32-byte scalars
 * </pre>
 * The message is exactly 18 + n*L + P bytes.
 */
public final class EvaluationResponse {
    static final int TYPE = 0x02;
    public static final int MIN_LENGTH = 18;
    private static final KeyId NO_KEY = KeyId.of(new byte[KeyId.LENGTH]);

    private final Status status;
    private final Suite suite;
    private final KeyId keyId;
    private final Evaluation evaluation;

    private EvaluationResponse(Status status, Suite suite, KeyId keyId, Evaluation evaluation) {
        this.status = status;
        this.suite = suite;
        this.keyId = keyId == null ? NO_KEY : keyId;
        this.evaluation = evaluation;
    }

    public static EvaluationResponse ok(Suite suite, KeyId keyId, Evaluation evaluation) {
        if (evaluation.size() == 0) {
            throw new IllegalArgumentException("empty evaluation");
        }
        return new EvaluationResponse(Status.OK, suite, keyId, evaluation);
    }

    /** An error answer; suite and keyId may be null when the request did not get that far. */
    public static EvaluationResponse error(Status status, Suite suite, KeyId keyId) {
        if (status == Status.OK) {
            throw new IllegalArgumentException("OK needs an evaluation");
        }
        return new EvaluationResponse(status, suite, keyId, null);
    }

    public Status status() {
        return status;
    }

    /** The suite, or null for an error answer that names none. */
    public Suite suite() {
        return suite;
    }

    public KeyId keyId() {
        return keyId;
    }

    /** The evaluation of an OK answer; null otherwise. */
    public Evaluation evaluation() {
        return evaluation;
    }

    public byte[] encode() {
        int n = evaluation == null ? 0 : evaluation.size();
        int len = n == 0 ? 0 : evaluation.elements().get(0).length;
        byte[] proof = evaluation == null ? new byte[0] : evaluation.proof();
        ByteBuffer b = ByteBuffer.allocate(MIN_LENGTH + n * len + proof.length);
        b.put((byte) EvaluationRequest.VERSION).put((byte) TYPE).put((byte) status.code())
                .put((byte) (suite == null ? 0 : suite.id())).put(keyId.toBytes());
        b.putShort((short) n).putShort((short) len);
        for (int i = 0; i < n; i++) {
            byte[] e = evaluation.elements().get(i);
            if (e.length != len) {
                throw new IllegalStateException("elements must share one length");
            }
            b.put(e);
        }
        b.putShort((short) proof.length).put(proof);
        return b.array();
    }

    public static EvaluationResponse decode(byte[] msg) throws MalformedMessageException {
        if (msg.length < MIN_LENGTH) {
            throw new MalformedMessageException("short response");
        }
        ByteBuffer b = ByteBuffer.wrap(msg);
        if ((b.get() & 0xFF) != EvaluationRequest.VERSION) {
            throw new MalformedMessageException("unknown version");
        }
        if ((b.get() & 0xFF) != TYPE) {
            throw new MalformedMessageException("not a response");
        }
        Status status = Status.fromCode(b.get() & 0xFF);
        int suiteId = b.get() & 0xFF;
        Suite suite = Suite.fromId(suiteId);
        if (suite == null && (suiteId != 0 || status == Status.OK)) {
            throw new MalformedMessageException("unknown suite");
        }
        byte[] id = new byte[KeyId.LENGTH];
        b.get(id);
        int n = b.getShort() & 0xFFFF;
        int len = b.getShort() & 0xFFFF;
        if (status == Status.OK ? (n == 0 || len == 0 || len > EvaluationRequest.MAX_ELEMENT_LENGTH) : (n != 0 || len != 0)) {
            throw new MalformedMessageException("bad element count or length");
        }
        if ((long) msg.length < (long) MIN_LENGTH + (long) n * len) {
            throw new MalformedMessageException("length mismatch");
        }
        List<byte[]> elements = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] e = new byte[len];
            b.get(e);
            elements.add(e);
        }
        int proofLength = b.getShort() & 0xFFFF;
        if (b.remaining() != proofLength || (status != Status.OK && proofLength != 0)) {
            throw new MalformedMessageException("length mismatch");
        }
        byte[] proof = new byte[proofLength];
        b.get(proof);
        KeyId keyId = KeyId.of(id);
        if (status != Status.OK) {
            return new EvaluationResponse(status, suite, keyId, null);
        }
        return new EvaluationResponse(status, suite, keyId, new Evaluation(elements, proof));
    }
}
