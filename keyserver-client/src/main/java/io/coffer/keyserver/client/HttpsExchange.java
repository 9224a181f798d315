package io.coffer.keyserver.client;

import io.coffer.keyserver.wire.MalformedMessageException;
import io.coffer.keyserver.wire.SessionGrant;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;

/**
 * OPRFv1 round trips: {@code POST /oprf} over HTTPS with the client certificate, on the JDK HTTP client
 * (HTTP/1.1, persistent connections reused across queries). Also performs KSInit for OPRFv2.
 * Open one with {@link KeyServerClient.Builder#openHttpsExchange()}.
 */
public final class HttpsExchange implements Exchange {
    private static final String BINARY = "application/octet-stream";
    private final HttpClient http;
    private final ExecutorService executor;
    private final URI base;
    private final Duration timeout;
    private final int maxBatch;

    HttpsExchange(SSLContext tls, String host, int port, Duration connectTimeout, Duration timeout, int maxBatch) {
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "ks-client-http");
            t.setDaemon(true);
            return t;
        });
        this.http = HttpClient.newBuilder()
                .sslContext(tls)
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                .executor(executor)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        this.base = URI.create("https://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port);
        this.timeout = timeout;
        this.maxBatch = maxBatch;
    }

    /** Handshakes with {@code GET /health}, which no rate limit counts. */
    @Override
    public void connect() throws IOException, InterruptedException {
        http.send(request("/health").GET().build(), HttpResponse.BodyHandlers.discarding());
    }

    @Override
    public byte[] exchange(byte[] request) throws IOException, InterruptedException {
        return post("/oprf", request);
    }

    /** KSInit: a new OPRFv2 session (id, key, lifetime, UDP port) for this client. */
    public SessionGrant openSession() throws IOException, InterruptedException {
        try {
            return SessionGrant.decode(post("/session", new byte[0]));
        } catch (MalformedMessageException e) {
            throw new ProtocolFailure("bad KSInit answer");
        }
    }

    /** POSTs a binary body and returns the binary answer body (any status that carries one). */
    byte[] post(String path, byte[] body) throws IOException, InterruptedException {
        HttpRequest req = request(path)
                .header("Content-Type", BINARY)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        HttpResponse<byte[]> resp = http.send(req, HttpResponse.BodyHandlers.ofByteArray());
        String type = resp.headers().firstValue("Content-Type").orElse("");
        if (!type.startsWith(BINARY)) {
            // a refusal the server explains in text (a KSInit over the client's session limit) keeps its reason
            String reason = type.startsWith("text/plain") && resp.body().length > 0
                    ? ": " + new String(resp.body(), 0, Math.min(resp.body().length, 300), StandardCharsets.UTF_8).strip()
                    : " without a key-server answer";
            throw new ProtocolFailure("HTTP " + resp.statusCode() + reason);
        }
        return resp.body();
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(timeout);
    }

    @Override
    public int capacity(int elementLength, int proofLength) {
        return maxBatch;
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }

    /** An HTTP answer that is not a key-server message. */
    static final class ProtocolFailure extends IOException {
        private static final long serialVersionUID = 1L;

        ProtocolFailure(String message) {
            super(message);
        }
    }
}
