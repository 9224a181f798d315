package io.coffer.gateway.s3.lifecycle;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.xml.XmlElement;
import io.coffer.gateway.xml.XmlRequestReader;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.ObjectInfo;
import java.io.IOException;
import java.io.InputStream;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A bucket's lifecycle rules, read from and written as S3's {@code LifecycleConfiguration} document. Reading
 * validates as S3 does: a document that is no {@code LifecycleConfiguration} of 1 to 1,000 {@code Rule}s, each with a
 * {@code Status} of {@code Enabled} or {@code Disabled}, one of a top-level {@code Prefix} and a {@code Filter}, and
 * well-formed actions, is MalformedXML; a repeated or over-long ID, a non-positive day count, a date that is not a
 * midnight UTC, or an action that cannot apply to the rule's filter is InvalidArgument; a rule without an action is
 * InvalidRequest; transitions are NotImplemented (Coffer has one storage class). A rule without an ID gets a random
 * one, as S3 gives. The bucket stores what {@link #toXml} writes, which GetBucketLifecycleConfiguration returns and the
 * lifecycle sweep reads back.
 */
public record LifecycleConfiguration(List<LifecycleRule> rules) {
    /** The name of a bucket's lifecycle rules among its configuration documents. */
    public static final String BUCKET_CONFIG = "lifecycle";
    public static final int MAX_RULES = 1000;
    static final int MAX_ID_LENGTH = 255;
    private static final Set<String> RULE_ELEMENTS = Set.of("ID", "Prefix", "Filter", "Status", "Expiration",
            "NoncurrentVersionExpiration", "AbortIncompleteMultipartUpload");
    private static final Set<String> TRANSITIONS = Set.of("Transition", "NoncurrentVersionTransition");
    /** 1,000 rules of a few hundred bytes each; S3 documents no smaller cap. */
    private static final int MAX_BYTES = 1024 * 1024;
    private static final XmlRequestReader XML = new XmlRequestReader(MAX_BYTES, MAX_BYTES / 16);
    private static final SecureRandom RANDOM = new SecureRandom();

    public LifecycleConfiguration {
        rules = List.copyOf(rules);
    }

    /** Reads the body of a PutBucketLifecycleConfiguration (or a stored document), validating it. */
    public static LifecycleConfiguration parse(byte[] xml) {
        XmlElement root = XML.parse(xml, "LifecycleConfiguration");
        List<XmlElement> ruleElements = root.all("Rule");
        if (ruleElements.isEmpty() || ruleElements.size() != root.children().size()) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        if (ruleElements.size() > MAX_RULES) {
            throw new S3Exception(S3ErrorCode.INVALID_REQUEST, "The number of lifecycle rules should not exceed"
                    + " allowed limit of " + MAX_RULES + " rules.");
        }
        List<LifecycleRule> rules = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (XmlElement e : ruleElements) {
            LifecycleRule rule = rule(e);
            if (!ids.add(rule.id())) {
                throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT,
                        "Rule ID must be unique. Found same ID for more than one rule.");
            }
            rules.add(rule);
        }
        return new LifecycleConfiguration(rules);
    }

    /** Reads the body of a PutBucketLifecycleConfiguration request, bounded. */
    public static byte[] readBody(InputStream body) throws IOException {
        return XML.readBytes(body);
    }

    private static LifecycleRule rule(XmlElement e) {
        for (XmlElement c : e.children()) {
            if (TRANSITIONS.contains(c.name())) {
                throw new S3Exception(S3ErrorCode.NOT_IMPLEMENTED, "Lifecycle transitions are not offered by this"
                        + " gateway: it has one storage class.");
            }
            if (!RULE_ELEMENTS.contains(c.name()) || e.all(c.name()).size() > 1) {
                throw new S3Exception(S3ErrorCode.MALFORMED_XML);
            }
        }
        String status = e.childText("Status");
        if (!"Enabled".equals(status) && !"Disabled".equals(status)) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        String id = e.childText("ID");
        if (id == null || id.isEmpty()) {
            id = randomId();
        } else if (id.length() > MAX_ID_LENGTH) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "ID length should not exceed allowed limit of "
                    + MAX_ID_LENGTH);
        }
        boolean legacy = !e.all("Prefix").isEmpty();
        boolean filtered = !e.all("Filter").isEmpty();
        if (legacy == filtered) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        LifecycleFilter filter = legacy ? LifecycleFilter.legacyPrefix(leaf(e.all("Prefix").get(0)))
                : LifecycleFilter.parse(e.all("Filter").get(0));
        LifecycleRule.Expiration expiration = e.all("Expiration").isEmpty() ? null
                : expiration(e.all("Expiration").get(0));
        LifecycleRule.NoncurrentExpiration noncurrent = e.all("NoncurrentVersionExpiration").isEmpty() ? null
                : noncurrent(e.all("NoncurrentVersionExpiration").get(0));
        int abort = e.all("AbortIncompleteMultipartUpload").isEmpty() ? 0
                : abort(e.all("AbortIncompleteMultipartUpload").get(0));
        if (expiration == null && noncurrent == null && abort == 0) {
            throw new S3Exception(S3ErrorCode.INVALID_REQUEST, "At least one action needs to be specified in a rule.");
        }
        if (filter.hasTags() && expiration != null && expiration.expiredObjectDeleteMarker() != null) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT,
                    "ExpiredObjectDeleteMarker cannot be specified with object tags.");
        }
        if ((filter.hasTags() || filter.hasSize()) && abort > 0) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "AbortIncompleteMultipartUpload cannot be specified"
                    + " with a filter on object tags or size.");
        }
        return new LifecycleRule(id, status.equals("Enabled"), filter, expiration, noncurrent, abort);
    }

    private static LifecycleRule.Expiration expiration(XmlElement e) {
        onlyOnce(e, Set.of("Days", "Date", "ExpiredObjectDeleteMarker"));
        if (e.children().size() != 1) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        XmlElement action = e.children().get(0);
        return switch (action.name()) {
            case "Days" -> new LifecycleRule.Expiration(positive(action, "Days' for Expiration action"), null, null);
            case "Date" -> new LifecycleRule.Expiration(0, date(leaf(action)), null);
            default -> new LifecycleRule.Expiration(0, null, bool(leaf(action)));
        };
    }

    private static LifecycleRule.NoncurrentExpiration noncurrent(XmlElement e) {
        onlyOnce(e, Set.of("NoncurrentDays", "NewerNoncurrentVersions"));
        if (e.all("NoncurrentDays").isEmpty()) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        int days = positive(e.all("NoncurrentDays").get(0), "NoncurrentDays' for NoncurrentVersionExpiration action");
        int newer = 0;
        if (!e.all("NewerNoncurrentVersions").isEmpty()) {
            newer = positive(e.all("NewerNoncurrentVersions").get(0), "NewerNoncurrentVersions'");
            if (newer > 100) {
                throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT,
                        "'NewerNoncurrentVersions' must not be greater than 100.");
            }
        }
        return new LifecycleRule.NoncurrentExpiration(days, newer);
    }

    private static int abort(XmlElement e) {
        onlyOnce(e, Set.of("DaysAfterInitiation"));
        if (e.children().size() != 1) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        return positive(e.children().get(0), "DaysAfterInitiation' for AbortIncompleteMultipartUpload action");
    }

    private static void onlyOnce(XmlElement e, Set<String> allowed) {
        for (XmlElement c : e.children()) {
            if (!allowed.contains(c.name()) || e.all(c.name()).size() > 1) {
                throw new S3Exception(S3ErrorCode.MALFORMED_XML);
            }
        }
    }

    private static int positive(XmlElement e, String what) {
        int n;
        try {
            n = Integer.parseInt(leaf(e).trim());
        } catch (NumberFormatException x) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        if (n <= 0) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "'" + what + " must be a positive integer");
        }
        return n;
    }

    /** An ISO 8601 date or date-time; S3 expires on a date only at midnight UTC. */
    private static Instant date(String text) {
        Instant t;
        try {
            t = text.length() == 10 ? LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant()
                    : OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException x) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "'Date' must be an ISO 8601 date at midnight GMT.");
        }
        if (t.getEpochSecond() % 86_400 != 0 || t.getNano() != 0) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "'Date' must be at midnight GMT");
        }
        return t;
    }

    private static boolean bool(String text) {
        return switch (text.trim()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        };
    }

    private static String leaf(XmlElement e) {
        if (!e.children().isEmpty()) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        return e.text() == null ? "" : e.text();
    }

    private static String randomId() {
        byte[] b = new byte[24];
        RANDOM.nextBytes(b);
        return Base64.getEncoder().encodeToString(b);
    }

    /**
     * When the current version {@code info} expires under these rules, and by which rule: the earliest due date of the
     * enabled rules with a day or date {@code Expiration} whose filter matches it (S3's {@code x-amz-expiration}).
     */
    public Optional<Expiry> expiryOf(ObjectInfo info) {
        Expiry first = null;
        for (LifecycleRule rule : rules) {
            if (!rule.enabled() || rule.expiration() == null
                    || !rule.filter().matches(info.key(), info.size(), () -> info.attributes().tags())) {
                continue;
            }
            Instant due = rule.expiration().dueAt(info.lastModified());
            if (due != null && (first == null || due.isBefore(first.date()))) {
                first = new Expiry(due, rule.id());
            }
        }
        return Optional.ofNullable(first);
    }

    /** The date a version expires and the id of the rule that expires it. */
    public record Expiry(Instant date, String ruleId) {
    }

    /** True if some enabled rule has an action for versions, delete markers or uploads: a sweep has work here. */
    public boolean hasEnabledRules() {
        return rules.stream().anyMatch(LifecycleRule::enabled);
    }

    /** The document GetBucketLifecycleConfiguration returns. */
    public byte[] toXml() {
        XmlResponseWriter w = XmlResponseWriter.document("LifecycleConfiguration");
        for (LifecycleRule r : rules) {
            w.start("Rule");
            w.element("ID", r.id());
            r.filter().write(w);
            w.element("Status", r.enabled() ? "Enabled" : "Disabled");
            LifecycleRule.Expiration x = r.expiration();
            if (x != null) {
                w.start("Expiration");
                if (x.days() > 0) {
                    w.element("Days", x.days());
                } else if (x.date() != null) {
                    w.element("Date", x.date());
                } else {
                    w.element("ExpiredObjectDeleteMarker", x.expiredObjectDeleteMarker());
                }
                w.end();
            }
            if (r.noncurrent() != null) {
                w.start("NoncurrentVersionExpiration").element("NoncurrentDays", r.noncurrent().days());
                if (r.noncurrent().newerNoncurrentVersions() > 0) {
                    w.element("NewerNoncurrentVersions", r.noncurrent().newerNoncurrentVersions());
                }
                w.end();
            }
            if (r.abortAfterDays() > 0) {
                w.start("AbortIncompleteMultipartUpload").element("DaysAfterInitiation", r.abortAfterDays()).end();
            }
            w.end();
        }
        return w.toBytes();
    }
}
