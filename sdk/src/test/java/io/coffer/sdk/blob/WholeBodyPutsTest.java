package io.coffer.sdk.blob;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;

class WholeBodyPutsTest {

    @Test
    void anArrayBodyGoesToTheStreamInOneWriteOfTheArrayItself() throws IOException {
        byte[] pack = bytes(3 << 20);
        RecordingStream out = new RecordingStream();

        new WholeBodyPuts.BufferEntity(ByteBuffer.wrap(pack, 5, pack.length - 10)).writeTo(out);

        assertThat(out.writes).containsExactly(pack.length - 10);
        assertThat(out.arrays).allMatch(a -> a == pack);
        assertThat(out.bytes.toByteArray()).isEqualTo(Arrays.copyOfRange(pack, 5, pack.length - 5));
    }

    @Test
    void aBufferWithoutAnArrayGoesInLargeSlices() throws IOException {
        byte[] pack = bytes(600 << 10);
        ByteBuffer direct = ByteBuffer.allocateDirect(pack.length).put(pack).flip();
        RecordingStream out = new RecordingStream();

        WholeBodyPuts.BufferEntity entity = new WholeBodyPuts.BufferEntity(direct);
        entity.writeTo(out);

        int slice = WholeBodyPuts.BufferEntity.SLICE;
        assertThat(out.writes).containsExactly(slice, slice, pack.length - 2 * slice);
        assertThat(out.bytes.toByteArray()).isEqualTo(pack);
        assertThat(direct.remaining()).as("the caller's buffer is left alone").isEqualTo(pack.length);
        assertThat(entity.getContent().readAllBytes()).as("repeatable").isEqualTo(pack);
    }

    @Test
    void aPutSendsTheSignedHeadersAndTheBodyAndReportsTheAnswer() throws IOException {
        Map<String, byte[]> bodies = new ConcurrentHashMap<>();
        Map<String, String> hosts = new ConcurrentHashMap<>();
        AtomicInteger status = new AtomicInteger(200);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                bodies.put(exchange.getRequestURI().getPath(), in.readAllBytes());
            }
            hosts.put(exchange.getRequestURI().getPath(), exchange.getRequestHeaders().getFirst("Host")
                    + " " + exchange.getRequestHeaders().getFirst("x-amz-content-sha256"));
            byte[] answer = "<answer/>".getBytes();
            exchange.sendResponseHeaders(status.get(), answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        });
        server.start();
        URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        try (WholeBodyPuts puts = new WholeBodyPuts(Duration.ofSeconds(5), Duration.ofSeconds(5), 2)) {
            byte[] pack = bytes(1 << 20);

            assertThat(puts.put(signed(base, "/b/p/1"), ByteBuffer.wrap(pack))).isTrue();
            status.set(403);
            assertThat(puts.put(signed(base, "/b/p/2"), ByteBuffer.wrap(pack, 0, 10))).isFalse();
            status.set(200);
            // the answers were read to their ends: more puts than pooled connections still go through
            for (int i = 3; i < 8; i++) {
                assertThat(puts.put(signed(base, "/b/p/" + i), ByteBuffer.wrap(pack, i, 100))).isTrue();
            }

            assertThat(bodies.get("/b/p/1")).isEqualTo(pack);
            assertThat(bodies.get("/b/p/2")).hasSize(10);
            assertThat(bodies.get("/b/p/7")).isEqualTo(Arrays.copyOfRange(pack, 7, 107));
            assertThat(hosts.get("/b/p/1")).isEqualTo("signed.example:1234 UNSIGNED-PAYLOAD");
        } finally {
            server.stop(0);
        }
    }

    /** A request as the signer leaves it: the Host it signed (kept as is) and a Content-Length (the entity's). */
    private static SdkHttpFullRequest signed(URI base, String path) {
        return SdkHttpFullRequest.builder().method(SdkHttpMethod.PUT).uri(base).encodedPath(path)
                .putHeader("Host", "signed.example:1234")
                .putHeader("Content-Length", "999999")
                .putHeader("x-amz-content-sha256", "UNSIGNED-PAYLOAD")
                .build();
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + 7);
        }
        return b;
    }

    /** Keeps what was written and the size and array of each write. */
    private static final class RecordingStream extends OutputStream {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final List<Integer> writes = new ArrayList<>();
        final List<byte[]> arrays = new ArrayList<>();

        @Override
        public void write(int b) {
            writes.add(1);
            bytes.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            writes.add(len);
            arrays.add(b);
            bytes.write(b, off, len);
        }
    }
}
