package io.coffer.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.s3.lifecycle.LifecycleConfiguration;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.PutObjectRequest;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code coffer lifecycle}: {@code --dry-run --json} reports what is due and changes nothing; without, it expires. */
class LifecycleCommandTest {
    @TempDir
    Path dir;

    @Test
    void aDryRunReportsWhatIsDueAndASweepExpiresIt() {
        Path data = dir.resolve("data");
        try (Coffer coffer = Coffer.builder().directory(data).build()) {
            coffer.createBucket("cli-rules", "t");
            coffer.putBucketConfig(coffer.headBucket("cli-rules"), LifecycleConfiguration.BUCKET_CONFIG,
                    LifecycleConfiguration.parse(("<LifecycleConfiguration><Rule><ID>past</ID><Filter><Prefix>old/"
                            + "</Prefix></Filter><Status>Enabled</Status><Expiration><Date>2020-01-01</Date>"
                            + "</Expiration></Rule></LifecycleConfiguration>").getBytes(StandardCharsets.UTF_8))
                            .toXml());
            for (String key : List.of("old/a", "old/b", "new/c")) {
                coffer.putObject(PutObjectRequest.of("cli-rules", key, 1), new ByteArrayInputStream(new byte[1]));
            }
        }

        String plan = run("lifecycle", "--data", data.toString(), "--dry-run", "--json");
        assertThat(plan).startsWith("0\n").contains("{\"dryRun\":true,\"buckets\":1,\"currentExpired\":2,");
        assertThat(keys(data)).containsExactly("new/c", "old/a", "old/b");

        assertThat(run("lifecycle", "--data", data.toString())).startsWith("0\n")
                .contains("current versions expired: 2");
        assertThat(keys(data)).containsExactly("new/c");
    }

    private static List<String> keys(Path data) {
        try (Coffer coffer = Coffer.builder().directory(data).build()) {
            return coffer.listObjects("cli-rules", null, null, 100).objects().stream().map(o -> o.key()).toList();
        }
    }

    private static String run(String... args) {
        StringWriter out = new StringWriter();
        CommandLine cl = CofferCommand.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(out));
        int rc = cl.execute(args);
        return rc + "\n" + out;
    }
}
