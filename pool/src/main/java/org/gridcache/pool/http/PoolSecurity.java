package org.gridcache.pool.http;

import eu.emi.security.authn.x509.X509Credential;
import org.gridcache.common.security.GridTrust;

/**
 * How a pool secures itself: with a host credential and trust it serves HTTPS, obtains users' delegated credentials
 * from doors over mutually authenticated TLS (presenting its host certificate), checks HTTPS origins against the CA
 * directory and presents the user's proxy (or, for service-credential origins, its host certificate) to them.
 * {@link #PLAIN}: plain HTTP, no credentials.
 */
public record PoolSecurity(X509Credential hostCredential, GridTrust trust) {
    public static final PoolSecurity PLAIN = new PoolSecurity(null, null);

    public PoolSecurity {
        if ((hostCredential == null) != (trust == null)) {
            throw new IllegalArgumentException("TLS needs both a host credential and a CA directory");
        }
    }

    public boolean tls() {
        return hostCredential != null;
    }
}
