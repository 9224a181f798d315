package io.coffer.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.client.ClientState;
import io.coffer.por.client.PorClient;
import io.coffer.por.code.PacedCRebuild;
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
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code coffer por-server --backend s3} keeps U, C and H as objects in a bucket (s3proxy on a loopback port) and
 * its journal and checksums under {@code --data}: a client writes, audits and reads back across a restart, and a
 * restart that names another backend for the directory is refused; a grow leaves only the current capacity's C
 * objects in the bucket; C's rebuild is paced there (PACES: yes), and the client's part too (PACES_PART: yes),
 * audited inside its window and after it.
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
    void writesPastAnEpochsEndArePacedWithAuditsInsideAndAfterTheWindowAndTheFormerGenerationGoes()
            throws Exception {
        String bucket = S3.createBucket();
        String[] args = {"--data", dir.toString(), "--port", "0", "--k", "4", "--block-size", "64", "--batch", "0",
            "--backend", "s3", "--s3-bucket", bucket, "--s3-endpoint", S3.endpoint().toString(), "--s3-path-style"};
        byte[] masterKey = new byte[32];
        new SecureRandom().nextBytes(masterKey);
        int toSwitch = (int) PacedCRebuild.stepsToComplete(4); // b = 0: an add per write, the window half an epoch
        InProcessPorServer first = InProcessPorServer.start(backendEnv(), args);
        try (RemotePorServer remote = InProcessPorServer.connect(dir, first.port())) {
            assertThat(remote.pacesCRebuild()).isTrue(); // PACES: yes
            assertThat(remote.pacesClientPart()).isTrue(); // PACES_PART: yes, the client's part paced too
            PorClient client = PorClient.initialize(remote, masterKey, new SecureRandom(), persisted::add);
            for (int i = 0; i < 16 + toSwitch - 1; i++) { // past the epoch's end, to its window's last add
                client.write(i % 16, block(i));
            }
            client.flush();
            assertThat(client.state().window()).isTrue();
            assertThat(client.audit().passed()).isTrue(); // the old C, the frozen H and the current H
            // the old C where it was, the next C under way under the window's generation (its epoch's prefix)
            assertThat(cObjects(bucket)).filteredOn(name -> name.startsWith("c-")).hasSize(2 << 4);
            assertThat(cObjects(bucket)).filteredOn(name -> name.matches("g[0-9]+/c-5-.*")).isNotEmpty();
        }
        assertThat(first.stop()).isZero();

        InProcessPorServer second = InProcessPorServer.start(backendEnv(), args); // a restart inside the window
        try (RemotePorServer remote = InProcessPorServer.connect(dir, second.port())) {
            PorClient client = new PorClient(remote, persisted.get(persisted.size() - 1), new SecureRandom(),
                    persisted::add);
            assertThat(client.audit().passed()).isTrue();
            for (int i = 16 + toSwitch - 1; i < 32; i++) { // through the switch to the epoch's end
                client.write(i % 16, block(i));
                if (i == 16 + toSwitch - 1) { // the switching add: the part was uploaded before it
                    assertThat(client.state().clientPartPending()).isFalse();
                }
            }
            client.flush();
            assertThat(client.audit().passed()).isTrue();
            for (int i = 0; i < 16; i++) {
                assertThat(client.read(i)).isEqualTo(block(i + 16));
            }
        }
        assertThat(second.stop()).isZero();
        // the epoch's rest deleted generation 0's C and H: C is whole under the window's generation alone
        assertThat(cObjects(bucket)).noneMatch(name -> name.startsWith("c-"));
        assertThat(cObjects(bucket).stream().collect(Collectors.groupingBy(PorServerS3BackendTest::generation,
                Collectors.counting()))).containsValue(2L << 4);
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
        String generation = assertOnlyTheCObjectsOfK5(bucket);
        try (S3BlobStore objects = S3.storeBuilder(bucket).build()) {
            // as a crash before the deletes leaves it, under C's generation (the grow ended a paced window)
            objects.put(generation + "c-5-x/0", BlobContent.of(new byte[28]));
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

    /**
     * C at 2^5 blocks is level 6, x and y, 32 vectors each, under one generation's prefix (returned); none is left of
     * level 5 (2^4 blocks) under any.
     */
    private static String assertOnlyTheCObjectsOfK5(String bucket) throws Exception {
        List<String> c = cObjects(bucket);
        assertThat(c).noneMatch(name -> name.contains("c-5-"));
        assertThat(c).filteredOn(name -> name.contains("c-6-")).hasSize(2 << 5);
        List<String> generations = c.stream().map(PorServerS3BackendTest::generation).distinct().toList();
        assertThat(generations).hasSize(1);
        return generations.get(0);
    }

    /** Every C object of the bucket, under whichever generation's prefix ({@code g<epoch>/}, or none). */
    private static List<String> cObjects(String bucket) throws Exception {
        try (S3BlobStore objects = S3.storeBuilder(bucket).build()) {
            return objects.list("").toList().stream().map(b -> b.name())
                    .filter(name -> name.substring(generation(name).length()).startsWith("c-")).toList();
        }
    }

    private static String generation(String name) {
        return name.matches("g[0-9]+/.*") ? name.substring(0, name.indexOf('/') + 1) : "";
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
