package io.coffer.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.client.ClientState;
import io.coffer.por.client.PorClient;
import io.coffer.por.net.RemotePorServer;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.S3BlobStore;
import io.coffer.sdk.testing.S3ServerFixture;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code coffer por-server --backend s3} keeps U, C and H as objects in a bucket (s3proxy on a loopback port) and
 * its journal and checksums under {@code --data}: a client writes, audits and reads back across a restart, and a
 * restart that names another backend for the directory is refused; a grow leaves only the current capacity's C
 * objects in the bucket.
 */
class PorServerS3BackendTest {
    @RegisterExtension
    static final S3ServerFixture S3 = new S3ServerFixture();

    @TempDir
    Path dir;

    private static Map<String, String> backendEnv() {
        return Map.of("COFFER_BACKEND_ACCESS_KEY", S3.accessKey(), "COFFER_BACKEND_SECRET_KEY", S3.secretKey());
    }

    private final List<ClientState> persisted = new ArrayList<>();

    @Test
    void uCAndHLiveInTheBucketAcrossARestart() throws Exception {
        String bucket = S3.createBucket();
        String[] s3 = {"--backend", "s3", "--s3-bucket", bucket, "--s3-endpoint", S3.endpoint().toString(),
            "--s3-path-style"};
        byte[] masterKey = new byte[32];
        new SecureRandom().nextBytes(masterKey);
        InProcessPorServer first = InProcessPorServer.start(backendEnv(), concat(new String[] {"--data",
            dir.toString(), "--port", "0", "--k", "4",
            "--block-size", "64"}, s3));
        assertThat(first.out().toString()).contains("backend:     s3 bucket " + bucket);
        try (RemotePorServer remote = InProcessPorServer.connect(dir, first.port())) {
            PorClient client = PorClient.initialize(remote, masterKey, new SecureRandom(), persisted::add);
            for (int i = 0; i < 20; i++) { // past one C rebuild
                client.write(i % 16, block(i));
            }
            assertThat(client.audit().passed()).isTrue();
        }
        assertThat(first.stop()).isZero();
        try (S3BlobStore objects = S3.storeBuilder(bucket).build()) {
            assertThat(objects.head("u/3")).isPresent();
            assertThat(objects.head("c-5-y/15")).isPresent();
        }
        assertThat(dir.resolve("u.blocks")).doesNotExist();

        InProcessPorServer second = InProcessPorServer.start(backendEnv(), concat(new String[] {"--data",
            dir.toString(), "--port", "0"}, s3));
        try (RemotePorServer remote = InProcessPorServer.connect(dir, second.port())) {
            PorClient client = new PorClient(remote, persisted.get(persisted.size() - 1), new SecureRandom(),
                    persisted::add);
            assertThat(client.audit().passed()).isTrue();
            assertThat(client.read(3)).isEqualTo(block(19));
            assertThat(client.read(10)).isEqualTo(block(10));
        }
        assertThat(second.stop()).isZero();

        StringWriter err = new StringWriter();
        CommandLine cl = CofferCommand.commandLine();
        cl.setErr(new PrintWriter(err, true));
        assertThat(cl.execute("por-server", "--data", dir.toString(), "--port", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("keeps U, C and H in s3 ", bucket, "not dir");
        assertThat(Files.readString(dir.resolve(PorServerCommand.BACKEND_FILE))).startsWith("s3 ");
    }

    @Test
    void aGrowOverTheProtocolLeavesOnlyTheNewCapacitysCObjectsAndARestartDeletesFormerOnesACrashLeft()
            throws Exception {
        String bucket = S3.createBucket();
        String[] args = {"--data", dir.toString(), "--port", "0", "--k", "4", "--block-size", "64", "--backend", "s3",
            "--s3-bucket", bucket, "--s3-endpoint", S3.endpoint().toString(), "--s3-path-style"};
        byte[] masterKey = new byte[32];
        new SecureRandom().nextBytes(masterKey);
        InProcessPorServer first = InProcessPorServer.start(backendEnv(), args);
        try (RemotePorServer remote = InProcessPorServer.connect(dir, first.port())) {
            PorClient client = PorClient.initialize(remote, masterKey, new SecureRandom(), persisted::add);
            for (int i = 0; i < 20; i++) { // past one C rebuild: C's objects at level 5
                client.write(i % 16, block(i));
            }
            client.grow(5);
            assertThat(client.audit().passed()).isTrue();
            assertThat(client.read(3)).isEqualTo(block(19));
        }
        assertThat(first.stop()).isZero();
        assertOnlyTheCObjectsOfK5(bucket);
        try (S3BlobStore objects = S3.storeBuilder(bucket).build()) {
            objects.put("c-5-x/0", BlobContent.of(new byte[28])); // as a crash before the deletes leaves it
        }

        InProcessPorServer second = InProcessPorServer.start(backendEnv(), args);
        try (RemotePorServer remote = InProcessPorServer.connect(dir, second.port())) {
            PorClient client = new PorClient(remote, persisted.get(persisted.size() - 1), new SecureRandom(),
                    persisted::add);
            assertThat(client.audit().passed()).isTrue();
            assertThat(client.read(10)).isEqualTo(block(10));
        }
        assertThat(second.stop()).isZero();
        assertOnlyTheCObjectsOfK5(bucket);
    }

    /** C at 2^5 blocks is level 6, x and y, 32 vectors each; none is left of level 5 (2^4 blocks). */
    private static void assertOnlyTheCObjectsOfK5(String bucket) throws Exception {
        try (S3BlobStore objects = S3.storeBuilder(bucket).build()) {
            assertThat(objects.list("c-5-").toList()).isEmpty();
            assertThat(objects.list("c-6-").toList()).hasSize(2 << 5);
        }
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte[] block(int i) {
        byte[] b = new byte[64];
        b[0] = (byte) i;
        b[63] = (byte) (i * 7);
        return b;
    }
}
