package io.coffer.sdk.engine;

import io.coffer.sdk.LeaseHeldException;
import io.coffer.sdk.MaintenanceLease;
import io.coffer.sdk.meta.Lease;
import io.coffer.sdk.meta.MetadataStore;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The lease that lets one process at a time collect garbage: taken for {@link #TERM}, renewed while the run goes on
 * (each renewal moves its expiry a term ahead) and given back at the end. A run whose process dies leaves a lease that
 * expires a term later. The lease saves duplicated work; safety does not rest on it (two collectors racing each
 * other are caught by {@link MetadataStore#retirePack}'s checks). Other maintenance jobs (the gateway's lifecycle
 * sweep) take a lease of their own name the same way.
 */
final class GcLease implements MaintenanceLease {
    static final String NAME = "gc";
    /** How long a lease lasts without renewal; runs renew it at least every half term. */
    static final Duration TERM = Duration.ofMinutes(5);

    private final MetadataStore meta;
    private final String name;
    private final String job;
    private final String holder;
    private final Clock clock;
    private Instant renewed;

    private GcLease(MetadataStore meta, String name, String job, String holder, Clock clock, Instant renewed) {
        this.meta = meta;
        this.name = name;
        this.job = job;
        this.holder = holder;
        this.clock = clock;
        this.renewed = renewed;
    }

    /**
     * Takes the lease for {@code holder}; {@link LeaseHeldException} if another process holds it. A lease whose
     * holder was a process of this host that no longer runs (killed during a pass, then restarted) is taken over at
     * once instead of a term later.
     */
    static GcLease take(MetadataStore meta, String holder, Clock clock) {
        return take(meta, NAME, "garbage collection", holder, clock);
    }

    /** Takes the lease {@code name} of the job {@code job} (its name in errors), as {@link #take} takes gc's. */
    static GcLease take(MetadataStore meta, String name, String job, String holder, Clock clock) {
        Instant now = clock.instant();
        Lease lease = meta.acquireLease(name, holder, now, now.plus(TERM));
        if (!lease.heldBy(holder, now) && goneFromThisHost(lease.holder())) {
            // acquire as of the stale lease's expiry: in the same row-locked transaction, a lease another process
            // took meanwhile expires later and is kept
            lease = meta.acquireLease(name, holder, lease.expires(), now.plus(TERM));
        }
        if (!lease.heldBy(holder, now)) {
            throw new LeaseHeldException(job, lease.holder(), lease.expires());
        }
        return new GcLease(meta, name, job, holder, clock, now);
    }

    /**
     * Renews the lease when half its term has passed; {@link LeaseHeldException} if it expired and another process
     * took it (this run then stops: the other run does the work).
     */
    @Override
    public void renewIfDue() {
        Instant now = clock.instant();
        if (now.isBefore(renewed.plus(TERM.dividedBy(2)))) {
            return;
        }
        Lease lease = meta.acquireLease(name, holder, now, now.plus(TERM));
        if (!lease.heldBy(holder, now)) {
            throw new LeaseHeldException(job, lease.holder(), lease.expires());
        }
        renewed = now;
    }

    @Override
    public void close() {
        meta.releaseLease(name, holder);
    }

    /** True if {@code holder} (a {@link #processName}) names a process of this host that no longer runs. */
    static boolean goneFromThisHost(String holder) {
        String[] parts = holder.split("/");
        if (parts.length != 3 || parts[0].equals("unknown-host") || !parts[0].equals(hostName())) {
            return false;
        }
        try {
            long pid = Long.parseLong(parts[1]);
            return pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** A name for this process in leases: host, process id and a random suffix (two engines in one JVM differ). */
    static String processName() {
        String host = hostName();
        long pid = ProcessHandle.current().pid();
        byte[] suffix = new byte[4];
        ThreadLocalRandom.current().nextBytes(suffix);
        return host + "/" + pid + "/" + HexFormat.of().formatHex(suffix);
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown-host";
        }
    }
}
