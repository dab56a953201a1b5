package org.gridcache.simulator;

import java.util.List;
import org.gridcache.common.settings.ClusterSettings.Keys;
import java.util.Locale;
import java.util.StringJoiner;
import org.gridcache.common.ByteSize;

/** The results as one Markdown table, a row per policy × workload, so that it pastes into a note or an issue. */
final class Report {
    private Report() {
    }

    static String markdown(Cluster cluster, List<Result> results) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%d pools × %s, %d reads at once, selection.spill-load %s, eviction from watermark %s down to %s%n%n",
                cluster.pools(), ByteSize.format(cluster.capacity()), cluster.concurrency(),
                number(cluster.settings().get(Keys.SPILL_LOAD)), number(cluster.settings().get(Keys.WATERMARK_HIGH)),
                number(cluster.settings().get(Keys.WATERMARK_LOW))));
        out.append("| workload | policy | reads | hit ratio | joined | from peers | peer questions | origin reads | origin bytes "
                + "| requests per pool | bytes per pool | max/mean | evictions |\n");
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|\n");
        for (Result r : results) {
            out.append(String.format(Locale.ROOT, "| %s | %s | %d | %.3f | %d | %d | %d | %d | %s | %s | %s | %.2f | %d |%n",
                    r.workload(), r.policy(), r.reads(), r.hitRatio(), r.joined(), r.pulled(), r.questions(), r.origin(),
                    ByteSize.format(r.originBytes()), perPool(r.requests(), false), perPool(r.bytesServed(), true),
                    r.imbalance(), r.evictions()));
        }
        long refused = results.stream().mapToLong(Result::refused).sum();
        if (refused > 0) {
            out.append(String.format(Locale.ROOT, "%n%d reads refused: files larger than a pool's whole store (a pool answers 507).%n", refused));
        }
        return out.toString();
    }

    private static String perPool(long[] values, boolean bytes) {
        StringJoiner j = new StringJoiner(" / ");
        for (long v : values) {
            j.add(bytes ? ByteSize.format(v) : Long.toString(v));
        }
        return j.toString();
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
