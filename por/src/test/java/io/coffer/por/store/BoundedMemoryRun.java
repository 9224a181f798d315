package io.coffer.por.store;

import io.coffer.por.client.ClientState;
import io.coffer.por.client.PorClient;
import io.coffer.por.net.ServerParameters;
import io.coffer.por.server.MemoryPorServer;
import io.coffer.por.server.PorServer;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The body of {@link BoundedMemoryTest}, run in a child JVM with a small heap: a client initialises a server of
 * 2^k blocks (a C rebuild over all of U), writes blocks, audits, and (for the directory server) reopens it and
 * audits again. Arguments: files|memory DIR k batchExponent blockBytes writes. Exits 0 and prints "passed" when
 * every audit passed; an OutOfMemoryError ends it with a non-zero status.
 */
final class BoundedMemoryRun {
    private BoundedMemoryRun() {
    }

    public static void main(String[] args) throws Exception {
        boolean files = args[0].equals("files");
        Path dir = Path.of(args[1]);
        ServerParameters params = new ServerParameters(Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                Integer.parseInt(args[4]));
        int writes = Integer.parseInt(args[5]);
        List<ClientState> persisted = new ArrayList<>();
        byte[] key = new byte[32];
        boolean passed;
        if (files) {
            try (JournaledPorServer server = JournaledPorServer.open(dir, params)) {
                passed = run(PorClient.initialize(server, key, new SecureRandom(), persisted::add), params, writes);
            }
            try (JournaledPorServer server = JournaledPorServer.open(dir, null)) {
                PorClient client = new PorClient(server, persisted.get(persisted.size() - 1), new SecureRandom(),
                        persisted::add);
                passed &= client.audit().passed();
            }
        } else {
            PorServer server = new MemoryPorServer(params.k(), params.batchExponent(), params.blockBytes());
            passed = run(PorClient.initialize(server, key, new SecureRandom(), persisted::add), params, writes);
        }
        Runtime rt = Runtime.getRuntime();
        System.out.println((passed ? "passed" : "FAILED") + ", heap max " + (rt.maxMemory() >> 20) + " MiB");
        System.exit(passed ? 0 : 1);
    }

    private static boolean run(PorClient client, ServerParameters params, int writes) {
        SplittableRandom random = new SplittableRandom(3);
        byte[] block = new byte[params.blockBytes()];
        int n = 1 << params.k();
        for (int i = 0; i < writes; i++) {
            random.nextBytes(block);
            client.write(random.nextInt(n), block);
        }
        client.flush();
        boolean passed = true;
        for (int i = 0; i < 3; i++) {
            passed &= client.audit().passed();
        }
        return passed;
    }
}
