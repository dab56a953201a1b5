package org.gridcache.door.namespace;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.gridcache.common.UrlCodec;

/**
 * Reads the HTML index a web server without WebDAV answers for a directory (mod_gridsite's {@code GridSiteIndexes},
 * Apache's mod_autoindex, nginx's autoindex): every link to a direct child is an entry, a collection when it ends in
 * a slash. mod_gridsite also gives each link {@code content-length} and {@code last-modified} (epoch seconds)
 * attributes, as davix reads them; without them size and time are unknown (-1). Links that leave the directory
 * (absolute, parent, query, fragment, another scheme) are not children.
 */
final class HtmlIndexParser {
    private static final Pattern ANCHOR = Pattern.compile("<a\\s([^<>]*)>", Pattern.CASE_INSENSITIVE);
    private static final Pattern ATTRIBUTE = Pattern.compile("([a-zA-Z-]+)\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)'|([^\\s>]+))");

    /** One child: {@code name} decoded, without the trailing slash of a collection. */
    record Child(String name, boolean collection, long size, long mtimeMillis) {
    }

    private HtmlIndexParser() {
    }

    static List<Child> parse(String html) {
        Map<String, Child> children = new LinkedHashMap<>(); // a name linked twice (icon and text) is one child
        Matcher anchor = ANCHOR.matcher(html);
        while (anchor.find()) {
            Map<String, String> attributes = attributes(anchor.group(1));
            String href = attributes.get("href");
            if (href == null || href.isEmpty() || href.startsWith("/") || href.startsWith(".") || href.startsWith("?")
                    || href.startsWith("#") || href.contains(":")) {
                continue;
            }
            boolean collection = href.endsWith("/");
            String raw = collection ? href.substring(0, href.length() - 1) : href;
            if (raw.isEmpty() || raw.contains("/") || raw.contains("?") || raw.contains("#")) {
                continue;
            }
            String name;
            try {
                name = UrlCodec.decode(unescape(raw));
            } catch (IllegalArgumentException e) {
                continue;
            }
            long size = collection ? -1 : number(attributes.get("content-length"));
            long mtime = number(attributes.get("last-modified"));
            children.putIfAbsent(name, new Child(name, collection, size, mtime < 0 ? -1 : mtime * 1000));
        }
        return new ArrayList<>(children.values());
    }

    private static Map<String, String> attributes(String inside) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = ATTRIBUTE.matcher(inside);
        while (m.find()) {
            String value = m.group(2) != null ? m.group(2) : m.group(3) != null ? m.group(3) : m.group(4);
            out.putIfAbsent(m.group(1).toLowerCase(java.util.Locale.ROOT), value);
        }
        return out;
    }

    private static String unescape(String s) {
        return s.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'");
    }

    private static long number(String s) {
        try {
            return s == null ? -1 : Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
