package org.gridcache.door.delegation;

import eu.emi.security.authn.x509.ValidationResult;
import eu.emi.security.authn.x509.proxy.ProxyUtils;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridTrust;
import org.gridcache.common.security.X509Authenticator;

/**
 * The second half of GridSite delegation: is the chain a client returns for the door's request a proxy the door may
 * act with? It must carry the request's key, be the caller's own valid chain (canl) with one new certificate on top,
 * and belong to the DN that put it. Also names the weaknesses that OpenSSL 3 origins refuse (see {@link #weakness}).
 */
final class DelegatedChainCheck {
    private static final String RFC3820_PROXY_CERT_INFO = "1.3.6.1.5.5.7.1.14";
    private final GridTrust trust;

    DelegatedChainCheck(GridTrust trust) {
        this.trust = trust;
    }

    /** The certificates of {@code chainPem}, proxy first, once they pass; else the reason, as a 400 or 403. */
    X509Certificate[] check(String dn, PublicKey requestKey, String chainPem) throws DelegationException {
        X509Certificate[] chain;
        try {
            chain = GridCredentials.certificatesFromPem(chainPem);
        } catch (IOException | RuntimeException e) {
            throw new DelegationException(400, "the delegated proxy is not a PEM certificate chain");
        }
        if (chain.length == 0) {
            throw new DelegationException(400, "the delegated proxy holds no certificate");
        }
        if (!chain[0].getPublicKey().equals(requestKey)) {
            throw new DelegationException(400, "the delegated proxy does not carry the key of this door's request");
        }
        checkSigned(chain);
        String owner = X509Authenticator.slashDn(ProxyUtils.getOriginalUserDN(Arrays.copyOfRange(chain, 1, chain.length)));
        if (!owner.equals(dn)) {
            throw new DelegationException(403, "the delegated proxy belongs to another identity");
        }
        return chain;
    }

    /**
     * The chain below the top must validate (canl); the top certificate is judged by hand (signature, names, validity
     * inside its issuer's) because GridSite's clients (htproxyput) sign it without the RFC 3820 extension, which canl
     * would not take as a proxy; mod_gridsite origins accept such chains.
     */
    private void checkSigned(X509Certificate[] chain) throws DelegationException {
        if (chain.length < 2) {
            throw new DelegationException(400, "the delegated proxy comes without the chain that signed it");
        }
        ValidationResult valid = trust.validator().validate(Arrays.copyOfRange(chain, 1, chain.length));
        if (!valid.isValid()) {
            String why = valid.getErrors().isEmpty() ? "invalid chain" : valid.getErrors().get(0).getMessage();
            throw new DelegationException(400, "the delegated proxy does not validate: " + why.lines().findFirst().orElse(""));
        }
        X509Certificate top = chain[0];
        X509Certificate issuer = chain[1];
        try {
            top.verify(issuer.getPublicKey());
            top.checkValidity();
        } catch (GeneralSecurityException e) {
            throw new DelegationException(400, "the delegated proxy is not signed by its chain, or not valid now");
        }
        if (!top.getIssuerX500Principal().equals(issuer.getSubjectX500Principal())
                || !X509Authenticator.slashDn(top.getSubjectX500Principal()).startsWith(X509Authenticator.slashDn(issuer.getSubjectX500Principal()) + "/CN=")
                || top.getNotAfter().after(issuer.getNotAfter())) {
            throw new DelegationException(400, "the delegated proxy is not a proxy of the chain that signed it");
        }
    }

    /**
     * Why a delegated proxy as the client signed it will not pass OpenSSL 3, or null. Debian's htproxyput (gridsite
     * 3.0) makes such proxies: it looks for the pre-standard proxy extension in the signing chain, so under an RFC 3820
     * proxy it signs a plain certificate, and with SHA-1.
     */
    static String weakness(X509Certificate proxy) {
        boolean sha1 = proxy.getSigAlgName().toUpperCase(Locale.ROOT).contains("SHA1");
        boolean rfc = proxy.getExtensionValue(RFC3820_PROXY_CERT_INFO) != null;
        if (sha1 && !rfc) {
            return "is not an RFC 3820 proxy and is signed with SHA-1";
        }
        return sha1 ? "is signed with SHA-1" : !rfc ? "is not an RFC 3820 proxy" : null;
    }

    /** When the first certificate of the chain expires. */
    static Instant notAfter(X509Certificate[] chain) {
        Instant min = Instant.MAX;
        for (X509Certificate c : chain) {
            Instant t = c.getNotAfter().toInstant();
            if (t.isBefore(min)) {
                min = t;
            }
        }
        return min;
    }
}
