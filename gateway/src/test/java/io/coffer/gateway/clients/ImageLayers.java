package io.coffer.gateway.clients;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Image layers as registries hold them: {@code tar czf} of directories of configuration-like text. */
public final class ImageLayers {
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final String[] WORDS = {"layer", "image", "docker", "registry", "coffer", "gzip", "tar", "file",
        "usr", "lib", "bin", "share", "config", "value", "name", "version", "package", "module", "system", "data"};

    private ImageLayers() {
    }

    /**
     * Configuration-like text of {@code length} characters from {@code seed}: words, with {@code numbers} a quarter of
     * them followed by a number (gzip -6 then makes it about 3.5 times smaller; without, about 4 times).
     */
    public static String text(long seed, int length, boolean numbers) {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder(length + 32);
        while (sb.length() < length) {
            sb.append(WORDS[r.nextInt(WORDS.length)]);
            if (numbers && r.nextInt(4) == 0) {
                sb.append('=').append(r.nextInt(1_000_000));
            }
            sb.append(r.nextInt(10) == 0 ? '\n' : ' ');
        }
        return sb.substring(0, length);
    }

    /** {@code tar czf} of the directory (GNU tar and gzip, as image layers are made), names sorted, times fixed. */
    public static Path tgz(Path dir, Path file, Path workDir) {
        List<String> command = List.of("tar", "--sort=name", "--mtime=@0", "--owner=0", "--group=0", "-czf",
                file.toString(), "-C", dir.toString(), ".");
        ExternalClients.run(command, Map.of(), workDir, TIMEOUT).requireSuccess(command);
        return file;
    }
}
