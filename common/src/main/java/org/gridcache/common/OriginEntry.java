package org.gridcache.common;

import java.net.URI;
import java.util.Locale;

/**
 * One row of the mount table ({@code /origins/<name>}): the namespace {@code prefix} is served from {@code url}.
 * {@code protocol} is derived from the URL ("http", "https" or "file"); {@code credential} says which credential a
 * pool presents to the origin ("none" in the backbone; "user" and "service" arrive with grid security).
 */
public record OriginEntry(String name, String prefix, String url, String protocol, String credential) {

    public static OriginEntry of(String name, String prefix, String url) {
        String normalizedPrefix = GridPath.normalize(prefix);
        URI uri = URI.create(url);
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") && !scheme.equals("file")) {
            throw new IllegalArgumentException("origin URL must be http://, https:// or file:// (got '" + url + "')");
        }
        if (!name.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("origin name may hold only letters, digits, '.', '_' and '-'");
        }
        String base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        return new OriginEntry(name, normalizedPrefix, base, scheme, "none");
    }

    /**
     * The origin URL of a namespace path below this entry's prefix, each segment percent-encoded.
     */
    public String urlOf(String path) {
        String rest = GridPath.relativize(path, prefix);
        if (rest.equals("/")) {
            return url + "/";
        }
        StringBuilder sb = new StringBuilder(url);
        for (String segment : rest.substring(1).split("/")) {
            sb.append('/').append(UrlCodec.encodeSegment(segment));
        }
        return sb.toString();
    }
}
