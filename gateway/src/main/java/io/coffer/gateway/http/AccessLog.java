package io.coffer.gateway.http;

import java.time.Instant;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One structured line per request on the {@code io.coffer.gateway.access} logger, as text ({@code key=value}) or
 * JSON, with the S3 error code of a failed request ({@code error_code}, null or {@code -} on success). The shipped
 * logback.xml writes these lines bare (no time or level prefix), so that a JSON line is one complete
 * JSON object. Carries the access key id, never secrets, signatures or the Authorization header.
 */
public final class AccessLog {
    private static final Logger LOG = LoggerFactory.getLogger("io.coffer.gateway.access");

    /** Line formats. */
    public enum Format { TEXT, JSON }

    private final Format format;

    public AccessLog(Format format) {
        this.format = format;
    }

    /** One finished request. */
    public record Entry(Instant time, String requestId, String remote, String accessKeyId, String operation,
                        String method, String bucket, String key, int status, String errorCode, long bytesIn,
                        long bytesOut, long durationMicros) {
    }

    public void log(Entry e) {
        if (LOG.isInfoEnabled()) {
            LOG.info(format(e));
        }
    }

    public String format(Entry e) {
        if (format == Format.JSON) {
            return "{\"time\":" + json(e.time().toString()) + ",\"request_id\":" + json(e.requestId())
                    + ",\"remote\":" + json(e.remote()) + ",\"access_key_id\":" + json(e.accessKeyId())
                    + ",\"operation\":" + json(e.operation()) + ",\"method\":" + json(e.method())
                    + ",\"bucket\":" + json(e.bucket()) + ",\"key\":" + json(e.key()) + ",\"status\":" + e.status()
                    + ",\"error_code\":" + json(e.errorCode()) + ",\"bytes_in\":" + e.bytesIn()
                    + ",\"bytes_out\":" + e.bytesOut() + ",\"duration_ms\":"
                    + String.format(Locale.ROOT, "%.3f", e.durationMicros() / 1000.0) + "}";
        }
        return "time=" + e.time() + " request_id=" + e.requestId() + " remote=" + e.remote() + " access_key_id="
                + text(e.accessKeyId()) + " operation=" + e.operation() + " method=" + e.method() + " bucket="
                + text(e.bucket()) + " key=" + text(e.key()) + " status=" + e.status() + " error_code=" + text(e.errorCode())
                + " bytes_in=" + e.bytesIn() + " bytes_out=" + e.bytesOut() + " duration_ms="
                + String.format(Locale.ROOT, "%.3f", e.durationMicros() / 1000.0);
    }

    private static String text(String v) {
        if (v == null) {
            return "-";
        }
        boolean plain = !v.isEmpty() && v.chars().allMatch(c -> c > 0x20 && c < 0x7f && c != '"' && c != '\\');
        return plain ? v : json(v);
    }

    public static String json(String v) {
        if (v == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(v.length() + 2).append('"');
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
