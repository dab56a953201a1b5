package org.gridcache.common.security;

import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;

/**
 * Tells an origin's refusal of the certificate a door or pool presented (the user's delegated proxy, or the host's)
 * in the TLS handshake from any other failure: a refusal is the origin's 403 with its alert, not an unreachable
 * origin (502).
 */
public final class CredentialRefusal {
    private static final Pattern ALERT = Pattern.compile("Received fatal alert: (\\w+)");
    /** TLS alerts with which a server refuses the client's certificate (RFC 8446 §6.2). */
    private static final Set<String> CREDENTIAL_ALERTS = Set.of("bad_certificate", "unsupported_certificate", "certificate_revoked",
            "certificate_expired", "certificate_unknown", "unknown_ca", "access_denied", "certificate_required");

    private CredentialRefusal() {
    }

    /** The alert with which the origin refused the presented certificate, or null for any other failure. */
    public static String alertOf(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SSLException && c.getMessage() != null) {
                Matcher m = ALERT.matcher(c.getMessage());
                if (m.find() && CREDENTIAL_ALERTS.contains(m.group(1))) {
                    return m.group(1);
                }
            }
        }
        return null;
    }
}
