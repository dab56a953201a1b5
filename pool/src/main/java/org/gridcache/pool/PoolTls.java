package org.gridcache.pool;

import eu.emi.security.authn.x509.X509Credential;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import javax.net.ssl.SSLContext;
import org.gridcache.common.security.GridTls;
import org.gridcache.common.security.GridTrust;

/** Netty SSL contexts over the JDK contexts of {@link GridTls} (canl trust, grid credentials, TLS 1.2 and up). */
final class PoolTls {
    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private PoolTls() {
    }

    /** The pool's server side: its host certificate; clients authenticate with tickets, not certificates. */
    static SslContext server(X509Credential host, GridTrust trust) {
        return wrap(GridTls.server(host, trust), false);
    }

    /** A client presenting {@code credential} (null: nothing) and checking servers against the CA directory. */
    static SslContext client(X509Credential credential, GridTrust trust) {
        return wrap(GridTls.client(credential, trust), true);
    }

    private static SslContext wrap(SSLContext jdk, boolean client) {
        return new JdkSslContext(jdk, client, null, IdentityCipherSuiteFilter.INSTANCE, ApplicationProtocolConfig.DISABLED,
                ClientAuth.NONE, PROTOCOLS, false);
    }
}
