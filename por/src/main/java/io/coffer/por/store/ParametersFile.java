package io.coffer.por.store;

import io.coffer.por.net.ServerParameters;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * A server's parameters, fixed when its directory is created ({@code k}, {@code batch}, {@code blockBytes} as
 * properties): a later start may omit them, and one that asks for others is refused, since the stored code depends
 * on them.
 */
final class ParametersFile {
    private ParametersFile() {
    }

    /** The parameters stored in {@code file}, or {@code requested} stored there when the file does not exist yet. */
    static ServerParameters fix(Path file, ServerParameters requested) throws IOException {
        if (!Files.exists(file)) {
            if (requested == null) {
                throw new IOException("no PoR server in " + file.getParent()
                        + ": give k and the block size to create one");
            }
            String text = "k=" + requested.k() + "\nbatch=" + requested.batchExponent() + "\nblockBytes="
                    + requested.blockBytes() + "\n";
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, text, StandardCharsets.US_ASCII);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
            return requested;
        }
        Properties p = new Properties();
        p.load(new StringReader(Files.readString(file, StandardCharsets.US_ASCII)));
        ServerParameters stored;
        try {
            stored = new ServerParameters(Integer.parseInt(p.getProperty("k", "")),
                    Integer.parseInt(p.getProperty("batch", "")), Integer.parseInt(p.getProperty("blockBytes", "")));
        } catch (IllegalArgumentException e) {
            throw new IOException("PoR parameters file " + file + " is damaged: " + e.getMessage());
        }
        if (requested != null && !requested.equals(stored)) {
            throw new IOException("the PoR server in " + file.getParent() + " was created with " + stored
                    + "; asked for " + requested);
        }
        return stored;
    }
}
