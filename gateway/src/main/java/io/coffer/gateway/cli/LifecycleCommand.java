package io.coffer.gateway.cli;

import io.coffer.gateway.maintenance.LifecycleReport;
import io.coffer.gateway.maintenance.LifecycleSweep;
import io.coffer.sdk.Coffer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code coffer lifecycle}: one sweep of buckets' lifecycle rules now, or with {@code --dry-run} what one would do. */
@Command(name = "lifecycle", mixinStandardHelpOptions = true,
        description = "Apply buckets' lifecycle rules now: expire versions, remove expired delete markers, abort old"
                + " uploads.")
final class LifecycleCommand extends EngineVerb {
    @Option(names = "--json", description = "Print one JSON object (dryRun, buckets, currentExpired, noncurrentRemoved,"
            + " deleteMarkersRemoved, uploadsAborted, skipped) instead of text.")
    boolean json;

    @Option(names = "--dry-run", description = "Change nothing (the backend is opened read-only): report what a sweep"
            + " would expire, remove and abort now.")
    boolean dryRun;

    @Option(names = "--rate", paramLabel = "PER_SECOND", defaultValue = "100",
            description = "The most deletions and aborts per second (default 100).")
    double rate;

    @Override
    boolean writesBackend() {
        return !dryRun;
    }

    @Override
    int run(Coffer coffer, PrintWriter out) {
        LifecycleReport r;
        if (dryRun) {
            r = LifecycleSweep.plan(coffer, Clock.systemUTC().instant());
        } else {
            Optional<LifecycleReport> done = new LifecycleSweep(coffer, Duration.ofHours(1), rate,
                    new SimpleMeterRegistry(), Clock.systemUTC()).runOnce();
            if (done.isEmpty()) {
                out.println("another process holds the lifecycle lease (a gateway is sweeping): nothing was done");
                return 1;
            }
            r = done.get();
        }
        if (json) {
            out.println("{\"dryRun\":" + dryRun + "," + r.json().substring(1));
        } else {
            String would = dryRun ? " (would be)" : "";
            out.printf("buckets with rules: %d%ncurrent versions expired%s: %d%nnoncurrent versions removed%s: %d%n"
                    + "delete markers removed%s: %d%nuploads aborted%s: %d%nskipped: %d%n", r.buckets(), would,
                    r.currentExpired(), would, r.noncurrentRemoved(), would, r.deleteMarkersRemoved(), would,
                    r.uploadsAborted(), r.skipped());
            if (dryRun) {
                out.println("dry run: nothing was changed");
            }
        }
        return 0;
    }
}
