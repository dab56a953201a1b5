package org.gridcache.door.ops;

import java.time.Instant;
import org.gridcache.common.settings.ClusterSettings.Keys;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.gridcache.common.ByteSize;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.cluster.TransferList;
import org.gridcache.door.webdav.HtmlListing;
import org.gridcache.door.webdav.Stylesheet;

/**
 * {@code /.gridcache/status}: one HTML page for people (what Shoal's web page gave its users) that reloads itself
 * every few seconds: the pools with their state, load, free space and hit rate, the transfers in progress
 * ({@link TransferTable}), the policy in force, this door's traffic. It wears the listing pages' {@link Stylesheet}, so
 * both look like one product, and needs no script: it works in any browser and in a text one.
 */
public final class StatusPage {
    static final int REFRESH_SECONDS = 5;

    private StatusPage() {
    }

    public static String render(DoorOperations door, List<PoolRecord> live, int selectable, ClusterSettings settings) {
        long hits = live.stream().mapToLong(PoolRecord::hits).sum();
        long misses = live.stream().mapToLong(PoolRecord::misses).sum();
        StringBuilder html = new StringBuilder(4096);
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta http-equiv=\"refresh\" content=\"").append(REFRESH_SECONDS).append("\">")
                .append("<title>gridcache status</title>\n<link rel=\"stylesheet\" href=\"").append(Stylesheet.PATH)
                .append("\">\n</head>\n<body class=\"status\">\n<nav class=\"top\"><a href=\"/\">Browse files</a></nav>\n")
                .append("<h1>gridcache status</h1>\n<p class=\"muted\">door ")
                .append(HtmlListing.escape(door.getId())).append(" &middot; updated ")
                .append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append(" &middot; refreshes every ")
                .append(REFRESH_SECONDS).append(" s</p>\n<ul>\n<li>Selection policy in force: <b id=\"policy\">")
                .append(HtmlListing.escape(settings.get(Keys.SELECTION_POLICY).label())).append("</b></li>\n<li>Pools: <b id=\"live\">")
                .append(live.size()).append("</b> live, <b id=\"selectable\">").append(selectable).append("</b> taking new reads</li>\n")
                .append("<li>Hit rate of all pools: <b id=\"hit-rate\">").append(rate(hits, misses)).append("</b> (")
                .append(counted(hits, "hit", "hits")).append(", ").append(counted(misses, "miss", "misses"))
                .append(")</li>\n</ul>\n")
                .append("<h2>Pools</h2>\n<table id=\"pools\">\n<tr><th>Pool</th><th>Site</th><th>State</th><th>Load</th>")
                .append("<th>Transfers</th><th>Out</th><th>Free</th><th>Used</th><th>Hit rate</th><th>URL</th></tr>\n");
        if (live.isEmpty()) {
            html.append("<tr><td colspan=\"10\">no pool registered: reads get 503</td></tr>\n");
        }
        for (PoolRecord p : live.stream().sorted(Comparator.comparing(PoolRecord::id)).toList()) {
            long used = p.capacityBytes() - p.freeBytes();
            double usedFraction = p.capacityBytes() > 0 ? (double) used / p.capacityBytes() : 0;
            html.append("<tr class=\"pool\" data-pool=\"").append(HtmlListing.escape(p.id())).append("\"><td>")
                    .append(HtmlListing.escape(p.id())).append("</td><td>").append(HtmlListing.escape(String.valueOf(p.site())))
                    .append("</td><td class=\"").append(HtmlListing.escape(p.state())).append("\">").append(HtmlListing.escape(p.state()))
                    .append("</td><td class=\"n\">").append(String.format(Locale.ROOT, "%.2f", p.load()))
                    .append("</td><td class=\"n\">").append(p.activeMovers())
                    .append("</td><td class=\"n\">").append(ByteSize.format(p.bytesPerSecOut())).append("/s")
                    .append("</td><td class=\"n\">").append(ByteSize.format(p.freeBytes())).append(" of ")
                    .append(ByteSize.format(p.capacityBytes()))
                    .append("</td><td class=\"used\"><span class=\"bar\"><span style=\"width:")
                    .append(String.format(Locale.ROOT, "%.1f", usedFraction * 100)).append("%\"></span></span> ")
                    .append(String.format(Locale.ROOT, "%.1f%%", usedFraction * 100))
                    .append("</td><td class=\"n\">").append(rate(p.hits(), p.misses()))
                    .append("</td><td><a href=\"").append(HtmlListing.escape(p.url())).append("/.gridcache/metrics\">")
                    .append(HtmlListing.escape(p.url())).append("</a></td></tr>\n");
        }
        html.append("</table>\n");
        TransferTable.render(html, TransferList.of(live, System.currentTimeMillis()));
        html.append("<h2>This door</h2>\n<table id=\"door\">\n")
                .append(row("Requests", String.valueOf(door.getRequestsTotal())))
                .append(row("Redirects to pools", String.valueOf(door.getRedirects())))
                .append(row("Bytes streamed by the door", ByteSize.format(door.getProxiedBytes())))
                .append(row("Open connections", String.valueOf(door.getOpenConnections())))
                .append("</table>\n<p class=\"muted\">Machine-readable: <a href=\"api/v1/pools\">api/v1/pools</a>, ")
                .append("<a href=\"api/v1/transfers\">api/v1/transfers</a> (JSON), ")
                .append("<a href=\"metrics\">metrics</a> (Prometheus).</p>\n</body></html>\n");
        return html.toString();
    }

    private static String row(String name, String value) {
        return "<tr><th>" + name + "</th><td class=\"n\">" + HtmlListing.escape(value) + "</td></tr>\n";
    }

    /** {@code 1 hit}, {@code 2 hits}. */
    static String counted(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    private static String rate(long hits, long misses) {
        long total = hits + misses;
        return total == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * hits / total);
    }
}
