package io.coffer.keyserver.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.keyserver.oprf.Evaluation;
import io.coffer.keyserver.oprf.KeyId;
import io.coffer.keyserver.oprf.Suite;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class WireFormatTest {
    private static final KeyId ID = KeyId.fromHex("0102030405060708");

    @Test
    void requestRoundTripsAndEveryLengthMismatchIsRejected() throws Exception {
        byte[] enc = new EvaluationRequest(Suite.P256_SHA256_VOPRF, ID, List.of(new byte[33], new byte[33])).encode();
        assertThat(enc).hasSize(15 + 66);
        EvaluationRequest back = EvaluationRequest.decode(enc, 256);
        assertThat(back.keyId()).isEqualTo(ID);
        assertThat(back.count()).isEqualTo(2);
        assertThatThrownBy(() -> EvaluationRequest.decode(Arrays.copyOf(enc, enc.length - 1), 256)).isInstanceOf(MalformedMessageException.class);
        assertThatThrownBy(() -> EvaluationRequest.decode(Arrays.copyOf(enc, enc.length + 1), 256)).isInstanceOf(MalformedMessageException.class);
        assertThatThrownBy(() -> EvaluationRequest.decode(enc, 1)).isInstanceOf(MalformedMessageException.class);
        for (int[] mutation : new int[][] {{0, 2}, {1, 2}, {2, 9}}) {
            byte[] bad = enc.clone();
            bad[mutation[0]] = (byte) mutation[1];
            assertThatThrownBy(() -> EvaluationRequest.decode(bad, 256)).isInstanceOf(MalformedMessageException.class);
        }
    }

    @Test
    void responseRoundTripsWithProofAndRejectsTrailingBytes() throws Exception {
        EvaluationResponse ok = EvaluationResponse.ok(Suite.P256_SHA256_VOPRF, ID, new Evaluation(List.of(new byte[33]), new byte[64]));
        byte[] enc = ok.encode();
        assertThat(enc).hasSize(18 + 33 + 64);
        EvaluationResponse back = EvaluationResponse.decode(enc);
        assertThat(back.status()).isEqualTo(Status.OK);
        assertThat(back.evaluation().proof()).hasSize(64);
        assertThatThrownBy(() -> EvaluationResponse.decode(Arrays.copyOf(enc, enc.length + 1))).isInstanceOf(MalformedMessageException.class);
        byte[] limited = EvaluationResponse.error(Status.RATE_LIMITED, Suite.RSA_FDH_SHA256, ID).encode();
        assertThat(limited).hasSize(18);
        assertThat(EvaluationResponse.decode(limited).status()).isEqualTo(Status.RATE_LIMITED);
        byte[] badStatus = limited.clone();
        badStatus[2] = 0x33;
        assertThatThrownBy(() -> EvaluationResponse.decode(badStatus)).isInstanceOf(MalformedMessageException.class);
    }
}
