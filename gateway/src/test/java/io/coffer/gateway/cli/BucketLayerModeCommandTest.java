package io.coffer.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.layer.LayerModePolicy;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code coffer bucket layer-mode} writes, replaces and removes the bucket's layer-mode document. */
class BucketLayerModeCommandTest {
    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = CofferCommand.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int rc = cl.execute(args);
        return new Run(rc, out.toString(), err.toString());
    }

    private Optional<String> document(Path data) {
        try (Coffer coffer = Coffer.builder().directory(data).build()) {
            return coffer.bucketConfig(coffer.headBucket("images"), LayerModePolicy.BUCKET_CONFIG)
                    .map(d -> new String(d, StandardCharsets.UTF_8));
        }
    }

    @Test
    void layerModeIsSetChangedRefusedWhenMalformedAndRemoved() {
        Path data = dir.resolve("data");
        try (Coffer coffer = Coffer.builder().directory(data).build()) {
            coffer.createBucket("images", "alice");
        }
        Run on = run("bucket", "layer-mode", "--data", data.toString(), "images", "b-mode", "2");
        assertThat(on.exit()).as(on.err()).isZero();
        assertThat(on.out()).contains("layer mode basic:2");
        assertThat(document(data)).hasValue("basic:2");

        Run off = run("bucket", "layer-mode", "--data", data.toString(), "images", "off");
        assertThat(off.exit()).as(off.err()).isZero();
        assertThat(document(data)).hasValue("off");

        Run bad = run("bucket", "layer-mode", "--data", data.toString(), "images", "b-mode", "many");
        assertThat(bad.exit()).isNotZero();
        assertThat(bad.err()).contains("bad layer mode");
        assertThat(document(data)).hasValue("off");

        Run reset = run("bucket", "layer-mode", "--data", data.toString(), "images", "default");
        assertThat(reset.exit()).as(reset.err()).isZero();
        assertThat(document(data)).isEmpty();
    }
}
