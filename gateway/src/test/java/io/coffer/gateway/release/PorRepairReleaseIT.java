package io.coffer.gateway.release;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.testing.S3ServerFixture;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proofs of retrievability end to end, the way a user runs them: {@code ./coffer serve --por embedded} stores objects
 * put with aws-cli; an audit of the undamaged store passes (asked of the running gateway through its admin port);
 * with the gateway stopped, 30 % of the blocks of U are overwritten with random bytes where the embedded PoR server
 * keeps them ({@code data/por/server/u.blocks}); {@code ./coffer audit} then exits non-zero, a GET that meets damaged
 * blocks repairs them on the way and returns the object whole, {@code ./coffer repair}
 * decodes the blocks from C and H and writes them back, a second audit passes, and every object reads back byte-exact
 * with aws-cli from a restarted gateway.
 *
 * <p>The suite stores {@value #DEFAULT_MIB} MiB; {@code -Dcoffer.por.it.mib=1024} (the 1 GiB, see
 * docs/POR.md) runs the same test at any size.
 */
class PorRepairReleaseIT {
    private static final int DEFAULT_MIB = 32;
    private static final int S3_MIB = 12;
    private static final int BLOCK_BYTES = 65536;

    @TempDir
    Path work;

    @Test
    void corruptedUBlocksFailTheAuditAndRepairRestoresEveryObject() throws Exception {
        repairScenario(Long.getLong("coffer.por.it.mib", DEFAULT_MIB) << 20, List.of(), Map.of());
    }

    /**
     * The same on an S3 backend: {@code serve --backend s3} on the s3proxy the release checks use, with
     * {@code --por embedded}; audit and repair open the store with the same options. The packs are in U (the
     * embedded PoR server's files), everything else in the bucket.
     */
    @Test
    void onAnS3BackendCorruptedUBlocksFailTheAuditAndRepairRestoresEveryObject() throws Exception {
        S3ServerFixture s3 = S3ServerFixture.start();
        List<String> backend = List.of("--backend", "s3", "--s3-endpoint", s3.endpoint().toString(), "--s3-bucket",
                s3.createBucket(), "--s3-path-style");
        repairScenario(S3_MIB << 20, backend, Map.of("COFFER_BACKEND_ACCESS_KEY", s3.accessKey(),
                "COFFER_BACKEND_SECRET_KEY", s3.secretKey()));
    }

    /** Puts {@code total} bytes of objects through a gateway on {@code backend}, damages U, audits, repairs, reads. */
    private void repairScenario(long total, List<String> backend, Map<String, String> backendEnv) throws Exception {
        // capacity: at least twice the data (packs, the engine's rewrites), as a power of two of 64 KiB blocks
        int k = Math.max(10, 64 - Long.numberOfLeadingZeros(2 * total / BLOCK_BYTES - 1));
        Map<String, String> env = new HashMap<>(backendEnv);
        env.put("COFFER_POR_K", Integer.toString(k));
        env.put("COFFER_POR_BLOCK_SIZE", Integer.toString(BLOCK_BYTES));
        List<String> serve = new ArrayList<>(backend);
        serve.addAll(List.of("--por", "embedded"));
        List<Path> files = objects(total);
        Path gatewayDir = Files.createDirectories(work.resolve("gateway"));
        long started = System.nanoTime();
        try (ShippedGateway gateway = ShippedGateway.start(gatewayDir, serve, env)) {
            StockClients.awsCli(gateway.endpoint(), work, "s3", "mb", "s3://proofs").requireSuccess();
            for (Path f : files) {
                StockClients.awsCli(gateway.endpoint(), work, "s3", "cp", f.toString(),
                        "s3://proofs/" + f.getFileName()).requireSuccess();
            }
            started = report("put", total, started);
            StockClients.Result live = ShippedGateway.launcher(gatewayDir, env, verb("audit", serve, "--admin",
                    gateway.adminEndpoint().toString(), "--json"));
            assertThat(live.exitCode()).as("audit of the running, undamaged store: %s%s", live.stdout(),
                    live.stderr()).isZero();
            assertThat(live.stdout()).contains("\"passed\"");
        }

        Path uBlocks = gatewayDir.resolve("data/por/server/u.blocks");
        long blocks = Files.size(uBlocks) / BLOCK_BYTES;
        assertThat(blocks).as("U holds the packs").isGreaterThanOrEqualTo(total / BLOCK_BYTES);
        int damaged = corrupt(uBlocks, blocks, 0.30);

        started = System.nanoTime();
        StockClients.Result failed = ShippedGateway.launcher(gatewayDir, env, verb("audit", serve));
        started = report("audit (damaged store)", total, started);
        assertThat(failed.exitCode()).as("audit of a store with %d of %d U blocks corrupted: %s%s", damaged,
                blocks, failed.stdout(), failed.stderr()).isEqualTo(1);

        // a read that meets damaged blocks repairs them on the way: the big object comes back whole
        try (ShippedGateway gateway = ShippedGateway.start(gatewayDir, serve, env)) {
            readBack(gateway, files.subList(0, 1));
        }
        started = report("read of the big object, repairing on the way", total, started);

        StockClients.Result repaired = ShippedGateway.launcher(gatewayDir, env, verb("repair", serve, "--json"));
        started = report("repair", total, started);
        System.out.println("PorRepairReleaseIT: repair report " + repaired.stdout().strip());
        assertThat(repaired.exitCode()).as("repair: %s%s", repaired.stdout(), repaired.stderr()).isZero();
        // the GET above repaired its own pack's blocks; the rest of the damage is the repair's
        assertThat(repaired.stdout()).containsPattern("\"blocksRepaired\":[1-9]").contains("\"unrepairable\":[]");
        StockClients.Result after = ShippedGateway.launcher(gatewayDir, env, verb("audit", serve));
        assertThat(after.exitCode()).as("audit after repair: %s%s", after.stdout(), after.stderr()).isZero();
        started = report("audit (repaired store)", total, started);

        try (ShippedGateway gateway = ShippedGateway.start(gatewayDir, serve, env)) {
            readBack(gateway, files);
        }
    }

