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
 * audits again, and has 8 lost blocks of U repaired (decoded from C and H). Arguments: files|memory DIR k batchExponent blockBytes writes. Exits 0 and prints "passed" when
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
                passed &= repairs(client, server.storage(), written(params, writes));
            }
        } else {
            PorServer server = new MemoryPorServer(params.k(), params.batchExponent(), params.blockBytes());
            passed = run(PorClient.initialize(server, key, new SecureRandom(), persisted::add), params, writes);
        }
        Runtime rt = Runtime.getRuntime();
        System.out.println((passed ? "passed" : "FAILED") + ", heap max " + (rt.maxMemory() >> 20) + " MiB");
        System.exit(passed ? 0 : 1);
    }

    /** Loses 7 blocks written and one never written, and has them repaired: the server decodes C and H in slices. */
    private static boolean repairs(PorClient client, DirectoryStorage storage, List<Integer> written) {
        List<Integer> lost = new ArrayList<>(written.stream().distinct().limit(7).toList());
        int neverWritten = 0;
        while (written.contains(neverWritten)) {
            neverWritten++;
        }
        lost.add(neverWritten); // decoded from C, the others from H
        List<byte[]> before = lost.stream().map(client::read).toList();
        lost.forEach(i -> storage.setU(i, null));
        client.repair(lost);
        boolean passed = true;
        for (int i = 0; i < lost.size(); i++) {
            passed &= java.util.Arrays.equals(client.read(lost.get(i)), before.get(i));
        }
        System.out.println("repaired " + lost.size() + " blocks: " + (passed ? "equal" : "DIFFERENT"));
        return passed;
    }

    /** The indices {@link #run} writes, in order. */
    private static List<Integer> written(ServerParameters params, int writes) {
        SplittableRandom random = new SplittableRandom(3);
        byte[] block = new byte[params.blockBytes()];
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < writes; i++) {
            random.nextBytes(block);
            out.add(random.nextInt(1 << params.k()));
        }
        return out;
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
