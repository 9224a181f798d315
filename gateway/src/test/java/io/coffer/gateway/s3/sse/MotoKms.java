package io.coffer.gateway.s3.sse;

import io.coffer.gateway.clients.ExternalClients;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kms.KmsClient;

/**
 * moto's KMS ({@code moto_server}, from the venv {@code ./coffer test} makes, named by {@code -Dcoffer.moto}) on a
 * loopback port, started for a test and stopped by it; its keys live in its memory only. A test that needs it fails
 * (never skips) when it is missing.
 */
public final class MotoKms implements AutoCloseable {
    public static final String ACCESS_KEY = "testing";
    public static final String SECRET_KEY = "testing";

    private final Process process;
    private final int port;
    private final KmsClient client;
    private boolean closed;

    private MotoKms(Process process, int port) {
        this.process = process;
        this.port = port;
        this.client = KmsClient.builder().endpointOverride(endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(credentials()).build();
    }

    public static MotoKms start(Path logDir) throws IOException, InterruptedException {
        return start(logDir, freePort());
    }

    /** A loopback port free now, for a KMS client made before its server starts ({@link #start(Path, int)}). */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** moto's KMS on {@code port}, its output in {@code logDir}. */
    public static MotoKms start(Path logDir, int port) throws IOException, InterruptedException {
        Path moto = ExternalClients.executable("coffer.moto", "moto_server (pip package moto[server])");
        Files.createDirectories(logDir);
        Process p = new ProcessBuilder(moto.toString(), "-H", "127.0.0.1", "-p", String.valueOf(port))
                .redirectErrorStream(true).redirectOutput(logDir.resolve("moto-" + port + ".log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IOException("moto_server exited with " + p.exitValue() + "; see "
                        + logDir.resolve("moto-" + port + ".log"));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return new MotoKms(p, port);
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        p.destroyForcibly();
        throw new IOException("moto_server did not listen on port " + port + " within 30 s");
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    public static StaticCredentialsProvider credentials() {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY));
    }

    /** A client for setting keys up (create, alias, disable). */
    KmsClient client() {
        return client;
    }

    /** A new key, named also by {@code alias} when not null; its ARN. */
    public String createKey(String alias) {
        String id = client.createKey(b -> b.description("coffer test")).keyMetadata().keyId();
        if (alias != null) {
            client.createAlias(b -> b.aliasName(alias).targetKeyId(id));
        }
        return client.describeKey(b -> b.keyId(id)).keyMetadata().arn();
    }

    /** The gateway's key source over this KMS. */
    KmsServiceKeys keySource() {
        return keySource(port);
    }

    /** A gateway's key source over the KMS on loopback {@code port} (started or not). */
    public static KmsServiceKeys keySource(int port) {
        return KmsServiceKeys.connect(URI.create("http://127.0.0.1:" + port), "us-east-1", credentials());
    }

    @Override
    public void close() throws InterruptedException {
        if (closed) {
            return;
        }
        closed = true;
        client.close();
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
