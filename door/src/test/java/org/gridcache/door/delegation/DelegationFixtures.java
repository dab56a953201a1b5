package org.gridcache.door.delegation;

import eu.emi.security.authn.x509.X509Credential;
import eu.emi.security.authn.x509.proxy.ProxyGenerator;
import eu.emi.security.authn.x509.proxy.ProxyRequestOptions;
import eu.emi.security.authn.x509.proxy.ProxyType;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridTrust;
import org.gridcache.common.security.TestPki;
import org.gridcache.common.security.X509Authenticator;
import org.gridcache.door.MutableClock;

/** gridenv's PKI and what a client does with the door's certificate request, for the delegation tests. */
final class DelegationFixtures {
    static final String ALICE = "/DC=org/DC=example/CN=Alice";
    static final String BOB = "/DC=org/DC=example/CN=Bob";
    static final String MALLORY = "/DC=org/DC=example/CN=Mallory";
    private static Path pki;
    private static GridTrust trust;

    private DelegationFixtures() {
    }

    static synchronized GridTrust trust() throws Exception {
        if (trust == null) {
            pki = TestPki.get();
            trust = GridTrust.load(pki.resolve("certificates"), pki.resolve("vomsdir"), Duration.ofMinutes(10));
        }
        return trust;
    }

    /** The FQANs a session presenting gridenv's proxies/NAME.pem has at the door (primary first; none without VOMS). */
    static List<String> fqansOf(String proxy) throws Exception {
        trust();
        X509Credential user = GridCredentials.loadProxy(pki.resolve("proxies/" + proxy + ".pem"));
        return new X509Authenticator(trust).authenticate(user.getCertificateChain()).fqans();
    }

    /** The certificate chain of gridenv's proxies/NAME.pem: the proxy, then the user certificate. */
    static java.security.cert.X509Certificate[] chainOf(String proxy) throws Exception {
        trust();
        return GridCredentials.loadProxy(pki.resolve("proxies/" + proxy + ".pem")).getCertificateChain();
    }

    /** A clock the test moves, starting now: the proxies of the PKI are valid in real time. */
    static MutableClock clockAtNow() {
        MutableClock clock = new MutableClock();
        clock.advance(System.currentTimeMillis() - clock.millis());
        return clock;
    }

    /** Signs the door's request as an RFC 3820 proxy of {@code proxy} (gridenv's proxies/NAME.pem). */
    static String sign(String csrPem, String proxy, long seconds) throws Exception {
        return sign(csrPem, proxy, seconds, ProxyType.RFC3820);
    }

    static String sign(String csrPem, String proxy, long seconds, ProxyType type) throws Exception {
        trust();
        X509Credential user = GridCredentials.loadProxy(pki.resolve("proxies/" + proxy + ".pem"));
        PKCS10CertificationRequest csr;
        try (PEMParser parser = new PEMParser(new StringReader(csrPem))) {
            csr = (PKCS10CertificationRequest) parser.readObject();
        }
        ProxyRequestOptions options = new ProxyRequestOptions(user.getCertificateChain(), csr);
        options.setLifetime(seconds, TimeUnit.SECONDS);
        options.setType(type);
        return GridCredentials.certificatesToPem(ProxyGenerator.generate(options, user.getKey()));
    }
}
