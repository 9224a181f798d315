package io.coffer.por.blob;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.meta.BlockMapStore.Entry;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Creation times tell versions of a name apart: each new one is after the last given, after the version it replaces
 * and after every version deleted, also when those lie ahead of the clock (a clock gone back since they were written);
 * a moved pack (same name, length and time, other blocks) is the same pack, one of another time or length is not.
 */
class PackVersionsTest {
    private static final Instant AHEAD = Instant.now().plus(Duration.ofHours(1));

    @Test
    void aNewVersionIsAfterTheOneItReplacesEvenAheadOfTheClock() {
        PackVersions versions = new PackVersions();
        Entry old = new Entry("p/a", 10, new int[] {1}, AHEAD);

        assertThat(versions.next(Optional.of(old))).isAfter(AHEAD);
    }

    @Test
    void aVersionPutAfterADeleteIsAfterTheDeletedOne() {
        PackVersions versions = new PackVersions();
        versions.retired(new Entry("p/a", 10, new int[] {1}, AHEAD));

        assertThat(versions.next(Optional.empty())).isAfter(AHEAD);
    }

    @Test
    void timesGivenOneAfterAnotherAreStrictlyIncreasing() {
        PackVersions versions = new PackVersions();
        Instant last = versions.next(Optional.empty());
        for (int i = 0; i < 1000; i++) { // far more than one a millisecond
            Instant next = versions.next(Optional.empty());
            assertThat(next).isAfter(last);
            last = next;
        }
    }

    @Test
    void aMovedPackIsTheSamePackAndAnotherTimeOrLengthIsNot() {
        Instant t = Instant.ofEpochMilli(1_000);
        Entry pack = new Entry("p/a", 10, new int[] {40, 41}, t);

        assertThat(PackVersions.samePack(pack, new Entry("p/a", 10, new int[] {3, 7}, t))).isTrue();
        assertThat(PackVersions.samePack(pack, new Entry("p/a", 10, new int[] {40, 41}, t.plusMillis(1)))).isFalse();
        assertThat(PackVersions.samePack(pack, new Entry("p/a", 11, new int[] {40, 41}, t))).isFalse();
        assertThat(PackVersions.samePack(pack, new Entry("p/b", 10, new int[] {40, 41}, t))).isFalse();
    }
}
