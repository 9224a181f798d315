package io.coffer.sdk.deflate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Names the zlib behind java.util.zip, for zlib recipes: the JDK has no API for zlib's version, so on Linux the
 * shared library mapped into this process is named by its real file name (libz.so.1.2.13 on Debian 12), else the JDK
 * (whose bundled zlib then is the one). Informative only: what a replay trusts is the segment hashes, never this name.
 */
public final class ZlibIdentity {
    private static final String CURRENT = find();

    private ZlibIdentity() {
    }

    public static String current() {
        return CURRENT;
    }

    private static String find() {
        new java.util.zip.Deflater().end(); // make sure the zip library (and a system zlib) is loaded
        String java = "java " + Runtime.version();
        Path maps = Path.of("/proc/self/maps");
        if (Files.isReadable(maps)) {
            try {
                List<String> lines = Files.readAllLines(maps);
                for (String line : lines) {
                    int slash = line.indexOf('/');
                    if (slash >= 0 && line.contains("/libz.so")) {
                        Path lib = Path.of(line.substring(slash).trim());
                        return lib.toRealPath().getFileName() + " (" + java + ")";
                    }
                }
            } catch (IOException | RuntimeException ignored) {
                // fall through to the JDK's name
            }
        }
        return "zlib bundled with " + java;
    }
}
