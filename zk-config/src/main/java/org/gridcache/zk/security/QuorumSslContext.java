package org.gridcache.zk.security;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.function.Supplier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import eu.emi.security.authn.x509.proxy.ProxyUtils;

/**
 * The SSL context of the ensemble's own traffic (elections and replication, {@code sslQuorum}): each member presents
 * its host certificate and accepts a peer only with a host certificate (not a proxy, not a personal certificate) that
 * canl validates against the CA directory. ZooKeeper instantiates this class itself (system property
 * {@code zookeeper.ssl.quorum.context.supplier.class}).
 */
public final class QuorumSslContext implements Supplier<SSLContext> {

    @Override
    public SSLContext get() {
        ZkServerTls tls = ZkServerTls.current();
        try {
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(new KeyManager[] {tls.keyManager()}, new TrustManager[] {new HostsOnly(tls.trustManager())}, new SecureRandom());
            return ssl;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up the quorum's TLS: " + e.getMessage(), e);
        }
    }

    /** canl's judgement, and then: a host certificate, not a proxy. */
    record HostsOnly(X509TrustManager canl) implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            canl.checkClientTrusted(chain, authType);
            requireHost(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            canl.checkServerTrusted(chain, authType);
            requireHost(chain);
        }

        private static void requireHost(X509Certificate[] chain) throws CertificateException {
            if (ProxyUtils.isProxy(chain) || !ZkServerTls.isHostCertificate(chain[0])) {
                throw new CertificateException("a quorum peer must present a host certificate, not "
                        + chain[0].getSubjectX500Principal().getName());
            }
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return canl.getAcceptedIssuers();
        }
    }
}
