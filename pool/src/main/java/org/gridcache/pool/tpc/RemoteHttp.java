package org.gridcache.pool.tpc;

import eu.emi.security.authn.x509.X509Credential;
import java.net.http.HttpClient;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import org.gridcache.common.security.GridTls;
import org.gridcache.common.security.GridTrust;

/**
 * The HTTP client a pool talks to a third-party copy's remote side with: HTTP/1.1, redirects followed as browsers do
 * (never from https to http), the remote's chain checked against the CA directory when the pool has one (else the
 * JDK's trust store), presenting the user's proxy for {@code Credential: gridsite} and nothing otherwise.
 */
final class RemoteHttp {
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);
    private final GridTrust trust;
    private final HttpClient anonymous;

    /** {@code trust} null: a pool without grid security (https remotes checked against the JDK's trust store). */
    RemoteHttp(GridTrust trust) {
        this.trust = trust;
        this.anonymous = build(context(null));
    }

    /** The client presenting {@code credential} (null: nothing). */
    HttpClient client(X509Credential credential) {
        return credential == null ? anonymous : build(context(credential));
    }

    private SSLContext context(X509Credential credential) {
        if (trust != null) {
            return GridTls.client(credential, trust);
        }
        try {
            return SSLContext.getDefault();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no TLS in this JDK", e);
        }
    }

    private static HttpClient build(SSLContext tls) {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(CONNECT_TIMEOUT).sslContext(tls).build();
    }
}
