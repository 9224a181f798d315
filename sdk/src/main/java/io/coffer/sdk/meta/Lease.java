package io.coffer.sdk.meta;

import java.time.Instant;

/**
 * Who runs a maintenance job that only one gateway at a time may run, until when: a row of the metadata store.
 * A lease that has expired may be taken by anyone; its holder renews it while the job runs.
 *
 * @param name    the job ({@code gc})
 * @param holder  the process that holds it (host, process id and a random suffix)
 * @param expires when another holder may take it
 */
public record Lease(String name, String holder, Instant expires) {
    /** True if {@code holder} holds this lease at {@code now}. */
    public boolean heldBy(String holder, Instant now) {
        return this.holder.equals(holder) && expires.isAfter(now);
    }
}
