package io.coffer.keyserver.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RateLimiterTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private void advanceMillis(long ms) {
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
    }

    @Test
    void boundedAdmitsExactlyQPerEpochPerClientThenResets() {
        RateLimiter rl = RateLimitSpec.parse("bounded:q=5,epoch=1s").create(now::get);
        for (int i = 0; i < 5; i++) {
            assertThat(rl.admit("a", 1).outcome()).isEqualTo(Admission.Outcome.ADMIT);
        }
        assertThat(rl.admit("a", 1).outcome()).isEqualTo(Admission.Outcome.RATE_LIMITED);
        assertThat(rl.admit("b", 1).outcome()).isEqualTo(Admission.Outcome.ADMIT);
        advanceMillis(999);
        assertThat(rl.admit("a", 1).outcome()).isEqualTo(Admission.Outcome.RATE_LIMITED);
        advanceMillis(1);
        assertThat(rl.admit("a", 5).outcome()).isEqualTo(Admission.Outcome.ADMIT);
        assertThat(rl.admit("a", 1).outcome()).isEqualTo(Admission.Outcome.RATE_LIMITED);
    }

    @Test
    void boundedCountsABatchOfNAsNQueries() {
        RateLimiter rl = RateLimitSpec.parse("bounded:q=10,epoch=1s").create(now::get);
        assertThat(rl.admit("a", 7).outcome()).isEqualTo(Admission.Outcome.ADMIT);
        assertThat(rl.admit("a", 4).outcome()).isEqualTo(Admission.Outcome.RATE_LIMITED);
        assertThat(rl.admit("a", 3).outcome()).isEqualTo(Admission.Outcome.ADMIT);
        assertThat(rl.admit("a", 1).outcome()).isEqualTo(Admission.Outcome.RATE_LIMITED);
    }

    @Test
    void fixedDelayDelaysEveryQueryAndDropsWhilePending() {
        RateLimiter rl = RateLimitSpec.parse("fixed:delay=20ms").create(now::get);
        Admission first = rl.admit("a", 1);
        assertThat(first.delayNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
        assertThat(rl.admit("a", 1).outcome()).isEqualTo(Admission.Outcome.BUSY);
        assertThat(rl.admit("b", 3).delayNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(60));
        rl.complete("a");
        assertThat(rl.admit("a", 1).outcome()).isEqualTo(Admission.Outcome.ADMIT);
    }

    @Test
    void exponentialDelayDoublesUpToMaxAndResetsAfterAnIdleEpoch() {
        RateLimiter rl = RateLimitSpec.parse("exp:initial=10ms,max=80ms,epoch=1s").create(now::get);
        long[] expected = {10, 20, 40, 80, 80};
        for (long ms : expected) {
            Admission a = rl.admit("a", 1);
            assertThat(a.delayNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(ms));
            assertThat(rl.admit("a", 1).outcome()).isEqualTo(Admission.Outcome.BUSY);
            rl.complete("a");
            advanceMillis(100);
        }
        advanceMillis(899);
        assertThat(rl.admit("a", 1).delayNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(80));
        rl.complete("a");
        advanceMillis(1000);
        assertThat(rl.admit("a", 2).delayNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(30));
        rl.complete("a");
        assertThat(rl.maxDelayNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(80));
    }

    @Test
    void specsAreValidated() {
        assertThat(RateLimitSpec.parse("none").create().admit("x", 100).outcome()).isEqualTo(Admission.Outcome.ADMIT);
        assertThat(RateLimitSpec.parse("exp:max=1s,epoch=10s").create().toString()).isEqualTo("exp:initial=1ms,max=1s,epoch=10s");
        assertThat(RateLimitSpec.parse("bounded:q=1000,epoch=1s").create().toString()).isEqualTo("bounded:q=1000,epoch=1s");
        assertThatThrownBy(() -> RateLimitSpec.parse("bounded:q=0,epoch=1s")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RateLimitSpec.parse("bounded:q=5")).hasMessageContaining("epoch");
        assertThatThrownBy(() -> RateLimitSpec.parse("fixed:delay=5")).hasMessageContaining("unit");
        assertThatThrownBy(() -> RateLimitSpec.parse("fixed:delay=5ms,q=3")).hasMessageContaining("unknown parameter");
        assertThatThrownBy(() -> RateLimitSpec.parse("leaky:rate=3")).hasMessageContaining("unknown kind");
        assertThatThrownBy(() -> RateLimitSpec.parse("exp:initial=2s,max=1s,epoch=1s")).isInstanceOf(IllegalArgumentException.class);
    }
}
