package io.coffer.gateway.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.ErrorCode;
import org.junit.jupiter.api.Test;

class S3ErrorCodeTest {
    @Test
    void wireCodesAreDerivedExactlyAsS3SpellsThem() {
        assertThat(S3ErrorCode.X_AMZ_CONTENT_S_H_A_256_MISMATCH.code()).isEqualTo("XAmzContentSHA256Mismatch");
        assertThat(S3ErrorCode.MALFORMED_X_M_L.code()).isEqualTo("MalformedXML");
        assertThat(S3ErrorCode.INVALID_U_R_I.code()).isEqualTo("InvalidURI");
        assertThat(S3ErrorCode.KEY_TOO_LONG_ERROR.code()).isEqualTo("KeyTooLongError");
        assertThat(S3ErrorCode.NO_SUCH_KEY.code()).isEqualTo("NoSuchKey");
    }

    @Test
    void everyEngineCodeMapsToTheS3CodeItIsNamedAfter() {
        for (ErrorCode e : ErrorCode.values()) {
            assertThat(S3ErrorCode.of(e).code()).as(e.name()).isEqualTo(e.s3Code());
        }
    }
}
