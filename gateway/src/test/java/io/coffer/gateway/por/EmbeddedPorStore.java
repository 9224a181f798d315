package io.coffer.gateway.por;

import io.coffer.gateway.config.ConfigKey;
import io.coffer.gateway.config.GatewayConfig;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * A store with the embedded PoR server, small enough for tests: 2^10 blocks of 16 KiB (16 MiB of U), and the ways
 * tests damage what the server keeps on disk under {@code DATA/por/server}.
 */
public final class EmbeddedPorStore {
    public static final int K = 10;
    public static final int BLOCK_BYTES = 16 << 10;

    private EmbeddedPorStore() {
    }

    /** The configuration of a store in {@code data} with PoR embedded, plus {@code extra} settings. */
    public static GatewayConfig config(Path data, Map<ConfigKey, String> extra) {
        Map<ConfigKey, String> flags = new EnumMap<>(ConfigKey.class);
        flags.put(ConfigKey.DATA, data.toString());
        flags.put(ConfigKey.POR, "embedded");
        flags.put(ConfigKey.POR_K, Integer.toString(K));
        flags.put(ConfigKey.POR_BLOCK_SIZE, Integer.toString(BLOCK_BYTES));
        flags.putAll(extra);
        return GatewayConfig.load(null, Map.of(), flags);
    }

    /** The flags a verb needs for that store. */
    public static String[] flags(Path data) {
        return new String[] {"--data", data.toString(), "--por", "embedded"};
    }

    /** Puts a few objects of random bytes (one inline in its manifest, two over a block) and returns them by key. */
    public static Map<String, byte[]> fill(Coffer coffer, long seed) {
        Random random = new Random(seed);
        Map<String, byte[]> objects = new LinkedHashMap<>();
        coffer.createBucket("proofs", "tester");
        for (int size : new int[] {3_000, 40_000, 150_000}) {
            byte[] body = new byte[size];
            random.nextBytes(body);
            String key = "object-" + size;
            coffer.putObject(PutObjectRequest.of("proofs", key, body.length), new ByteArrayInputStream(body));
            objects.put(key, body);
        }
        return objects;
    }

    /** Copies a closed store's data directory (faster than filling another through PoR). */
    public static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    /** Reads an object back whole. */
    public static byte[] read(Coffer coffer, String key) throws IOException {
        try (ObjectContent c = coffer.getObject("proofs", key); InputStream in = c.stream()) {
            return in.readAllBytes();
        }
    }

    /** The embedded server's directory. */
    public static Path serverDir(Path data) {
        return data.resolve("por").resolve("server");
    }

    /**
     * Overwrites every {@code step}-th block written to U ({@code u.blocks}) with random bytes, as a disk that lost
     * them would read; returns how many.
     */
    public static int corruptU(Path data, int step, long seed) throws IOException {
        Random random = new Random(seed);
        int damaged = 0;
        try (FileChannel ch = FileChannel.open(serverDir(data).resolve("u.blocks"), StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            long blocks = ch.size() / BLOCK_BYTES;
            for (long i = 0; i < blocks; i += step) {
                byte[] garbage = new byte[BLOCK_BYTES];
                random.nextBytes(garbage);
                ch.write(ByteBuffer.wrap(garbage), i * BLOCK_BYTES);
                damaged++;
            }
            ch.force(true);
        }
        return damaged;
    }
}
