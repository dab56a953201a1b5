package org.gridcache.cli;

import java.util.Locale;
import org.gridcache.common.ByteSize;
import org.gridcache.common.cluster.TransferList;

/**
 * What {@code gridcache transfers} prints: a heading, then two lines per transfer in progress, who and what, then a
 * progress bar with bytes done of size, rate, elapsed time and ETA (the status page's table, for a terminal).
 */
final class TransferScreen {
    /** Characters between the bar's brackets. */
    static final int BAR_WIDTH = 24;

    private TransferScreen() {
    }

    static String render(TransferList list, int pools) {
        StringBuilder out = new StringBuilder();
        int n = list.transfers().size();
        out.append(n == 0 ? "no transfer in progress" : n == 1 ? "1 transfer in progress" : n + " transfers in progress")
                .append(" at ").append(pools == 1 ? "1 pool" : pools + " pools").append(", ").append(list.time()).append('\n');
        for (TransferList.Entry t : list.transfers()) {
            out.append(String.format(Locale.ROOT, "%-6s %-12s %-20s %s%n", t.kind(), t.pool(), t.subject(), t.path()));
            out.append("       ").append(bar(t.fraction()))
                    .append(t.fraction() >= 0 ? String.format(Locale.ROOT, " %3.0f%%", t.fraction() * 100) : "     ")
                    .append("  ").append(ByteSize.format(t.bytes()))
                    .append(t.size() != null ? " of " + ByteSize.format(t.size()) : "")
                    .append("  ").append(ByteSize.format(t.bytesPerSec())).append("/s")
                    .append("  elapsed ").append(TransferList.duration(t.elapsedSeconds()))
                    .append("  ETA ").append(TransferList.duration(t.etaSeconds())).append('\n');
        }
        return out.toString();
    }

    /** {@code [#########...............]} for 0 to 1; a bar of {@code ?} when the size is unknown (below 0). */
    static String bar(double fraction) {
        if (fraction < 0) {
            return "[" + "?".repeat(BAR_WIDTH) + "]";
        }
        int filled = (int) Math.floor(Math.min(1, fraction) * BAR_WIDTH);
        return "[" + "#".repeat(filled) + ".".repeat(BAR_WIDTH - filled) + "]";
    }
}
