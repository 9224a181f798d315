package io.coffer.por.blob;

import io.coffer.por.PorVerificationException;
import io.coffer.por.client.PorClient;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Blocks of U read through the PoR client's verified path, and repaired from C and H where they fail. Not
 * thread-safe: the {@link PorBlobStore} that owns it calls it under its lock.
 */
final class VerifiedBlocks {
    private static final Logger LOG = LoggerFactory.getLogger(PorBlobStore.class);
    private final PorClient client;
    private final AtomicLong repairedOnRead;

    /** Blocks over {@code client}; {@code repairedOnRead} counts the blocks reads repair. */
    VerifiedBlocks(PorClient client, AtomicLong repairedOnRead) {
        this.client = client;
        this.repairedOnRead = repairedOnRead;
    }

    /**
     * U[index], block {@code j} of {@code name}, verified. When it fails, every block of {@code neighbours} (its pack)
     * is checked and all that fail are repaired with one decode (a decode costs about the same for one block as for
     * many, and damage rarely comes alone), then the block is read again.
     */
    byte[] verified(String name, int j, int index, int[] neighbours) throws IOException {
        try {
            return client.read(index);
        } catch (RuntimeException first) {
            List<Integer> failing = failing(neighbours);
            LOG.warn("PoR block {} (U[{}]) of {} failed its check ({}); repairing the {} failing blocks beside it from"
                    + " C and H", j, index, name, first.getMessage(), failing.size());
            if (!failing.contains(index)) {
                failing.add(index);
            }
            try {
                List<Integer> unrepairable = repairAll(failing);
                repairedOnRead.addAndGet(failing.size() - unrepairable.size());
                if (unrepairable.contains(index)) {
                    throw new PorVerificationException("U[" + index + "] could not be decoded");
                }
                return client.read(index);
            } catch (RuntimeException e) {
                e.addSuppressed(first);
                throw new IOException("PoR block " + j + " (U[" + index + "]) of " + name
                        + " failed verification and could not be repaired: " + e.getMessage(), e);
            }
        }
    }

    /** The indices among {@code blocks} whose verified read fails. */
    List<Integer> failing(int[] blocks) {
        List<Integer> failing = new ArrayList<>();
        for (int index : blocks) {
            try {
                client.read(index);
            } catch (RuntimeException e) {
                failing.add(index);
            }
        }
        return failing;
    }

    /**
     * Repairs {@code damaged} with one decode for all of them ({@link PorClient#repairAll}: the work of decoding C and
     * H once, not once per block or per batch); returns those that could not be repaired: each that failed its check,
     * or all of them when the server could not decode the set (the reason is logged).
     */
    List<Integer> repairAll(List<Integer> damaged) {
        if (damaged.isEmpty()) {
            return new ArrayList<>();
        }
        try {
            return client.repairAll(damaged);
        } catch (RuntimeException e) {
            LOG.error("PoR repair: the server could not decode the {} damaged blocks: {}", damaged.size(),
                    e.getMessage());
            return new ArrayList<>(damaged.stream().distinct().sorted().toList());
        }
    }
}
