package io.coffer.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ObjectInfoTest {
    private static ObjectInfo info(long size, List<Long> parts) {
        return new ObjectInfo("b", "k", size, "e", Instant.EPOCH, ObjectAttributes.EMPTY, parts);
    }

    @Test
    void aPartLiesAfterThePartsBeforeIt() {
        ObjectInfo multi = info(350, List.of(100L, 200L, 50L));
        assertThat(multi.partRange(1)).isEqualTo(new ByteRange.Resolved(0, 100));
        assertThat(multi.partRange(2)).isEqualTo(new ByteRange.Resolved(100, 200));
        assertThat(multi.partRange(3)).isEqualTo(new ByteRange.Resolved(300, 50));
    }

    @Test
    void aSinglePutObjectIsItsOnePart() {
        assertThat(info(42, List.of()).partRange(1)).isEqualTo(new ByteRange.Resolved(0, 42));
        assertThat(info(0, List.of()).partRange(1)).isEqualTo(new ByteRange.Resolved(0, 0));
    }

    @Test
    void aPartTheObjectLacksIsInvalidPartNumber() {
        for (ObjectInfo i : List.of(info(42, List.of()), info(350, List.of(100L, 200L, 50L)))) {
            for (int n : new int[] {0, Math.max(1, i.partCount()) + 1}) {
                assertThatThrownBy(() -> i.partRange(n)).isInstanceOfSatisfying(CofferException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_PART_NUMBER));
            }
        }
    }
}
