package io.coffer.keyserver.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.keyserver.client.KeyServerClient;
import io.coffer.keyserver.client.LocalEvaluator;
import io.coffer.keyserver.oprf.KeyId;
import io.coffer.keyserver.pki.KeyServerDirectory;
import io.coffer.keyserver.pki.Pem;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyServerCommandTest {
    @TempDir
    Path tmp;

    /** Exit code and both streams of one run. */
    private record Result(int code, String out, String err) {}

    private static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = KeyServerCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static String perms(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void initCreatesCaServerKeyAndGatewayClientWithOwnerOnlySecrets() throws Exception {
        Path dir = tmp.resolve("ks");
        Result r = run("init", dir.toString(), "--algorithm", "p256", "--server-name", "ks.example", "10.1.2.3");
        assertThat(r.code()).as(r.err()).isEqualTo(0);
        KeyServerDirectory d = new KeyServerDirectory(dir);
        KeyId id = d.currentKeyId();
        assertThat(r.out()).contains("key id " + id.toHex()).contains("clients/gateway.crt").contains("ks.example, 10.1.2.3");
        for (Path f : List.of(d.caCertificate(), d.serverCertificate(), d.clientCertificate("gateway"), d.oprfPublicKey(id))) {
            assertThat(f).isRegularFile();
        }
        for (Path secret : List.of(dir.resolve("ca.key"), d.serverKey(), d.clientKey("gateway"), dir.resolve("oprf").resolve(id.toHex() + ".key"))) {
            assertThat(perms(secret)).as(secret.toString()).isEqualTo("rw-------");
        }
        assertThat(perms(dir)).isEqualTo("rwx------");
        X509Certificate server = d.loadServerCertificate();
        server.verify(d.loadCaCertificate().getPublicKey());
        assertThat(d.loadOprfPublicKey(id).toString()).isNotEmpty();
        assertThat(Pem.readCertificate(d.clientCertificate("gateway")).getSubjectX500Principal().getName()).isEqualTo("CN=gateway");

        Result again = run("init", dir.toString());
        assertThat(again.code()).isEqualTo(1);
        assertThat(again.err()).contains("already initialised");
    }

    @Test
    void initIfMissingLeavesAnInitialisedDirectoryAlone() throws Exception {
        Path dir = tmp.resolve("ks");
        assertThat(run("init", dir.toString(), "--algorithm", "p256", "--if-missing").code()).isEqualTo(0);
        byte[] ca = Files.readAllBytes(new KeyServerDirectory(dir).caCertificate());
        Result again = run("init", dir.toString(), "--algorithm", "p256", "--if-missing");
        assertThat(again.code()).as(again.err()).isEqualTo(0);
        assertThat(again.out()).contains("initialised already; nothing changed");
        assertThat(Files.readAllBytes(new KeyServerDirectory(dir).caCertificate())).isEqualTo(ca);
    }

    @Test
    void issueClientAndRotateKeyExtendTheDirectory() throws Exception {
        Path dir = tmp.resolve("ks");
        assertThat(run("init", dir.toString(), "--rsa-bits", "1024").code()).isEqualTo(0);
        KeyServerDirectory d = new KeyServerDirectory(dir);
        KeyId first = d.currentKeyId();

        Result issued = run("issue-client", "--dir", dir.toString(), "backup-1");
        assertThat(issued.code()).as(issued.err()).isEqualTo(0);
        assertThat(issued.out()).contains("CN=backup-1");
        Pem.readCertificate(d.clientCertificate("backup-1")).verify(d.loadCaCertificate().getPublicKey());
        assertThat(perms(d.clientKey("backup-1"))).isEqualTo("rw-------");
        Result twice = run("issue-client", "--dir", dir.toString(), "backup-1");
        assertThat(twice.code()).isEqualTo(1);
        assertThat(twice.err()).contains("already issued");

        Result rotated = run("rotate-key", "--dir", dir.toString());
        assertThat(rotated.code()).as(rotated.err()).isEqualTo(0);
        KeyId second = d.currentKeyId();
        assertThat(second).isNotEqualTo(first);
        assertThat(rotated.out()).contains("key id " + second.toHex()).contains("RSA-1024").contains(first.toHex());
        assertThat(d.loadOprfKeys().keySet()).containsExactly(second, first);

        Result toP256 = run("rotate-key", "--dir", dir.toString(), "--algorithm", "P256");
        assertThat(toP256.code()).as(toP256.err()).isEqualTo(0);
        assertThat(toP256.out()).contains("P-256");
    }

    @Test
    void serveAnswersARealClientOnEphemeralPortsAndStopsWhenInterrupted() throws Exception {
        Path dir = tmp.resolve("ks");
        assertThat(run("init", dir.toString(), "--rsa-bits", "1024").code()).isEqualTo(0);
        KeyServerDirectory d = new KeyServerDirectory(dir);
        PipedLines out = new PipedLines();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        AtomicInteger exit = new AtomicInteger(-1);
        Thread server = new Thread(() -> exit.set(KeyServerCommand.run(new String[] {"serve", "--dir", dir.toString(),
            "--https-port", "0", "--udp-port", "0", "--rate-limit", "none", "--workers", "2"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))), "serve-test");
        server.start();
        Matcher m = out.await(Pattern.compile("https port (\\d+), udp port (\\d+)"), Duration.ofSeconds(20));
        assertThat(m).as(err.toString(StandardCharsets.UTF_8)).isNotNull();
        int https = Integer.parseInt(m.group(1));
        assertThat(Integer.parseInt(m.group(2))).isPositive();
        assertThat(out.await(Pattern.compile("key id " + d.currentKeyId().toHex()), Duration.ofSeconds(5))).isNotNull();

        byte[] input = "chunk".getBytes(StandardCharsets.UTF_8);
        byte[] expected;
        try (LocalEvaluator local = LocalEvaluator.of(d.loadOprfKeys().get(d.currentKeyId()))) {
            expected = local.evaluate(List.of(input)).get(0);
        }
        for (KeyServerClient.Transport t : KeyServerClient.Transport.values()) {
            try (KeyServerClient c = KeyServerClient.builder().host("localhost").httpsPort(https).transport(t)
                    .credentials(d.clientCertificate("gateway"), d.clientKey("gateway"), d.caCertificate())
                    .publicKey(d.oprfPublicKey(d.currentKeyId())).timeout(Duration.ofSeconds(2)).build()) {
                assertThat(c.evaluate(input)).as(t.toString()).isEqualTo(expected);
            }
        }

        server.interrupt();
        server.join(10_000);
        assertThat(server.isAlive()).isFalse();
        assertThat(exit.get()).isEqualTo(0);
        assertThat(out.await(Pattern.compile("key server stopped"), Duration.ofSeconds(5))).isNotNull();
    }

    @Test
    void serveWithAnAdminPortAnswersHealthAndMetricsWithoutACertificate() throws Exception {
        Path dir = tmp.resolve("ks");
        assertThat(run("init", dir.toString(), "--algorithm", "p256").code()).isEqualTo(0);
        PipedLines out = new PipedLines();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        AtomicInteger exit = new AtomicInteger(-1);
        Thread server = new Thread(() -> exit.set(KeyServerCommand.run(new String[] {"serve", "--dir", dir.toString(),
            "--https-port", "0", "--udp-port", "0", "--admin-port", "0", "--rate-limit", "none", "--workers", "1"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))),
                "serve-admin-test");
        server.start();
        Matcher m = out.await(Pattern.compile("admin port (\\d+) on 127\\.0\\.0\\.1"), Duration.ofSeconds(20));
        assertThat(m).as(err.toString(StandardCharsets.UTF_8)).isNotNull();
        HttpClient http = HttpClient.newHttpClient();
        for (String path : List.of("/health/live", "/health/ready", "/metrics")) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + m.group(1) + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(path).isEqualTo(200);
        }
        server.interrupt();
        server.join(10_000);
        assertThat(exit.get()).isEqualTo(0);
    }

    @Test
    void badArgumentsAreUsageErrorsWithAMessage() throws Exception {
        Path dir = tmp.resolve("ks");
        Result none = run();
        assertThat(none.code()).isEqualTo(2);
        assertThat(none.err()).contains("missing verb");

        Result unknown = run("frobnicate");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("frobnicate");

        Result bits = run("init", dir.toString(), "--rsa-bits", "512");
        assertThat(bits.code()).isEqualTo(2);
        assertThat(bits.err()).contains("--rsa-bits");
        assertThat(dir).doesNotExist();

        Result alg = run("init", dir.toString(), "--algorithm", "dsa");
        assertThat(alg.code()).isEqualTo(2);
        assertThat(alg.err()).contains("--algorithm");

        Result noDir = run("issue-client", "gw2");
        assertThat(noDir.code()).isEqualTo(2);
        assertThat(noDir.err()).contains("--dir");

        Result port = run("serve", "--dir", dir.toString(), "--https-port", "70000");
        assertThat(port.code()).isEqualTo(2);
        assertThat(port.err()).contains("--https-port");

        Result limit = run("serve", "--dir", dir.toString(), "--rate-limit", "sometimes");
        assertThat(limit.code()).isEqualTo(2);
        assertThat(limit.err()).contains("sometimes");

        Result queue = run("serve", "--dir", dir.toString(), "--max-queue-delay-ms", "0");
        assertThat(queue.code()).isEqualTo(2);
        assertThat(queue.err()).contains("--max-queue-delay-ms");

        Result missing = run("serve", "--dir", dir.toString(), "--rate-limit", "none");
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err()).contains("no key-server directory");

        assertThat(run("init", dir.toString(), "--rsa-bits", "1024").code()).isEqualTo(0);
        Result name = run("issue-client", "--dir", dir.toString(), "../evil");
        assertThat(name.code()).isEqualTo(2);
        assertThat(name.err()).contains("invalid client name");
    }

    @Test
    void everyVerbHasHelp() {
        for (String verb : List.of("init", "issue-client", "rotate-key", "serve")) {
            Result r = run(verb, "--help");
            assertThat(r.code()).as(verb).isEqualTo(0);
            assertThat(r.out()).as(verb).contains("Usage:").contains(verb);
        }
        Result top = run("--help");
        assertThat(top.code()).isEqualTo(0);
        assertThat(top.out()).contains("init").contains("issue-client").contains("rotate-key").contains("serve");
    }

    /** An output stream whose text can be awaited line by line from another thread. */
    private static final class PipedLines extends OutputStream {
        private final StringBuilder text = new StringBuilder();

        @Override
        public synchronized void write(int b) {
            text.append((char) b);
            notifyAll();
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            text.append(new String(b, off, len, StandardCharsets.UTF_8));
            notifyAll();
        }

        synchronized String text() {
            return text.toString();
        }

        synchronized Matcher await(Pattern p, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                Matcher m = p.matcher(text);
                if (m.find()) {
                    return m;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return null;
                }
                wait(Math.max(1, left / 1_000_000));
            }
        }
    }
}
