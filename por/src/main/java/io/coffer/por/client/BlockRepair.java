package io.coffer.por.client;

import io.coffer.por.PorVerificationException;
import io.coffer.por.server.PorServer;
import io.coffer.por.server.ProvenBlock;
import java.util.ArrayList;
import java.util.List;

/**
 * The repair of blocks of U for a {@link PorClient} (section 5): the server decodes them from C and H, the client
 * checks each decoded block as it checks a read (its Merkle path to the client's root and its checksum), and only a
 * block that passes is stored back. Called under the client's serialisation, as every other client call.
 */
final class BlockRepair {
    /** Decoded blocks per request of {@link #repairAll}: what the client holds at a time. */
    static final int REPAIR_PAGE = 64;

    private final PorClient client;
    private final PorServer server;
    private final Traffic traffic;
    private final long restoredBytes;

    BlockRepair(PorClient client, PorServer server) {
        this.client = client;
        this.server = server;
        this.traffic = client.traffic();
        this.restoredBytes = 2L * client.state().blockBytes(); // decoded down, stored back up
    }

    /** See {@link PorClient#repair}: throws if any decoded block fails its check, before anything is restored. */
    void repair(List<Integer> indices) {
        indices.forEach(client::checkIndex);
        List<ProvenBlock> decoded = server.decode(indices);
        if (decoded.size() != indices.size()) {
            throw new PorVerificationException("asked to decode " + indices.size() + " blocks, got "
                    + decoded.size());
        }
        List<byte[]> accepted = new ArrayList<>(indices.size());
        for (int i = 0; i < indices.size(); i++) {
            traffic.down(decoded.get(i).overheadBytes());
            accepted.add(client.verified(indices.get(i), decoded.get(i)));
        }
        for (int i = 0; i < indices.size(); i++) {
            restore(indices.get(i), accepted.get(i));
        }
    }

    /**
     * The server is told the whole set ({@link PorServer#prepareDecode}: each level of C and H decoded once), then the
     * blocks are fetched {@value #REPAIR_PAGE} at a time, each checked as {@link #repair} checks it and restored. A
     * block that fails its check, or a page the server does not decode, is not restored. Returns the indices not
     * repaired, ascending. Throws what the server throws when it cannot decode the set at all.
     */
    List<Integer> repairAll(List<Integer> indices) {
        indices.forEach(client::checkIndex);
        List<Integer> distinct = indices.stream().distinct().sorted().toList();
        List<Integer> unrepaired = new ArrayList<>();
        if (distinct.isEmpty()) {
            return unrepaired;
        }
        traffic.up(4L * distinct.size());
        server.prepareDecode(distinct);
        for (int from = 0; from < distinct.size(); from += REPAIR_PAGE) {
            List<Integer> page = distinct.subList(from, Math.min(distinct.size(), from + REPAIR_PAGE));
            traffic.up(4L * page.size());
            List<ProvenBlock> decoded;
            try {
                decoded = server.decode(page);
            } catch (IllegalArgumentException | IllegalStateException e) {
                unrepaired.addAll(page);
                continue;
            }
            if (decoded.size() != page.size()) {
                throw new PorVerificationException("asked to decode " + page.size() + " blocks, got "
                        + decoded.size());
            }
            for (int i = 0; i < page.size(); i++) {
                traffic.down(decoded.get(i).overheadBytes());
                byte[] block;
                try {
                    block = client.verified(page.get(i), decoded.get(i));
                } catch (PorVerificationException e) {
                    unrepaired.add(page.get(i));
                    continue;
                }
                restore(page.get(i), block);
            }
        }
        return unrepaired;
    }

    private void restore(int index, byte[] block) {
        server.restore(index, block);
        traffic.up(Integer.BYTES);
        traffic.block(restoredBytes);
    }
}
