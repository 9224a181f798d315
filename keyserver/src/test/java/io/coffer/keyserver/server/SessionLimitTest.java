package io.coffer.keyserver.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.keyserver.KeyServerFixture;
import io.coffer.keyserver.client.KeyServerClient;
import io.coffer.keyserver.client.KeyServerException;
import io.coffer.keyserver.pki.KeyServerDirectory;
import io.coffer.keyserver.wire.SessionGrant;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One client identity cannot hold more than its share of OPRFv2 sessions: KSInit over the cap is refused with 429. */
class SessionLimitTest {
    @TempDir
    static Path tmp;
    static KeyServerDirectory dir;

    @BeforeAll
    static void init() throws Exception {
        dir = KeyServerFixture.init(tmp.resolve("ks"), KeyServerInit.OprfAlgorithm.P256, "a", "b");
    }

    @Test
    void aClientOverTheDefaultSessionCapIsRefusedWhileOthersStillGetSessions() throws Exception {
        try (KeyServer s = KeyServerFixture.start(dir, "none")) {
            HttpClient a = KeyServerFixture.http(KeyServerFixture.tls(dir, "a", dir));
            for (int i = 0; i < KeyServer.DEFAULT_MAX_SESSIONS_PER_CLIENT; i++) {
                HttpResponse<byte[]> ok = KeyServerFixture.post(a, s, "/session", new byte[0]);
                assertThat(ok.statusCode()).as("session %d", i + 1).isEqualTo(200);
                assertThat(ok.body()).hasSize(SessionGrant.LENGTH);
            }
            HttpResponse<byte[]> refused = KeyServerFixture.post(a, s, "/session", new byte[0]);
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(new String(refused.body(), StandardCharsets.UTF_8)).contains("CN=a")
                    .contains("already holds " + KeyServer.DEFAULT_MAX_SESSIONS_PER_CLIENT + " live sessions");
            assertThat(s.metrics().count("keyserver.sessions.refused", "reason", "client_limit")).isEqualTo(1);

            HttpClient b = KeyServerFixture.http(KeyServerFixture.tls(dir, "b", dir));
            assertThat(KeyServerFixture.post(b, s, "/session", new byte[0]).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void theCapIsConfigurableAndTheClientReportsTheServersReason() throws Exception {
        try (KeyServer s = KeyServer.builder().directory(dir.root()).httpsPort(0).udpPort(0).rateLimit("none")
                .workerThreads(1).maxSessionsPerClient(1).start()) {
            HttpClient a = KeyServerFixture.http(KeyServerFixture.tls(dir, "a", dir));
            assertThat(KeyServerFixture.post(a, s, "/session", new byte[0]).statusCode()).isEqualTo(200);
            try (KeyServerClient client = KeyServerFixture.client(dir, s, "a", KeyServerClient.Transport.V2)
                    .cacheSize(0).tries(1).timeout(Duration.ofSeconds(2)).build()) {
                assertThatThrownBy(() -> client.evaluate(List.of("x".getBytes(StandardCharsets.UTF_8))))
                        .isInstanceOf(KeyServerException.class)
                        .hasMessageContaining("429").hasMessageContaining("already holds 1 live sessions");
            }
        }
    }
}
