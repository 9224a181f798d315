package io.coffer.keyserver.transport;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Formats a Micrometer registry as Prometheus text exposition format 0.0.4: counters as
 * {@code name_total}, summaries and timers as {@code _count}/{@code _sum}/{@code _max} (timers in seconds),
 * gauges as is. Dots in names become underscores.
 */
public final class PrometheusText {
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private PrometheusText() {}

    public static String format(MeterRegistry registry) {
        List<Meter> meters = new ArrayList<>(registry.getMeters());
        meters.sort(Comparator.comparing((Meter m) -> m.getId().getName()).thenComparing(m -> m.getId().getTags().toString()));
        StringBuilder out = new StringBuilder();
        String lastType = null;
        for (Meter m : meters) {
            String base = m.getId().getName().replace('.', '_');
            String labels = labels(m.getId().getTags());
            if (m instanceof Counter) {
                lastType = header(out, lastType, base + "_total", "counter");
                line(out, base + "_total", labels, ((Counter) m).count());
            } else if (m instanceof Timer) {
                Timer t = (Timer) m;
                lastType = header(out, lastType, base + "_seconds", "summary");
                line(out, base + "_seconds_count", labels, t.count());
                line(out, base + "_seconds_sum", labels, t.totalTime(TimeUnit.SECONDS));
                line(out, base + "_seconds_max", labels, t.max(TimeUnit.SECONDS));
            } else if (m instanceof DistributionSummary) {
                DistributionSummary s = (DistributionSummary) m;
                lastType = header(out, lastType, base, "summary");
                line(out, base + "_count", labels, s.count());
                line(out, base + "_sum", labels, s.totalAmount());
                line(out, base + "_max", labels, s.max());
            } else if (m instanceof Gauge) {
                lastType = header(out, lastType, base, "gauge");
                line(out, base, labels, ((Gauge) m).value());
            }
        }
        return out.toString();
    }

    private static String header(StringBuilder out, String lastType, String name, String type) {
        String key = name + " " + type;
        if (!key.equals(lastType)) {
            out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
        }
        return key;
    }

    private static void line(StringBuilder out, String name, String labels, double value) {
        out.append(name).append(labels).append(' ');
        if (value == Math.rint(value) && !Double.isInfinite(value) && Math.abs(value) < 1e15) {
            out.append((long) value);
        } else {
            out.append(String.format(Locale.ROOT, "%s", value));
        }
        out.append('\n');
    }

    private static String labels(List<Tag> tags) {
        if (tags.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < tags.size(); i++) {
            Tag t = tags.get(i);
            if (i > 0) {
                b.append(',');
            }
            b.append(t.getKey().replace('.', '_')).append("=\"")
                    .append(t.getValue().replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")).append('"');
        }
        return b.append('}').toString();
    }
}
