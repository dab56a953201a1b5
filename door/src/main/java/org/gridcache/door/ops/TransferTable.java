package org.gridcache.door.ops;

import java.util.Locale;
import org.gridcache.common.ByteSize;
import org.gridcache.common.cluster.TransferList;
import org.gridcache.door.webdav.HtmlListing;

/**
 * The status page's "Active transfers" table (dCache's "active transfers"): who, path, pool, kind, bytes done of
 * size with a bar, rate, elapsed and ETA of every transfer the pools list in their records
 * ({@code /.gridcache/api/v1/transfers} is the same as JSON). A redirect the client did not follow moved nothing
 * and shows nowhere: only pools list transfers, once bytes can flow.
 */
final class TransferTable {
    private TransferTable() {
    }

    static void render(StringBuilder html, TransferList list) {
        html.append("<h2>Active transfers</h2>\n<table id=\"transfers\">\n<tr><th>Who</th><th>Path</th><th>Pool</th>")
                .append("<th>Kind</th><th>Done</th><th>Progress</th><th>Rate</th><th>Elapsed</th><th>ETA</th></tr>\n");
        if (list.transfers().isEmpty()) {
            html.append("<tr><td colspan=\"9\" class=\"muted\">no transfer in progress</td></tr>\n");
        }
        for (TransferList.Entry t : list.transfers()) {
            double fraction = t.fraction();
            html.append("<tr class=\"transfer\" data-kind=\"").append(HtmlListing.escape(t.kind())).append("\"><td>")
                    .append(HtmlListing.escape(t.subject())).append("</td><td class=\"path\">").append(HtmlListing.escape(t.path()))
                    .append("</td><td>").append(HtmlListing.escape(t.pool())).append("</td><td>").append(HtmlListing.escape(t.kind()))
                    .append("</td><td class=\"n\" title=\"").append(t.bytes()).append(" bytes\">").append(ByteSize.format(t.bytes()))
                    .append(t.size() != null ? " of " + ByteSize.format(t.size()) : "").append("</td><td>");
            if (fraction >= 0) {
                html.append("<span class=\"bar\"><span style=\"width:").append(String.format(Locale.ROOT, "%.1f", fraction * 100))
                        .append("%\"></span></span> ").append(String.format(Locale.ROOT, "%.0f%%", fraction * 100));
            } else {
                html.append("<span class=\"muted\">size unknown</span>");
            }
            html.append("</td><td class=\"n\">").append(ByteSize.format(t.bytesPerSec())).append("/s</td><td class=\"n\">")
                    .append(TransferList.duration(t.elapsedSeconds())).append("</td><td class=\"n\">")
                    .append(TransferList.duration(t.etaSeconds())).append("</td></tr>\n");
        }
        html.append("</table>\n");
    }
}
