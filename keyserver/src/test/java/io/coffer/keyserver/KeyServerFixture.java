package io.coffer.keyserver;

import io.coffer.keyserver.client.ClientTls;
import io.coffer.keyserver.client.KeyServerClient;
import io.coffer.keyserver.pki.KeyServerDirectory;
import io.coffer.keyserver.server.KeyServer;
import io.coffer.keyserver.server.KeyServerInit;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLContext;

/** Shared set-up for tests on real sockets: key-server directories, servers on ephemeral ports, clients. */
public final class KeyServerFixture {
    private KeyServerFixture() {}

    public static KeyServerDirectory init(Path dir, KeyServerInit.OprfAlgorithm alg, String... clients) throws Exception {
        KeyServerInit.Options o = new KeyServerInit.Options().algorithm(alg);
        for (String c : clients) {
            o.client(c);
        }
        return KeyServerInit.create(dir, o);
    }

    public static KeyServer start(KeyServerDirectory dir, String rateLimit) throws Exception {
        return KeyServer.builder().directory(dir.root()).httpsPort(0).udpPort(0).rateLimit(rateLimit).workerThreads(2).start();
    }

    public static KeyServerClient.Builder client(KeyServerDirectory dir, KeyServer server, String name, KeyServerClient.Transport t)
            throws Exception {
        return KeyServerClient.builder()
                .host("localhost")
                .httpsPort(server.httpsPort())
                .transport(t)
                .credentials(dir.clientCertificate(name), dir.clientKey(name), dir.caCertificate())
                .publicKey(dir.oprfPublicKey(dir.currentKeyId()))
                .timeout(Duration.ofSeconds(1));
    }

    /** A mutual-TLS context for raw protocol tests: client {@code name} of {@code clientDir}, trusting {@code caDir}'s CA. */
    public static SSLContext tls(KeyServerDirectory clientDir, String name, KeyServerDirectory caDir) throws Exception {
        return ClientTls.context(clientDir.clientCertificate(name), clientDir.clientKey(name), caDir.caCertificate());
    }

    public static HttpClient http(SSLContext tls) {
        return HttpClient.newBuilder().sslContext(tls).version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
    }

    public static HttpResponse<byte[]> post(HttpClient http, KeyServer server, String path, byte[] body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("https://localhost:" + server.httpsPort() + path))
                .timeout(Duration.ofSeconds(3))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    public static HttpResponse<String> get(HttpClient http, KeyServer server, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("https://localhost:" + server.httpsPort() + path))
                .timeout(Duration.ofSeconds(3)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Waits up to 2 s for a condition checked every 10 ms; returns whether it held. */
    public static boolean eventually(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(10);
        }
        return condition.getAsBoolean();
    }
}
