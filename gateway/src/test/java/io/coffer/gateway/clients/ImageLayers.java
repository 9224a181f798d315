package io.coffer.gateway.clients;

import java.io.IOException;
import java.nio.file.Files;
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

    /**
     * Two versions of an image of two layers in {@code work}: a layer of 13 files of 1.6 MB (over 5 MiB after gzip, so
     * a registry's S3 driver uploads it in parts) and one of 4 files of 120 KB; v2 changes a file in the middle of
     * each and adds one that sorts first, so every gzip stream of v2 differs from v1's from its first bytes on.
     * {@code changed} maps v2's new files' names (in the image's flattened file system) to their content.
     */
    public static TwoVersions twoVersions(Path work) throws IOException {
        Path big = Files.createDirectories(work.resolve("big"));
        Path small = Files.createDirectories(work.resolve("small"));
        for (int i = 0; i < 13; i++) {
            Files.writeString(big.resolve("file" + i + ".txt"), text(i, 1_600_000, true));
        }
        for (int i = 0; i < 4; i++) {
            Files.writeString(small.resolve("conf" + i + ".txt"), text(100 + i, 120_000, true));
        }
        List<Path> v1 = List.of(tgz(big, work.resolve("big1.tgz"), work), tgz(small, work.resolve("small1.tgz"), work));
        Files.writeString(big.resolve("file3.txt"), text(50, 1_600_000, true));
        Files.writeString(big.resolve("added.txt"), text(51, 300_000, true));
        Files.writeString(small.resolve("conf1.txt"), text(150, 120_000, true));
        Files.writeString(small.resolve("added.txt"), text(151, 40_000, true));
        List<Path> v2 = List.of(tgz(big, work.resolve("big2.tgz"), work), tgz(small, work.resolve("small2.tgz"), work));
        return new TwoVersions(v1, v2, Map.of("file3.txt", big.resolve("file3.txt"), "conf1.txt",
                small.resolve("conf1.txt"), "added.txt", small.resolve("added.txt")));
    }

    /** {@link #twoVersions}' layers and v2's changed files. */
    public record TwoVersions(List<Path> v1, List<Path> v2, Map<String, Path> changed) {
        /** The compressed bytes of v2's layers. */
        public long v2Bytes() throws IOException {
            long n = 0;
            for (Path p : v2) {
                n += Files.size(p);
            }
            return n;
        }
    }

    /** {@code tar czf} of the directory (GNU tar and gzip, as image layers are made), names sorted, times fixed. */
    public static Path tgz(Path dir, Path file, Path workDir) {
        List<String> command = List.of("tar", "--sort=name", "--mtime=@0", "--owner=0", "--group=0", "-czf",
                file.toString(), "-C", dir.toString(), ".");
        ExternalClients.run(command, Map.of(), workDir, TIMEOUT).requireSuccess(command);
        return file;
    }
}
