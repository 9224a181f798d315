package io.coffer.por.store;

import io.coffer.por.net.ServerParameters;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * A server's parameters, fixed when its directory is created ({@code k}, {@code batch}, {@code blockBytes} as
 * properties): a later start may omit them, and one that asks for others is refused, since the stored code depends
 * on them. With them the byte order of the code vectors' ints ({@code vectorOrder}: {@code little} or {@code big}):
 * a new store takes the platform's, so its level files are read and written without swapping bytes; a store created
 * before the order was recorded has none and is big-endian. Any other value is refused.
 */
final class ParametersFile {
    private static final String ORDER = "vectorOrder";

    private ParametersFile() {
    }

    /** What the file holds: the parameters and the byte order of the code vectors. */
    record Stored(ServerParameters parameters, ByteOrder vectorOrder) {
    }

    /**
     * The parameters stored in {@code file}, or {@code requested} stored there with the platform's byte order when
     * the file does not exist yet.
     */
    static Stored fix(Path file, ServerParameters requested) throws IOException {
        if (!Files.exists(file)) {
            if (requested == null) {
                throw new IOException("no PoR server in " + file.getParent()
                        + ": give k and the block size to create one");
            }
            ByteOrder order = ByteOrder.nativeOrder();
            String text = "k=" + requested.k() + "\nbatch=" + requested.batchExponent() + "\nblockBytes="
                    + requested.blockBytes() + "\n" + ORDER + "=" + name(order) + "\n";
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, text, StandardCharsets.US_ASCII);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
            return new Stored(requested, order);
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
        String order = p.getProperty(ORDER, "big"); // written before the order was recorded
        return switch (order) {
            case "big" -> new Stored(stored, ByteOrder.BIG_ENDIAN);
            case "little" -> new Stored(stored, ByteOrder.LITTLE_ENDIAN);
            default -> throw new IOException("PoR parameters file " + file + " names an unknown vector byte order: "
                    + order);
        };
    }

    private static String name(ByteOrder order) {
        return order == ByteOrder.LITTLE_ENDIAN ? "little" : "big";
    }
}
