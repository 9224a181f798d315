package io.coffer.gateway.por;

import java.time.Duration;

/**
 * One audit's outcome as the gateway reports it (metrics, log line, admin JSON, {@code coffer audit}).
 *
 * @param passed         the aggregated checksums matched for C and every filled level of H
 * @param levelsChecked  levels challenged (C and H's filled levels)
 * @param vectorsSampled code vectors sampled over those levels
 * @param bytesDown      bytes the client received
 * @param bytesUp        bytes the client sent
 * @param took           wall-clock time
 * @param detail         why it failed, or a short note
 */
public record PorAudit(boolean passed, int levelsChecked, int vectorsSampled, long bytesDown, long bytesUp,
                       Duration took, String detail) {
}