    /** The arguments of {@code ./coffer VERB --data data} with the store options of serve, then {@code more}. */
    static String[] verb(String verb, List<String> serve, String... more) {
        List<String> args = new ArrayList<>(List.of(verb, "--data", "data"));
        args.addAll(serve);
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    /** Prints how long a step took (launcher start included), for docs/POR.md's figures; returns now. */
    private static long report(String step, long total, long started) {
        long now = System.nanoTime();
        System.out.printf("PorRepairReleaseIT (%d MiB): %s took %.1f s%n", total >> 20, step, (now - started) / 1e9);
        return now;
    }

    private void readBack(ShippedGateway gateway, List<Path> files) throws IOException {
        for (Path f : files) {
            Path back = work.resolve("back-" + f.getFileName());
            StockClients.awsCli(gateway.endpoint(), work, "s3", "cp", "s3://proofs/" + f.getFileName(),
                    back.toString()).requireSuccess();
            assertThat(Files.mismatch(back, f)).as("%s read back", f.getFileName()).isEqualTo(-1L);
            Files.delete(back);
        }
    }

    /** Random objects adding up to {@code total}: one multipart-sized, the rest 1 to 6 MiB. */
    private List<Path> objects(long total) throws IOException {
        List<Path> files = new ArrayList<>();
        Random sizes = new Random(19);
        long big = Math.min(total / 2, 24L << 20);
        files.add(ReleaseChecks.randomFile(work.resolve("in/big.bin"), 1, big));
        long left = total - big;
        for (int i = 0; left > 0; i++) {
            long size = Math.min(left, (1L << 20) + sizes.nextInt(5 << 20));
            files.add(ReleaseChecks.randomFile(work.resolve("in/object-" + i + ".bin"), 100 + i, size));
            left -= size;
        }
        return files;
    }

    /** Overwrites {@code fraction} of the file's blocks, chosen at random, with random bytes; returns how many. */
    private static int corrupt(Path file, long blocks, double fraction) throws IOException {
        List<Long> indices = new ArrayList<>();
        for (long i = 0; i < blocks; i++) {
            indices.add(i);
        }
        Random random = new Random(30);
        Collections.shuffle(indices, random);
        int count = (int) Math.ceil(blocks * fraction);
        byte[] junk = new byte[BLOCK_BYTES];
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            for (long i : indices.subList(0, count)) {
                random.nextBytes(junk);
                f.seek(i * BLOCK_BYTES);
                f.write(junk);
            }
        }
        return count;
    }
}
