package org.gridcache.common.security;

import eu.emi.security.authn.x509.X509Credential;
import eu.emi.security.authn.x509.impl.SocketFactoryCreator;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * SSL contexts for grid TLS. A server presents its host credential and asks for (never requires) a client
 * certificate without naming CAs (see {@link CollectingTrustManager} for why); it does not judge the client's chain
 * in the handshake: the application validates it with {@link X509Authenticator}, so a refusal is an HTTP 401 with a
 * reason rather than a bare handshake failure. A client presents its credential (if any: a host certificate or a
 * user's proxy) and checks the server's chain with canl against the CA directory; callers turn on host name checking.
 */
public final class GridTls {
    /**
     * The cipher suites a door's and a pool's server side offer: TLS 1.3's, and in TLS 1.2 only ECDHE key exchange
     * with an AEAD cipher (forward secret, no CBC). One list for both, so the two sides of a cluster never differ.
     */
    public static final String[] SERVER_CIPHER_SUITES = {
        "TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256", "TLS_CHACHA20_POLY1305_SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
        "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
    };

    private GridTls() {
    }

    public static SSLContext server(X509Credential host) {
        try {
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(new KeyManager[] {host.getKeyManager()}, new TrustManager[] {new CollectingTrustManager()}, new SecureRandom());
            return ssl;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    /** {@code credential} may be null: then the client presents no certificate. */
    public static SSLContext client(X509Credential credential, GridTrust trust) {
        try {
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(credential == null ? null : new KeyManager[] {credential.getKeyManager()},
                    new TrustManager[] {SocketFactoryCreator.getSSLTrustManager(trust.validator())}, new SecureRandom());
            return ssl;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    /**
     * Accepts any client chain during the handshake (the client still proves it holds the key); the server
     * application must validate the chain before it trusts anything in it.
     *
     * <p>It names no CA in the certificate request, on purpose. Clients that leave the choice of their certificate
     * to GnuTLS (wget) get it, in TLS 1.3, from the public-key types behind the request's
     * {@code signature_algorithms}. SunJSSE lists only ECDSA, EdDSA and RSA-PSS there (RSA PKCS#1 signatures are
     * listed in {@code signature_algorithms_cert}, which GnuTLS ignores), GnuTLS reads {@code rsa_pss_rsae_*} as the
     * RSA-PSS key type, and so finds no usable certificate among the plain RSA keys of every grid certificate and
     * proxy: it sends none. A request that names no CA makes GnuTLS send the one certificate it was given, whatever
     * its key type (it then signs with RSA-PSS, which an RSA key can). RFC 5246 and RFC 8446 allow an empty list (the
     * client may send any certificate); no JDK property puts PKCS#1 into TLS 1.3's {@code signature_algorithms}. The
     * list was only a hint: trust is decided by the chain's validation, not by it.
     */
    private static final class CollectingTrustManager implements X509TrustManager {
        private static final X509Certificate[] NO_CA_NAMES = {};

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            // judged per request by X509Authenticator: a refusal becomes a 401 with the reason
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws java.security.cert.CertificateException {
            throw new java.security.cert.CertificateException("a server context does not check servers");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return NO_CA_NAMES;
        }
    }
}
