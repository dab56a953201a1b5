package org.gridcache.pool.http;

import eu.emi.security.authn.x509.X509Credential;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import java.util.List;
import javax.net.ssl.SSLException;
import org.gridcache.common.security.GridTls;
import org.gridcache.common.security.GridTrust;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Netty SSL contexts. The server side, which carries every byte a pool serves, uses BoringSSL (netty-tcnative) where it
 * is available — it needs no grid trust, since clients authenticate with tickets — and the JDK's otherwise; clients
 * (to origins and peers, presenting grid credentials and proxies) use the JDK contexts of {@link GridTls} with canl.
 */
public final class PoolTls {
    private static final Logger LOG = LoggerFactory.getLogger(PoolTls.class);
    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};
    /** The door's list: TLS 1.2 with ECDHE and AEAD only (no static RSA, no CBC). */
    private static final List<String> SERVER_CIPHERS = List.of(GridTls.SERVER_CIPHER_SUITES);

    private PoolTls() {
    }

    /**
     * The pool's server side: its host certificate. It asks for no client certificate (clients authenticate with
     * tickets), so a client that picks its certificate by the server's request (wget, neon: see {@link GridTls})
     * meets no request here to misread.
     */
    public static SslContext server(X509Credential host) {
        if (OpenSsl.isAvailable()) {
            try {
                SslContext openSsl = SslContextBuilder.forServer(host.getKey(), host.getCertificateChain())
                        .sslProvider(SslProvider.OPENSSL).protocols(PROTOCOLS).ciphers(SERVER_CIPHERS)
                        .clientAuth(ClientAuth.NONE).build();
                LOG.info("pool TLS: {}", OpenSsl.versionString());
                return openSsl;
            } catch (SSLException | RuntimeException e) {
                LOG.warn("pool TLS: BoringSSL refused the host credential ({}); using the JDK's TLS", e.toString());
            }
        } else {
            LOG.info("pool TLS: the JDK's (no BoringSSL for this platform: {})", OpenSsl.unavailabilityCause().toString());
        }
        return new JdkSslContext(GridTls.server(host), false, SERVER_CIPHERS, SupportedCipherSuiteFilter.INSTANCE,
                ApplicationProtocolConfig.DISABLED, ClientAuth.NONE, PROTOCOLS, false);
    }

    /** A client presenting {@code credential} (null: nothing) and checking servers against the CA directory. */
    public static SslContext client(X509Credential credential, GridTrust trust) {
        return new JdkSslContext(GridTls.client(credential, trust), true, null, IdentityCipherSuiteFilter.INSTANCE,
                ApplicationProtocolConfig.DISABLED, ClientAuth.NONE, PROTOCOLS, false);
    }
}
