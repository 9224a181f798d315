package io.coffer.gateway.por;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/** Damage to the embedded PoR server's code (C and H): every code-vector file overwritten with random bytes. */
public final class ServerFiles {
    private ServerFiles() {
    }

    /** Overwrites every {@code *.vectors} file of the server in {@code data} in place; returns how many. */
    public static int destroyCode(Path data, long seed) throws IOException {
        Random random = new Random(seed);
        List<Path> files;
        try (Stream<Path> s = Files.list(EmbeddedPorStore.serverDir(data))) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".vectors")).toList();
        }
        for (Path f : files) {
            byte[] garbage = new byte[(int) Files.size(f)];
            random.nextBytes(garbage);
            Files.write(f, garbage);
        }
        return files.size();
    }
}
