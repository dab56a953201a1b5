package org.gridcache.door.webdav;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridcache.common.ByteSize;
import org.gridcache.common.GridPath;
import org.gridcache.common.UrlCodec;
import org.gridcache.door.exchange.DoorRequests;
import org.gridcache.door.namespace.MountPoint;
import org.gridcache.door.namespace.NamespaceEntry;

/**
 * The HTML page listing a collection for browsers: breadcrumbs, names as links, sizes people read (the exact bytes on
 * hover), modification times, the origin of each mount point and when it was mounted, links to the status page. The
 * column headers sort: a small script reorders the rows in place, and without it they are links to the same page
 * sorted by the server ({@link ListingOrder}). It looks its best with the door's {@link Stylesheet} and reads without.
 * Every name comes from an origin and is escaped wherever it goes; the page holds no credential, ticket or secret.
 */
public final class HtmlListing {
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);
    /** The whole script: constant text, no value of the page inside it. */
    private static final String SORT_SCRIPT = """
            <script>
            document.querySelectorAll('#listing th[data-key] a').forEach(function (link) {
              link.addEventListener('click', function (event) {
                var th = link.parentNode, key = th.dataset.key, desc = th.getAttribute('aria-sort') === 'ascending';
                var body = document.querySelector('#listing tbody');
                var rows = Array.prototype.slice.call(body.querySelectorAll('tr[data-name]'));
                rows.sort(function (a, b) {
                  var dirs = b.dataset.dir - a.dataset.dir;
                  if (dirs !== 0) return dirs;
                  var c = key === 'name' ? (a.dataset.name < b.dataset.name ? -1 : a.dataset.name > b.dataset.name ? 1 : 0)
                      : a.dataset[key] - b.dataset[key];
                  return desc ? -c : c;
                });
                rows.forEach(function (row) { body.appendChild(row); });
                document.querySelectorAll('#listing th[data-key]').forEach(function (h) { h.setAttribute('aria-sort', 'none'); });
                th.setAttribute('aria-sort', desc ? 'descending' : 'ascending');
                event.preventDefault();
              });
            });
            </script>
            """;

    private HtmlListing() {
    }

    /**
     * {@code servedBy}: the mount point of the origin serving {@code dir}, if any; {@code mountsBelow}: the mount points
     * among {@code children}, by path.
     */
    public static String render(String dir, List<NamespaceEntry> children, Optional<MountPoint> servedBy,
                                Map<String, MountPoint> mountsBelow, ListingOrder order) {
        List<NamespaceEntry> rows = new ArrayList<>(children.size());
        for (NamespaceEntry e : children) {
            MountPoint mount = mountsBelow.get(e.path());
            // a mount point's date is when it was mounted: its origin is not asked for every listing of its parent
            rows.add(mount == null ? e : new NamespaceEntry(e.path(), e.name(), true, -1, mount.mountedMillis(), null, null));
        }
        rows.sort(order.comparator());
        String title = escape(dir.equals("/") ? dir : dir + "/");
        StringBuilder html = new StringBuilder(2048 + rows.size() * 320);
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>Index of ").append(title)
                .append("</title>\n<link rel=\"stylesheet\" href=\"").append(Stylesheet.PATH).append("\">\n</head>\n<body>\n")
                .append("<nav class=\"top\"><a href=\"").append(DoorRequests.SERVICES).append("/status\">Cache status</a></nav>\n")
                .append("<h1 id=\"crumbs\">Index of ").append(breadcrumbs(dir)).append("</h1>\n");
        servedBy.ifPresent(m -> html.append("<p class=\"served\">From origin ").append(origin(m))
                .append(" &middot; mounted").append(m.origin().prefix().equals(dir) ? ""
                        : " at " + link(m.origin().prefix(), true, escape(m.origin().prefix())))
                .append(m.mountedMillis() < 0 ? "" : " on " + time(m.mountedMillis())).append("</p>\n"));
        boolean mounts = !mountsBelow.isEmpty();
        html.append("<table id=\"listing\">\n<thead><tr>").append(header(order, ListingOrder.Column.NAME, "Name", ""))
                .append(header(order, ListingOrder.Column.SIZE, "Size", " class=\"n\""))
                .append(header(order, ListingOrder.Column.MODIFIED, "Modified", ""))
                .append(mounts ? "<th>Origin</th>" : "").append("</tr></thead>\n<tbody>\n");
        if (!dir.equals("/")) {
            html.append("<tr class=\"up\"><td class=\"name\">").append(link(GridPath.parent(dir), true, "../"))
                    .append("</td><td></td><td></td>").append(mounts ? "<td></td>" : "").append("</tr>\n");
        }
        for (NamespaceEntry e : rows) {
            row(html, e, mountsBelow.get(e.path()), mounts);
        }
        if (rows.isEmpty()) {
            html.append("<tr class=\"empty\"><td colspan=\"").append(mounts ? 4 : 3).append("\">empty</td></tr>\n");
        }
        return html.append("</tbody>\n</table>\n<footer>").append(counted(rows)).append(" &middot; <a href=\"")
                .append(DoorRequests.SERVICES).append("/status\">cache status</a></footer>\n")
                .append(SORT_SCRIPT).append("</body></html>\n").toString();
    }

    private static void row(StringBuilder html, NamespaceEntry e, MountPoint mount, boolean mounts) {
        String name = e.collection() ? e.name() + "/" : e.name();
        html.append("<tr class=\"").append(mount != null ? "mount" : e.collection() ? "dir" : "file")
                .append("\" data-dir=\"").append(e.collection() ? 1 : 0).append("\" data-name=\"").append(escape(e.name()))
                .append("\" data-size=\"").append(e.collection() ? -1 : e.size()).append("\" data-modified=\"")
                .append(e.mtimeMillis()).append("\"><td class=\"name\">").append(link(e.path(), e.collection(), escape(name)))
                .append("</td>");
        if (e.collection() || e.size() < 0) {
            html.append("<td class=\"n\">-</td>");
        } else {
            html.append("<td class=\"n\" title=\"").append(e.size()).append(" bytes\">").append(ByteSize.format(e.size())).append("</td>");
        }
        html.append("<td>").append(e.mtimeMillis() < 0 ? "-" : (mount != null ? "mounted " : "") + time(e.mtimeMillis())).append("</td>");
        if (mounts) {
            html.append("<td class=\"origin\">").append(mount == null ? "" : origin(mount)).append("</td>");
        }
        html.append("</tr>\n");
    }

    /** {@code /}, then each segment a link to its collection; the last one, the page itself, is plain text. */
    private static String breadcrumbs(String dir) {
        StringBuilder crumbs = new StringBuilder();
        crumbs.append(dir.equals("/") ? "<span aria-current=\"page\">/</span>" : link("/", true, "/"));
        if (dir.equals("/")) {
            return crumbs.toString();
        }
        String[] segments = dir.substring(1).split("/");
        String path = "";
        for (int i = 0; i < segments.length; i++) {
            path += "/" + segments[i];
            crumbs.append(i == segments.length - 1 ? "<span aria-current=\"page\">" + escape(segments[i]) + "</span>"
                    : link(path, true, escape(segments[i]))).append('/');
        }
        return crumbs.toString();
    }

    private static String header(ListingOrder order, ListingOrder.Column column, String label, String attributes) {
        return "<th data-key=\"" + column.key() + "\" aria-sort=\"" + order.ariaSort(column) + "\"" + attributes + "><a href=\""
                + escape(order.linkTo(column)) + "\">" + label + "</a></th>";
    }

    private static String origin(MountPoint m) {
        return "<b>" + escape(m.origin().name()) + "</b> " + m.shownUrl().map(u -> "<span class=\"url\">" + escape(u) + "</span>")
                .orElse("<span class=\"local\">(a directory of the cache's hosts)</span>");
    }

    private static String time(long millis) {
        Instant at = Instant.ofEpochMilli(millis);
        return "<time datetime=\"" + at + "\">" + WHEN.format(at) + "</time>";
    }

    private static String counted(List<NamespaceEntry> rows) {
        long collections = rows.stream().filter(NamespaceEntry::collection).count();
        long files = rows.size() - collections;
        return collections + (collections == 1 ? " collection, " : " collections, ") + files + (files == 1 ? " file" : " files");
    }

    /** {@code <a href="…">text</a>}; {@code text} already escaped. */
    private static String link(String path, boolean collection, String text) {
        return "<a href=\"" + escape(href(path, collection)) + "\">" + text + "</a>";
    }

    private static String href(String path, boolean collection) {
        String encoded = UrlCodec.encodePath(path);
        return collection && !encoded.endsWith("/") ? encoded + "/" : encoded;
    }

    public static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
