package io.coffer.keyserver.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.keyserver.wire.SessionGrant;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SessionsTest {
    private final AtomicLong now = new AtomicLong();
    private final Sessions sessions = new Sessions(Duration.ofSeconds(10), 100, 2, now::get);

    @Test
    void aClientsExpiredSessionsNoLongerCountAgainstItsCap() throws Exception {
        SessionGrant first = sessions.create("CN=a", 8444);
        sessions.create("CN=a", 8444);
        assertThatThrownBy(() -> sessions.create("CN=a", 8444)).isInstanceOfSatisfying(Sessions.Refused.class,
                e -> assertThat(e.httpStatus()).isEqualTo(429));
        assertThat(sessions.sessionsOf("CN=b")).isZero();
        sessions.create("CN=b", 8444);

        sessions.remove(first.sessionId());
        assertThat(sessions.sessionsOf("CN=a")).isEqualTo(1);
        sessions.create("CN=a", 8444);

        now.addAndGet(Duration.ofSeconds(10).toNanos());
        sessions.create("CN=a", 8444);
        assertThat(sessions.sessionsOf("CN=a")).as("expired ones swept when the cap was reached").isEqualTo(1);
    }

    @Test
    void aFullTableIsRefusedWith503() throws Exception {
        Sessions small = new Sessions(Duration.ofSeconds(10), 2, 2, now::get);
        small.create("CN=a", 8444);
        small.create("CN=b", 8444);
        assertThatThrownBy(() -> small.create("CN=c", 8444)).isInstanceOfSatisfying(Sessions.Refused.class,
                e -> assertThat(e.httpStatus()).isEqualTo(503));
    }
}
