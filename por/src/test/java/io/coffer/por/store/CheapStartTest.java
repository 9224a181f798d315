package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.client.PorClient;
import io.coffer.por.field.Segments;
import io.coffer.por.net.ServerParameters;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new directory store computes and writes only C's tag elements: the rest of C's files are holes, so the disk it
 * takes is far below C's 2n block-sized vectors, and audits and reads pass as over a fully written C.
 */
class CheapStartTest {
    private static final int K = 10;
    private static final int BLOCK = 64 << 10;

    @TempDir
    Path dir;

    @Test
    void aNewStoreLeavesCsDataAsHolesAndStillPassesAuditsAndReads() throws Exception {
        SplittableRandom random = new SplittableRandom(3);
        byte[] masterKey = new byte[32];
        random.nextBytes(masterKey);
        long cVectorBytes = 4L * (Segments.count(BLOCK) + 1);
        long cBytes = 2L * (1 << K) * cVectorBytes; // 2n code vectors: 143 MB if written
        try (JournaledPorServer server = JournaledPorServer.open(dir, new ServerParameters(K, 0, BLOCK))) {
            PorClient client = PorClient.initialize(server, masterKey, new SecureRandom(), s -> { });

            long length = Files.size(dir.resolve("c-" + (K + 1) + "-x.vectors"))
                    + Files.size(dir.resolve("c-" + (K + 1) + "-y.vectors"));
            assertThat(length).isEqualTo(cBytes); // every record is there to read ...
            assertThat(allocatedBytes(dir)).isLessThan(cBytes / 8); // ... but most of them are holes

            assertThat(client.audit().passed()).isTrue();
            assertThat(client.read(0)).isEqualTo(new byte[BLOCK]);
            assertThat(client.read((1 << K) - 1)).isEqualTo(new byte[BLOCK]);
            byte[] block = new byte[BLOCK];
            random.nextBytes(block);
            client.write(7, block);
            client.write(1000, block);
            assertThat(client.audit().passed()).isTrue();
            assertThat(client.read(7)).isEqualTo(block);
            assertThat(client.read(8)).isEqualTo(new byte[BLOCK]);
        }
    }

    /** Bytes the directory's files take on disk (allocated blocks, not lengths), as {@code du} counts them. */
    private static long allocatedBytes(Path dir) throws IOException, InterruptedException {
        Process du = new ProcessBuilder("du", "-s", "-B1", dir.toString()).redirectErrorStream(true).start();
        String out = new String(du.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        assertThat(du.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(du.exitValue()).as(out).isZero();
        return Long.parseLong(out.split("\\s+")[0]);
    }
}
