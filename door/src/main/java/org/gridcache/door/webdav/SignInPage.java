package org.gridcache.door.webdav;

import org.gridcache.door.exchange.DoorRequests;

/**
 * What a browser (it accepts {@code text/html}) sees instead of the one-line 401 when it came without a credential:
 * the ways in (a certificate or proxy, a bearer token, a delegation for origins read as the user), with commands for a
 * shell. The status and headers stay those of the 401 every other client gets; only the body differs. It names the
 * page's own address and no credential.
 */
public final class SignInPage {
    private SignInPage() {
    }

    /**
     * {@code reason}: the one-line refusal; {@code url}: the address asked for, without its query; {@code door}: the
     * door's address; {@code secure}: the door speaks HTTPS (only then can it see a certificate).
     */
    public static String render(String reason, String url, String door, boolean secure) {
        String u = HtmlListing.escape(url);
        StringBuilder html = new StringBuilder(4096);
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Sign in to gridcache</title>\n")
                .append("<link rel=\"stylesheet\" href=\"").append(Stylesheet.PATH).append("\">\n</head>\n<body>\n")
                .append("<h1 id=\"sign-in\">Sign in to read this</h1>\n<p class=\"served\">").append(HtmlListing.escape(reason))
                .append("</p>\n<p>This cache serves grid storage: it needs to know who you are. There are three ways in.</p>\n");
        html.append("<section class=\"way\" id=\"certificate\"><h2>1. Your grid certificate or proxy</h2>\n");
        if (secure) {
            html.append("<p>Import your certificate into the browser as PKCS#12 and reload this page; the browser offers it ")
                    .append("when the door asks:</p>\n<pre>openssl pkcs12 -export -in ~/.globus/usercert.pem -inkey ")
                    .append("~/.globus/userkey.pem -out usercert.p12</pre>\n<p>From a shell, with a VOMS proxy:</p>\n")
                    .append("<pre>voms-proxy-init --voms VO\ncurl -L --capath /etc/grid-security/certificates \\\n")
                    .append("     --cert $X509_USER_PROXY --key $X509_USER_PROXY ").append(u).append("</pre>\n");
        } else {
            html.append("<p>This door speaks plain HTTP and never sees a certificate: use the HTTPS door of this site.</p>\n");
        }
        html.append("</section>\n<section class=\"way\" id=\"token\"><h2>2. A bearer token</h2>\n")
                .append("<p>A token of your VO's issuer (WLCG or SciTokens) in the <code>Authorization</code> header; a browser ")
                .append("cannot send one by itself:</p>\n<pre>curl -L -H \"Authorization: Bearer $(cat $BEARER_TOKEN_FILE)\" ")
                .append(u).append("</pre>\n</section>\n")
                .append("<section class=\"way\" id=\"delegation\"><h2>3. Delegation, for data read as you</h2>\n")
                .append("<p>Origins that decide themselves who may read are read <em>as you</em>, with a proxy you delegate ")
                .append("to the cache once per session (gfal2 and davix do it by themselves):</p>\n")
                .append("<pre>gridcache delegate --proxy /tmp/x509up_u$(id -u) ").append(HtmlListing.escape(door))
                .append("</pre>\n</section>\n<p class=\"served\"><a href=\"" + DoorRequests.SERVICES + "/status\">Cache status</a></p>\n")
                .append("</body></html>\n");
        return html.toString();
    }
}
