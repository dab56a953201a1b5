package org.gridcache.door.auth.token;

import eu.emi.security.authn.x509.impl.SocketFactoryCreator;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.gridcache.common.security.GridTrust;

/**
 * Whom the door believes when it fetches an issuer's discovery document and keys: the JDK's CAs (token issuers are
 * ordinary web servers, such as WLCG's IAM instances with public certificates) and, on a TLS door, the grid CA
 * directory too (a site's own issuer with an IGTF host certificate).
 */
final class IssuerTrust {
    private IssuerTrust() {
    }

    /** {@code grid} may be null: then the JDK's CAs alone. */
    static SSLSocketFactory socketFactory(GridTrust grid) {
        try {
            TrustManagerFactory jdk = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            jdk.init((KeyStore) null);
            List<X509TrustManager> all = new ArrayList<>();
            for (TrustManager t : jdk.getTrustManagers()) {
                if (t instanceof X509TrustManager x) {
                    all.add(x);
                }
            }
            if (grid != null) {
                all.add(SocketFactoryCreator.getSSLTrustManager(grid.validator()));
            }
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, new TrustManager[] {new AnyOf(all)}, new SecureRandom());
            return tls.getSocketFactory();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS towards token issuers: " + e.getMessage(), e);
        }
    }

    /** Trusts a server that any of its managers trusts. */
    private record AnyOf(List<X509TrustManager> managers) implements X509TrustManager {
        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            CertificateException last = null;
            for (X509TrustManager m : managers) {
                try {
                    m.checkServerTrusted(chain, authType);
                    return;
                } catch (CertificateException e) {
                    last = e;
                }
            }
            throw last != null ? last : new CertificateException("no trusted CA");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("a client context does not check clients");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return managers.stream().flatMap(m -> java.util.Arrays.stream(m.getAcceptedIssuers())).toArray(X509Certificate[]::new);
        }
    }
}
