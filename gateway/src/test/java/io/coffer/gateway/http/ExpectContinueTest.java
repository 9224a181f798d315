package io.coffer.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.auth.SigV4;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * {@code Expect: 100-continue} on the real engine: the gateway answers 100 Continue once the action reads the body,
 * so a PUT the bucket's access check refuses (anonymous, or to a missing bucket) gets its error instead of 100 and
 * never sends its body; the connection is closed after such an answer, since the client may send the body or not.
 */
class ExpectContinueTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    @BeforeAll
    static void bucket() {
        gateway.client().createBucket(b -> b.bucket("continue"));
    }

    private RawClient client() throws Exception {
        return new RawClient(gateway.port(), gateway.accessKeyId(), gateway.secretKey());
    }

    private static String signedPut(String path, byte[] body) {
        return RawClient.signedHead("PUT", path, "", Map.of("expect", "100-continue", "content-length",
                Integer.toString(body.length)), SigV4.hex(SigV4.sha256().digest(body)), "127.0.0.1:" + gateway.port(),
                gateway.accessKeyId(), gateway.secretKey(), Instant.now()) + "\r\n";
    }

    @Test
    void aPutTheGatewayWillTakeGets100ContinueAndThenItsAnswer() throws Exception {
        byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
        try (RawClient c = client()) {
            c.writeRaw(signedPut("/continue/k", body).getBytes(StandardCharsets.UTF_8));
            assertThat(c.nextLine()).isEqualTo("HTTP/1.1 100 Continue");
            assertThat(c.nextLine()).isEmpty();
            c.writeRaw(body);
            assertThat(c.read(false).status()).isEqualTo(200);
        }
        assertThat(gateway.client().getObjectAsBytes(r -> r.bucket("continue").key("k")).asUtf8String())
                .isEqualTo("hello");
    }

    @Test
    void aPutToAMissingBucketIsAnswered404InsteadOf100AndTheConnectionCloses() throws Exception {
        try (RawClient c = client()) {
            c.writeRaw(signedPut("/no-such-bucket-here/k", new byte[5]).getBytes(StandardCharsets.UTF_8));
            RawClient.Response r = c.read(false);
            assertThat(r.status()).isEqualTo(404);
            assertThat(c.sawContinue).isFalse();
            assertThat(r.header("connection")).isEqualTo("close");
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void anAnonymousPutToAPrivateBucketIsAnswered403InsteadOf100() throws Exception {
        try (RawClient c = client()) {
            c.writeRaw(("PUT /continue/anon HTTP/1.1\r\nhost: 127.0.0.1:" + gateway.port()
                    + "\r\nexpect: 100-continue\r\ncontent-length: 5\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            RawClient.Response r = c.read(false);
            assertThat(r.status()).isEqualTo(403);
            assertThat(c.sawContinue).isFalse();
        }
        gateway.client().putObject(r -> r.bucket("continue").key("other"), RequestBody.fromString("x"));
        assertThat(gateway.client().listObjectsV2(r -> r.bucket("continue")).contents())
                .noneMatch(o -> o.key().equals("anon"));
    }
}
