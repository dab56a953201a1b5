package org.gridcache.door.webdav;

/**
 * What a browser sees instead of a bare 401 when the origin is read with the user's own credential and the user has
 * not delegated one for this session: what delegation is, and the command that makes one. Browsers cannot delegate
 * (GridSite delegation needs the user's private key to sign), so the page tells how to do it from a shell.
 */
public final class DelegationPage {
    private DelegationPage() {
    }

    /** {@code reason}: the one-line refusal; {@code endpoint}: the door's delegation endpoint. */
    public static String render(String reason, String endpoint) {
        String door = endpoint.endsWith("/.gridcache/delegation")
                ? endpoint.substring(0, endpoint.length() - "/.gridcache/delegation".length()) : endpoint;
        return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Delegation needed</title>\n"
                + "<link rel=\"stylesheet\" href=\"" + Stylesheet.PATH + "\">\n</head>\n"
                + "<body><h1>Delegate your proxy first</h1>\n<p>" + HtmlListing.escape(reason) + "</p>\n"
                + "<p>This data lives at a grid origin that decides itself who may read it. The cache reads it <em>as you</em>,"
                + " with a proxy you delegate to it; the proxy carries the VOMS attributes of the proxy you delegate from, and"
                + " a session is served only with a delegation of the same attributes. Delegate from a shell, with the proxy"
                + " your browser's certificate belongs to (for example made with <code>voms-proxy-init --voms atlas</code>):</p>\n"
                + "<pre>gridcache delegate --proxy /tmp/x509up_u$(id -u) " + HtmlListing.escape(door) + "</pre>\n"
                + "<p>gfal2 and davix delegate by themselves (they follow the <code>X-Delegate-To</code> header of this answer);"
                + " <code>htproxyput " + HtmlListing.escape(endpoint) + "</code> works too. Then reload this page.</p>\n"
                + "</body></html>\n";
    }
}
