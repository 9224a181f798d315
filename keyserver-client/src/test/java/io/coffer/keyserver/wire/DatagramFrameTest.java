package io.coffer.keyserver.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.keyserver.oprf.KeyId;
import io.coffer.keyserver.oprf.Suite;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A client takes an answer frame only when it is of its session and authentic; everything else is ignored. */
class DatagramFrameTest {
    private static final byte[] SESSION = filled(SessionGrant.ID_LENGTH, 7);
    private static final byte[] KEY = filled(32, 9);
    private static final byte[] ANSWER = EvaluationResponse.error(Status.BUSY, Suite.P256_SHA256_VOPRF,
            KeyId.fromHex("0102030405060708")).encode();

    @Test
    void anAuthenticAnswerOfTheSessionGivesItsSequenceNumber() {
        byte[] frame = DatagramFrame.seal(DatagramFrame.RESPONSE, SESSION, 42, ANSWER, KEY);
        assertThat(DatagramFrame.answerSequence(frame, SESSION, KEY)).isEqualTo(42);
        assertThat(DatagramFrame.body(frame)).isEqualTo(ANSWER);
    }

    @Test
    void anotherSessionAWrongKeyARequestATamperedOrShortFrameAreIgnored() {
        byte[] frame = DatagramFrame.seal(DatagramFrame.RESPONSE, SESSION, 42, ANSWER, KEY);
        assertThat(DatagramFrame.answerSequence(frame, filled(SessionGrant.ID_LENGTH, 8), KEY)).isEqualTo(-1);
        assertThat(DatagramFrame.answerSequence(frame, SESSION, filled(32, 1))).isEqualTo(-1);
        byte[] request = DatagramFrame.seal(DatagramFrame.REQUEST, SESSION, 42, ANSWER, KEY);
        assertThat(DatagramFrame.answerSequence(request, SESSION, KEY)).isEqualTo(-1);
        byte[] tampered = frame.clone();
        tampered[DatagramFrame.HEADER_LENGTH] ^= 1;
        assertThat(DatagramFrame.answerSequence(tampered, SESSION, KEY)).isEqualTo(-1);
        byte[] shortFrame = DatagramFrame.seal(DatagramFrame.RESPONSE, SESSION, 42, new byte[EvaluationResponse.MIN_LENGTH - 1], KEY);
        assertThat(DatagramFrame.answerSequence(shortFrame, SESSION, KEY)).isEqualTo(-1);
    }

    private static byte[] filled(int length, int value) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) value);
        return b;
    }
}
