package io.coffer.por.store;

import io.coffer.por.net.ServerParameters;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Properties;

/**
 * A server's parameters, fixed when its directory is created ({@code k}, {@code batch}, {@code blockBytes} as
 * properties): a later start may omit them, and one that asks for others is refused, since the stored code depends on
 * them; but for k, which a grow raises and a shrink lowers ({@link #grow}): a start may ask for the k the store was
 * created with ({@code createdK}), or any k up to the current one, so that a server started again with its first
 * command line opens also after a shrink below its initial capacity. With them the byte order of the code vectors' ints ({@code vectorOrder}: {@code little} or
 * {@code big}): a new store takes the platform's, so its level files are read and written without swapping bytes; a
 * store created before the order was recorded has none and is big-endian. Any other value is refused. And the layout
 * of H ({@code hLayout=deamortized}: three run slots per level, a sealed checksum per vector written by its add); a
 * store created before H was deamortised has none: its H is not valid in this layout, and the client resynchronises it
 * once ({@link #markDeamortized} then records the new layout).
 */
final class ParametersFile {
    private static final String CREATED_K = "createdK";
    private static final String ORDER = "vectorOrder";
    private static final String LAYOUT = "hLayout";
    private static final String DEAMORTIZED = "deamortized";

    private ParametersFile() {
    }

    /** What the file holds: the parameters, the byte order of the code vectors, and whether H is deamortised. */
    record Stored(ServerParameters parameters, ByteOrder vectorOrder, boolean hDeamortized) {
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
            String text = "k=" + requested.k() + "\n" + CREATED_K + "=" + requested.k() + "\nbatch="
                    + requested.batchExponent() + "\nblockBytes=" + requested.blockBytes() + "\n" + ORDER + "=" + name(order) + "\n" + LAYOUT + "=" + DEAMORTIZED
                    + "\n";
            replace(file, text);
            return new Stored(requested, order, true);
        }
        Properties p = new Properties();
        p.load(new StringReader(Files.readString(file, StandardCharsets.US_ASCII)));
        ServerParameters stored;
        int createdK;
        try {
            stored = new ServerParameters(Integer.parseInt(p.getProperty("k", "")),
                    Integer.parseInt(p.getProperty("batch", "")), Integer.parseInt(p.getProperty("blockBytes", "")));
            // absent: a store from before it was recorded, never shrunk since (a shrink records it)
            createdK = Integer.parseInt(p.getProperty(CREATED_K, Integer.toString(stored.k())));
        } catch (IllegalArgumentException e) {
            throw new IOException("PoR parameters file " + file + " is damaged: " + e.getMessage());
        }
        // the requested k is the initial capacity: a store grown or shrunk since opens at the k it has now
        if (requested != null && (requested.k() > Math.max(stored.k(), createdK)
                || requested.batchExponent() != stored.batchExponent()
                || requested.blockBytes() != stored.blockBytes())) {
            throw new IOException("the PoR server in " + file.getParent() + " was created with k = " + createdK
                    + " and has " + stored + " now; asked for " + requested);
        }
        String layout = p.getProperty(LAYOUT);
        if (layout != null && !layout.equals(DEAMORTIZED)) {
            throw new IOException("PoR parameters file " + file + " names an unknown layout of H: " + layout);
        }
        String order = p.getProperty(ORDER, "big"); // written before the order was recorded
        return switch (order) {
            case "big" -> new Stored(stored, ByteOrder.BIG_ENDIAN, layout != null);
            case "little" -> new Stored(stored, ByteOrder.LITTLE_ENDIAN, layout != null);
            default -> throw new IOException("PoR parameters file " + file + " names an unknown vector byte order: "
                    + order);
        };
    }

    /**
     * Records that H is deamortised in a store created before it was (an older store's H emptied by a C rebuild or
     * a resynchronisation): the file is rewritten with the mark, the rest as it was.
     */
    static void markDeamortized(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        if (!text.isEmpty() && !text.endsWith("\n")) {
            text += "\n";
        }
        replace(file, text + LAYOUT + "=" + DEAMORTIZED + "\n");
    }

    /**
     * Records that the store grew or shrank to 2^k blocks: the file is rewritten with the new k, the rest as it was;
     * a file without {@code createdK} (a store from before it was recorded) gets the k it had before a shrink, which
     * is at least the one it was created with or the one a shrink below it started from.
     */
    static void grow(Path file, int k) throws IOException {
        StringBuilder text = new StringBuilder();
        Integer former = null;
        boolean created = false;
        for (String line : Files.readString(file, StandardCharsets.US_ASCII).split("\n")) {
            if (line.startsWith("k=")) {
                former = Integer.valueOf(line.substring(2).strip());
                text.append("k=").append(k).append('\n');
            } else if (!line.isEmpty()) {
                created |= line.startsWith(CREATED_K + "=");
                text.append(line).append('\n');
            }
        }
        if (!created && former != null && k < former) {
            text.append(CREATED_K).append('=').append(former).append('\n');
        }
        replace(file, text.toString());
    }

    /** Writes a temporary sibling, forced, and moves it over {@code file}. */
    private static void replace(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
            out.force(true);
        }
        Durable.replace(tmp, file);
    }

    private static String name(ByteOrder order) {
        return order == ByteOrder.LITTLE_ENDIAN ? "little" : "big";
    }
}
