package org.gridcache.door.webdav;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.gridcache.common.GridPath;
import org.gridcache.common.UrlCodec;
import org.gridcache.door.namespace.NamespaceEntry;

/** A plain HTML page listing a collection for browsers: names as links, sizes, modification times. */
public final class HtmlListing {
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    private HtmlListing() {
    }

    public static String render(String dir, List<NamespaceEntry> children) {
        StringBuilder html = new StringBuilder(1024 + children.size() * 160);
        String title = escape(dir);
        html.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>").append(title)
                .append("</title>\n<style>body{font-family:sans-serif}td{padding:0 1em}td.n{text-align:right}</style>")
                .append("</head>\n<body><h1>Index of ").append(title).append("</h1>\n<table>\n")
                .append("<tr><th>Name</th><th>Size</th><th>Modified</th></tr>\n");
        if (!dir.equals("/")) {
            html.append("<tr><td><a href=\"").append(escape(href(GridPath.parent(dir), true))).append("\">../</a></td><td></td><td></td></tr>\n");
        }
        for (NamespaceEntry e : children) {
            String name = e.collection() ? e.name() + "/" : e.name();
            html.append("<tr><td><a href=\"").append(escape(href(e.path(), e.collection()))).append("\">")
                    .append(escape(name)).append("</a></td><td class=\"n\">")
                    .append(e.collection() || e.size() < 0 ? "-" : Long.toString(e.size())).append("</td><td>")
                    .append(e.mtimeMillis() < 0 ? "-" : WHEN.format(Instant.ofEpochMilli(e.mtimeMillis())))
                    .append("</td></tr>\n");
        }
        return html.append("</table>\n</body></html>\n").toString();
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
