package org.gridcache.gridftp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.util.Date;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.x509.X509V3CertificateGenerator;
import org.globus.gsi.GSIConstants;
import org.globus.gsi.X509Credential;
import org.globus.gsi.X509ExtensionSet;
import org.globus.gsi.bc.BouncyCastleCertProcessingFactory;
import org.globus.gsi.proxy.ext.ProxyCertInfoExtension;
import org.globus.gsi.proxy.ext.ProxyPolicy;
import org.junit.jupiter.api.Test;

/** Path length constraints read from real RFC 3820 proxies, made here with jGlobus as grid-proxy-init would. */
class ProxyCertInfoTest {

    @SuppressWarnings("deprecation")
    private static X509Certificate[] user(KeyPair keys) throws Exception {
        X509V3CertificateGenerator g = new X509V3CertificateGenerator();
        X500Principal dn = new X500Principal("CN=Test User,O=gridcache");
        g.setSerialNumber(BigInteger.ONE);
        g.setIssuerDN(dn);
        g.setSubjectDN(dn);
        g.setNotBefore(new Date(System.currentTimeMillis() - 60_000));
        g.setNotAfter(new Date(System.currentTimeMillis() + 3_600_000));
        g.setPublicKey(keys.getPublic());
        g.setSignatureAlgorithm("SHA256withRSA");
        return new X509Certificate[] {g.generate(keys.getPrivate())};
    }

    private static X509Credential proxy(X509Certificate[] chain, java.security.PrivateKey key, Integer pathLen) throws Exception {
        X509ExtensionSet extensions = null;
        if (pathLen != null) {
            extensions = new X509ExtensionSet();
            extensions.add(new ProxyCertInfoExtension(new org.globus.gsi.proxy.ext.ProxyCertInfo(pathLen,
                    new ProxyPolicy(ProxyPolicy.IMPERSONATION))));
        }
        return BouncyCastleCertProcessingFactory.getDefault().createCredential(chain, key, 1024, 3600,
                GSIConstants.CertificateType.GSI_4_IMPERSONATION_PROXY, extensions, null);
    }

    @Test
    void aProxyWithoutAConstraintAllowsAnyProxyBelow() throws Exception {
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(1024);
        KeyPair keys = rsa.generateKeyPair();
        X509Credential p = proxy(user(keys), keys.getPrivate(), null);
        assertEquals(2, p.getCertificateChain().length);
        assertEquals(Integer.MAX_VALUE, ProxyCertInfo.proxiesAllowedBelow(p.getCertificateChain()));
    }

    @Test
    void aConstrainedProxyCountsTheProxiesAlreadyBelowIt() throws Exception {
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(1024);
        KeyPair keys = rsa.generateKeyPair();
        X509Credential one = proxy(user(keys), keys.getPrivate(), 1);
        byte[] ext = one.getCertificateChain()[0].getExtensionValue(ProxyCertInfo.RFC3820_OID);
        assertEquals(1, ProxyCertInfo.pathLenConstraint(ext));
        assertEquals(1, ProxyCertInfo.proxiesAllowedBelow(one.getCertificateChain()));
        X509Credential below = proxy(one.getCertificateChain(), one.getPrivateKey(), null);
        assertEquals(0, ProxyCertInfo.proxiesAllowedBelow(below.getCertificateChain()), "1 allowed, 1 used: DCAU cannot delegate");
    }
}
