package io.coffer.por.audit;

/** The outcome of one audit: how many code blocks it sampled, and on failure why. */
public record AuditVerdict(boolean passed, int blocksSampled, String reason) {
    public static AuditVerdict pass(int blocksSampled) {
        return new AuditVerdict(true, blocksSampled, "");
    }

    public static AuditVerdict fail(int blocksSampled, String reason) {
        return new AuditVerdict(false, blocksSampled, reason);
    }
}
