package io.coffer.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class NamesTest {
    @Test
    void ordinaryBucketNamesAreValid() {
        for (String name : List.of("abc", "a".repeat(63), "my.bucket-1", "0-9", "s3alias", "amzn-s3-demo",
                "x-s3.example")) {
            assertThat(Names.isValidBucket(name)).as(name).isTrue();
        }
    }

    @Test
    void bucketNamesAgainstS3sRulesAreInvalid() {
        for (String name : List.of("ab", "a".repeat(64), "Upper", "under_score", "-dash", "dash-", "a..b", "a.-b",
                "a-.b", "10.0.0.1", "xn--idn", "sthree-x", "amzn-s3-demo-x", "x-s3alias", "x--ol-s3", "x.mrap",
                "x--x-s3", "x--table-s3")) {
            assertThat(Names.isValidBucket(name)).as(name).isFalse();
            assertThatThrownBy(() -> Names.checkBucket(name)).as(name).isInstanceOfSatisfying(CofferException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_BUCKET_NAME));
        }
        assertThat(Names.isValidBucket(null)).isFalse();
    }

    @Test
    void keyLengthIsCountedInUtf8Bytes() {
        Names.checkKey("é".repeat(512));
        assertThatThrownBy(() -> Names.checkKey("é".repeat(512) + "x")).isInstanceOfSatisfying(CofferException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.KEY_TOO_LONG));
        assertThatThrownBy(() -> Names.checkKeyLength("k".repeat(1025))).isInstanceOf(CofferException.class);
        Names.checkKeyLength(null);
    }

    @Test
    void emptyAndMalformedKeysAreInvalidArgument() {
        for (String key : List.of("", "a\uD800", "\uDC00b")) {
            assertThatThrownBy(() -> Names.checkKey(key)).isInstanceOfSatisfying(CofferException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
        }
    }
}
