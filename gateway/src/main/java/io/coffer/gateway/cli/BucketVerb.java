package io.coffer.gateway.cli;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.layer.LayerModePolicy;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code coffer bucket ...}: bucket-level settings kept in the bucket's sealed record. */
@Command(name = "bucket", mixinStandardHelpOptions = true, description = "Bucket-level settings (coffer bucket --help).",
        subcommands = {BucketVerb.LayerMode.class, CommandLine.HelpCommand.class})
final class BucketVerb implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a setting, e.g. layer-mode");
    }

    /**
     * {@code coffer bucket layer-mode BUCKET SETTING}: the bucket's layer mode (docs/FORMAT.md "Layer-mode objects"),
     * which wins over the {@code layer-mode} config key; {@code default} removes it so the key decides again.
     */
    @Command(name = "layer-mode", mixinStandardHelpOptions = true,
            description = {"Set a bucket's layer mode over the layer-mode config key: on (= h-mode), off, h-mode,"
                    + " b-mode N, f-mode, or a mode text (high, basic:N, flexible[:BITS:HASHES]); default removes the"
                    + " bucket's own setting.",
                "Runs on the stopped store (as stats does); a gateway reads the setting at each PUT."})
    static final class LayerMode extends EngineVerb {
        @Parameters(index = "0", paramLabel = "BUCKET", description = "The bucket.")
        String bucket;

        @Parameters(index = "1..*", arity = "1..2", paramLabel = "SETTING", description = "The layer mode.")
        List<String> setting = new ArrayList<>();

        @Override
        int run(Coffer coffer, PrintWriter out) {
            String text = String.join(" ", setting);
            byte[] document;
            if (text.trim().equalsIgnoreCase("default")) {
                document = null;
            } else {
                try {
                    document = LayerModePolicy.bucketDocument(text);
                } catch (IllegalArgumentException e) {
                    spec.commandLine().getErr().println("coffer bucket layer-mode: " + e.getMessage());
                    return 2;
                }
            }
            coffer.putBucketConfig(coffer.headBucket(bucket), LayerModePolicy.BUCKET_CONFIG, document);
            out.println("bucket " + bucket + ": layer mode "
                    + (document == null ? "from the config key" : new String(document, StandardCharsets.UTF_8)));
            return 0;
        }
    }
}
