package io.coffer.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.crypto.MasterKey;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code coffer rotate-master-key} on the command line (in this JVM): the store then opens only with the new key. */
class RotateMasterKeyCommandTest {
    private static final byte[] BODY = "written before the rotation".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    @Test
    void theNewKeyFileIsMadeAndOpensTheStoreWhileTheOldOneNoLongerDoes() throws Exception {
        Path data = dir.resolve("data");
        try (Coffer c = Coffer.builder().directory(data).build()) {
            c.createBucket("bkt", "t");
            c.putObject(PutObjectRequest.of("bkt", "k", BODY.length), new ByteArrayInputStream(BODY));
        }
        Path newKey = dir.resolve("new.key");

        Run rotate = run("rotate-master-key", "--data", data.toString(), "--new-key", newKey.toString());
        assertThat(rotate.exit()).as(rotate.err()).isZero();
        String id = MasterKey.load(newKey).keyIdHex();
        assertThat(rotate.out()).contains("the store's master key is now " + id).contains("--master-key " + newKey);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(newKey))).isEqualTo("rw-------");

        try (Coffer c = Coffer.builder().directory(data).masterKeyFile(newKey).build();
             ObjectContent content = c.getObject("bkt", "k")) {
            assertThat(content.stream().readAllBytes()).isEqualTo(BODY);
        }
        // DATA/master.key still holds the old key, which the store now refuses
        Run stale = run("fsck", "--data", data.toString());
        assertThat(stale.exit()).isEqualTo(2);
        assertThat(stale.err()).contains("expects master key " + id);
        Run fsck = run("fsck", "--data", data.toString(), "--master-key", newKey.toString());
        assertThat(fsck.exit()).as(fsck.err()).isZero();
    }

    @Test
    void aDirectoryWithoutAStoreIsRefusedAndNoKeyIsMade() {
        Path newKey = dir.resolve("new.key");
        Run r = run("rotate-master-key", "--data", dir.resolve("none").toString(), "--new-key", newKey.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("no Coffer store in");
        assertThat(dir.resolve("none")).doesNotExist();
        assertThat(newKey).doesNotExist();
    }

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = CofferCommand.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }
}
