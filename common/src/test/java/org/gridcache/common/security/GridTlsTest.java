package org.gridcache.common.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import eu.emi.security.authn.x509.X509Credential;
import eu.emi.security.authn.x509.impl.SocketFactoryCreator;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509KeyManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The server context's certificate request, seen by a client's key manager: it names no CA, so a client that picks
 * its certificate by the request (GnuTLS: wget, cadaver) sends the one it has (GridTls's comment tells why), and the
 * server still receives the whole proxy chain.
 */
class GridTlsTest {
    static Path pki;
    static GridTrust trust;

    @BeforeAll
    static void load() throws Exception {
        pki = TestPki.get();
        trust = GridTrust.load(pki.resolve("certificates"), null, Duration.ofMinutes(10));
    }

    @AfterAll
    static void close() {
        if (trust != null) {
            trust.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void theCertificateRequestNamesNoCaAndTheProxyChainArrives(String protocol) throws Exception {
        X509Credential host = GridCredentials.load(pki.resolve("host/cert.pem"), pki.resolve("host/key.pem"));
        X509Credential alice = GridCredentials.loadProxy(pki.resolve("proxies/alice.pem"));
        RecordingKeyManager keys = new RecordingKeyManager((X509KeyManager) alice.getKeyManager());
        SSLContext client = SSLContext.getInstance("TLS");
        client.init(new KeyManager[] {keys}, new TrustManager[] {SocketFactoryCreator.getSSLTrustManager(trust.validator())},
                new SecureRandom());

        try (SSLServerSocket listener = (SSLServerSocket) GridTls.server(host).getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            listener.setWantClientAuth(true);
            listener.setEnabledProtocols(new String[] {protocol});
            CompletableFuture<X509Certificate[]> received = CompletableFuture.supplyAsync(() -> {
                try (SSLSocket s = (SSLSocket) listener.accept()) {
                    s.startHandshake();
                    s.getOutputStream().write(1); // TLS 1.3: the client's certificate is read before this byte is sent
                    s.getOutputStream().flush();
                    s.getInputStream().read();
                    return (X509Certificate[]) s.getSession().getPeerCertificates();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            try (SSLSocket s = (SSLSocket) client.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(),
                    listener.getLocalPort())) {
                s.setEnabledProtocols(new String[] {protocol});
                s.startHandshake();
                assertEquals(protocol, s.getSession().getProtocol());
                assertEquals(1, s.getInputStream().read());
                s.getOutputStream().write(2);
                s.getOutputStream().flush();
                X509Certificate[] chain = received.get(1, TimeUnit.MINUTES);
                assertEquals(alice.getCertificateChain().length, chain.length);
                assertEquals("CN=Alice,DC=example,DC=org", chain[chain.length - 1].getSubjectX500Principal().getName());
            }
        }
        assertEquals(1, keys.asked.size(), "the client was asked for a certificate once");
        assertTrue(keys.asked.get(0) == null || keys.asked.get(0).length == 0, "no CA named in the request");
    }

    /** A client's key manager that records the CA names each certificate request carried. */
    private static final class RecordingKeyManager extends X509ExtendedKeyManager {
        final List<Principal[]> asked = new CopyOnWriteArrayList<>();
        private final X509KeyManager keys;

        RecordingKeyManager(X509KeyManager keys) {
            this.keys = keys;
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return chooseClientAlias(keyType, issuers, null);
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            asked.add(issuers);
            return keys.chooseClientAlias(keyType, issuers, socket);
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return keys.getClientAliases(keyType, issuers);
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return keys.getServerAliases(keyType, issuers);
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return keys.chooseServerAlias(keyType, issuers, socket);
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return keys.getCertificateChain(alias);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return keys.getPrivateKey(alias);
        }
    }
}
