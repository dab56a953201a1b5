package org.gridcache.common.origin;

import org.gridcache.common.UrlCodec;
import org.gridcache.common.GridPath;
import java.net.URI;
import java.util.Locale;

/**
 * One row of the mount table ({@code /origins/<name>}): the namespace {@code prefix} is served from {@code url}.
 * {@code protocol} is derived from the URL ("http", "https", "file" or "gsiftp"); {@code credential} says which credential
 * doors and pools present to the origin. {@code vo}, when the admin declared one, is the virtual organisation whose data
 * the origin holds: the storage report's per-VO shares count the origin's cached files under it (null: none declared).
 */
public record OriginEntry(String name, String prefix, String url, String protocol, CredentialMode credential, String vo) {
    /** GridFTP with GSI: listed with MLSD/MLST, fetched with jGlobus. */
    public static final String GSIFTP = "gsiftp";
    /** The GridFTP control port when the URL names none. */
    public static final int GSIFTP_DEFAULT_PORT = 2811;

    /** An entry whose pools present no credential to the origin. */
    public static OriginEntry of(String name, String prefix, String url) {
        return of(name, prefix, url, CredentialMode.NONE.id());
    }

    /** {@code credential}: none, user, service or token (http and https only); null for the default of the URL's scheme ("user" for https). */
    public static OriginEntry of(String name, String prefix, String url, String credential) {
        String normalizedPrefix = GridPath.normalize(prefix);
        URI uri = URI.create(url);
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") && !scheme.equals("file") && !scheme.equals(GSIFTP)) {
            throw new IllegalArgumentException("origin URL must be http://, https://, gsiftp:// or file:// (got '" + url + "')");
        }
        if (scheme.equals(GSIFTP) && (uri.getHost() == null || uri.getRawQuery() != null || uri.getRawUserInfo() != null)) {
            throw new IllegalArgumentException("a GridFTP origin URL is gsiftp://host[:port]/path (got '" + url + "')");
        }
        if (!name.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("origin name may hold only letters, digits, '.', '_' and '-'");
        }
        String base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        CredentialMode cred = credential != null ? CredentialMode.parse(credential)
                : scheme.equals("https") || scheme.equals(GSIFTP) ? CredentialMode.USER : CredentialMode.NONE;
        if (cred == CredentialMode.TOKEN && !scheme.equals("https") && !scheme.equals("http")) {
            throw new IllegalArgumentException("credential token needs an http:// or https:// origin: a bearer token cannot be"
                    + " presented to a " + scheme + ":// origin");
        }
        if (cred != CredentialMode.NONE && cred != CredentialMode.TOKEN && !scheme.equals("https") && !scheme.equals(GSIFTP)) {
            throw new IllegalArgumentException("credential " + cred.id() + " needs an https:// or gsiftp:// origin");
        }
        if (scheme.equals(GSIFTP) && cred == CredentialMode.NONE) {
            throw new IllegalArgumentException("a gsiftp:// origin needs a credential (GSI): user or service");
        }
        return new OriginEntry(name, normalizedPrefix, base, scheme, cred, null);
    }

    /** This entry, its data declared {@code vo}'s (a VO name as VOMS writes it: atlas, vo.example.org); null: none. */
    public OriginEntry withVo(String vo) {
        if (vo != null && !vo.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
            throw new IllegalArgumentException("a VO name may hold only letters, digits, '.', '_' and '-' (got '" + vo + "')");
        }
        return new OriginEntry(name, prefix, url, protocol, credential, vo);
    }

    /** The credential mode; entries written before grid security have none. */
    public CredentialMode credentialMode() {
        return credential == null ? CredentialMode.NONE : credential;
    }

    /** Whether {@code originUrl} (a file's, as {@link #urlOf} makes it) lies under this entry's URL. */
    public boolean holds(String originUrl) {
        return originUrl.equals(url) || originUrl.startsWith(url + "/");
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
