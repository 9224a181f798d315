package io.coffer.gateway.maintenance;

import io.coffer.gateway.s3.lifecycle.LifecycleConfiguration;
import io.coffer.gateway.s3.lifecycle.LifecycleRule;
import io.coffer.sdk.Bucket;
import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.MaintenanceLease;
import io.coffer.sdk.ObjectVersion;
import io.coffer.sdk.UploadPage;
import io.coffer.sdk.UploadRecord;
import io.coffer.sdk.VersionPage;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One bucket's share of a lifecycle sweep: walks its versions (ListObjectVersions, each key's newest first) and its
 * incomplete uploads once, and hands each that an enabled rule makes due at {@code now} to the actions. Every decision
 * is made from the state the walk reads, so a sweep that stopped anywhere is simply run again: what it did is done,
 * and what it did not is found due again.
 */
final class BucketSweep {
    private static final int PAGE = 1000;

    private final Coffer coffer;
    private final Bucket bucket;
    private final List<LifecycleRule> rules;
    private final Instant now;
    private final LifecycleActions actions;
    private final MaintenanceLease lease;
    private long currentExpired;
    private long noncurrentRemoved;
    private long markersRemoved;
    private long uploadsAborted;
    private long skipped;

    /** A walk by {@code rules}' enabled rules; {@code lease} (null: none) is renewed between pages. */
    BucketSweep(Coffer coffer, Bucket bucket, LifecycleConfiguration config, Instant now, LifecycleActions actions,
                MaintenanceLease lease) {
        this.coffer = coffer;
        this.bucket = bucket;
        this.rules = config.rules().stream().filter(LifecycleRule::enabled).toList();
        this.now = now;
        this.actions = actions;
        this.lease = lease;
    }

    /** Sweeps the bucket; returns what it did. */
    LifecycleReport run() {
        if (rules.stream().anyMatch(r -> r.expiration() != null || r.noncurrent() != null)) {
            walkVersions();
        }
        if (rules.stream().anyMatch(r -> r.abortAfterDays() > 0)) {
            walkUploads();
        }
        return new LifecycleReport(1, currentExpired, noncurrentRemoved, markersRemoved, uploadsAborted, skipped);
    }

    private void walkVersions() {
        String prefix = commonPrefix(rules.stream().filter(r -> r.expiration() != null || r.noncurrent() != null)
                .toList());
        String keyMarker = null;
        String versionMarker = null;
        KeyVersions key = null;
        VersionPage page;
        do {
            page = coffer.listObjectVersions(bucket.name(), prefix, null, keyMarker, versionMarker, PAGE);
            for (ObjectVersion v : page.versions()) {
                if (key == null || !key.name.equals(v.key())) {
                    finish(key);
                    key = new KeyVersions(v.key());
                }
                visit(key, v);
            }
            keyMarker = page.nextKeyMarker();
            versionMarker = page.nextVersionIdMarker();
            renewLease();
        } while (page.truncated() && !Thread.currentThread().isInterrupted());
        if (!page.truncated()) {
            finish(key);
        }
    }

    /** What the walk knows of the key it is in: versions seen so far, newest first. */
    private static final class KeyVersions {
        final String name;
        int seen;
        int noncurrentSeen;
        /** When the version about to be visited stopped being current: its successor's creation. */
        Instant successorCreated;
        /** The key's current version when it is a delete marker, until an older version shows it is not alone. */
        ObjectVersion currentMarker;

        KeyVersions(String name) {
            this.name = name;
        }
    }

    private void visit(KeyVersions key, ObjectVersion v) {
        key.seen++;
        if (v.latest()) {
            if (v.deleteMarker()) {
                key.currentMarker = v;
            } else if (currentExpires(v)) {
                count(actions.expireCurrent(bucket, v), Kind.CURRENT);
            }
        } else {
            key.currentMarker = null;
            key.noncurrentSeen++;
            // a version listed without its successor (the key changed between pages) is judged on the next sweep
            if (key.successorCreated != null && noncurrentExpires(v, key.successorCreated, key.noncurrentSeen)) {
                count(actions.removeVersion(bucket, v), Kind.NONCURRENT);
            }
        }
        key.successorCreated = v.lastModified();
    }

    /** At the end of a key: a current delete marker that was its only version is an expired delete marker. */
    private void finish(KeyVersions key) {
        if (key == null || key.currentMarker == null || key.seen != 1) {
            return;
        }
        for (LifecycleRule r : rules) {
            if (r.expiration() != null && r.expiration().removesExpiredDeleteMarkers()
                    && r.filter().matchesKey(key.name) && !r.filter().hasSize()) {
                count(actions.removeVersion(bucket, key.currentMarker), Kind.MARKER);
                return;
            }
        }
    }

    private boolean currentExpires(ObjectVersion v) {
        Supplier<Map<String, String>> tags = new TagsOf(v);
        for (LifecycleRule r : rules) {
            LifecycleRule.Expiration x = r.expiration();
            if (x != null && x.expires(v.lastModified(), now) && r.filter().matches(v.key(), v.size(), tags)) {
                return true;
            }
        }
        return false;
    }

    private boolean noncurrentExpires(ObjectVersion v, Instant since, int position) {
        Supplier<Map<String, String>> tags = new TagsOf(v);
        for (LifecycleRule r : rules) {
            LifecycleRule.NoncurrentExpiration n = r.noncurrent();
            if (n != null && n.expires(since, position, now) && r.filter().matches(v.key(), v.size(), tags)) {
                return true;
            }
        }
        return false;
    }

    /** A version's tags, read (once) only when a rule that matches it otherwise filters on tags. */
    private final class TagsOf implements Supplier<Map<String, String>> {
        private final ObjectVersion v;
        private Map<String, String> tags;

        TagsOf(ObjectVersion v) {
            this.v = v;
        }

        @Override
        public Map<String, String> get() {
            if (tags == null) {
                tags = v.deleteMarker() ? Map.of() : coffer.headObject(bucket.name(), v.key(),
                        v.versionId() == null ? BucketVersioning.NULL_VERSION : v.versionId()).attributes().tags();
            }
            return tags;
        }
    }

    private void walkUploads() {
        List<LifecycleRule> aborting = rules.stream().filter(r -> r.abortAfterDays() > 0).toList();
        String prefix = commonPrefix(aborting);
        String keyMarker = null;
        String uploadMarker = null;
        UploadPage page;
        do {
            page = coffer.listMultipartUploads(bucket, prefix, null, keyMarker, uploadMarker, PAGE);
            for (UploadRecord u : page.uploads()) {
                if (aborting.stream().anyMatch(r -> r.filter().matchesKey(u.key())
                        && r.abortsUpload(u.initiated(), now))) {
                    count(actions.abortUpload(bucket, u.key(), u.uploadId()), Kind.UPLOAD);
                }
            }
            keyMarker = page.nextKeyMarker();
            uploadMarker = page.nextUploadIdMarker();
            renewLease();
        } while (page.truncated() && !Thread.currentThread().isInterrupted());
    }

    private void renewLease() {
        if (lease != null) {
            lease.renewIfDue();
        }
    }

    private enum Kind { CURRENT, NONCURRENT, MARKER, UPLOAD }

    /** Counts an action; renews the lease, which a slow paced page could otherwise outlive. */
    private void count(boolean done, Kind kind) {
        renewLease();
        if (!done) {
            skipped++;
            return;
        }
        switch (kind) {
            case CURRENT -> currentExpired++;
            case NONCURRENT -> noncurrentRemoved++;
            case MARKER -> markersRemoved++;
            case UPLOAD -> uploadsAborted++;
        }
    }

    /** The longest prefix every rule's filter starts with: the walk lists only keys under it. */
    static String commonPrefix(List<LifecycleRule> rules) {
        String common = null;
        for (LifecycleRule r : rules) {
            String p = r.filter().prefix();
            if (common == null) {
                common = p;
            } else {
                int n = 0;
                while (n < common.length() && n < p.length() && common.charAt(n) == p.charAt(n)) {
                    n++;
                }
                if (n > 0 && Character.isHighSurrogate(common.charAt(n - 1))) {
                    n--; // never half a character: the prefix is listed as UTF-8
                }
                common = common.substring(0, n);
            }
        }
        return common == null ? "" : common;
    }
}
