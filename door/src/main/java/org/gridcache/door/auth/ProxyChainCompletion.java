package org.gridcache.door.auth;

import eu.emi.security.authn.x509.proxy.ProxyUtils;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import javax.security.auth.x500.X500Principal;

/**
 * Completes the chain of a client that presents proxies without the certificate that signed the top one. neon
 * (cadaver, davfs2) sends only the certificate of a PKCS#12 file that matches its key, so a PKCS#12 of a proxy arrives
 * as that proxy alone, whatever CA names the door's certificate request carries. The missing issuer is looked for
 * among the certificates the door already holds: those of the chains of its delegations ({@code known}), then the
 * end-entity certificates of the client chains it validated ({@link ValidatedCertificates}): one whose subject is the
 * top proxy's issuer and whose public key verifies the top proxy's signature, followed by its own issuers from the
 * chain it came with.
 *
 * <p>The completed chain is only a candidate: it is trusted if canl validates it (CA directory, CRLs, proxy rules),
 * and the TLS handshake has already shown that the client holds the leaf's key. Nothing is trusted because the door
 * has seen it before; the signature check only picks the right certificate when several share a DN.
 */
public final class ProxyChainCompletion {
    /** The 401's reason when nothing the door holds completes the chain. */
    static final String NO_USER_CERTIFICATE = "the proxy came without the user certificate that signed it, and this door"
            + " holds none that does (cadaver and davfs2 send only one certificate of a PKCS#12 file): delegate to this"
            + " door once (gridcache delegate), or give them a PKCS#12 of the user certificate, or present the whole"
            + " proxy here once (curl, wget, davix)";

    private final Function<X500Principal, List<List<X509Certificate>>> known;
    private final ValidatedCertificates validated = new ValidatedCertificates();

    /** {@code known}: the certificates held with this subject, each followed by its issuers. */
    public ProxyChainCompletion(Function<X500Principal, List<List<X509Certificate>>> known) {
        this.known = known;
    }

    /** {@code chain}, which canl validated, may complete later chains of its user's lone proxies. */
    void validated(X509Certificate[] chain) {
        validated.remember(chain);
    }

    /**
     * The chain to validate: {@code presented} itself unless its top certificate is a proxy (then its issuer is
     * missing), else {@code presented} completed with the first held certificate that signed its top, or empty when
     * none did.
     */
    Optional<X509Certificate[]> complete(X509Certificate[] presented) {
        X509Certificate top = presented[presented.length - 1];
        if (!ProxyUtils.isProxy(top)) {
            return Optional.of(presented);
        }
        List<X509Certificate> tried = new ArrayList<>();
        List<List<X509Certificate>> candidates = new ArrayList<>(known.apply(top.getIssuerX500Principal()));
        candidates.addAll(validated.withSubject(top.getIssuerX500Principal()));
        for (List<X509Certificate> upward : candidates) {
            X509Certificate issuer = upward.get(0);
            if (tried.contains(issuer)) {
                continue; // the same user certificate, held by another delegation or chain of the user's
            }
            tried.add(issuer);
            if (signed(top, issuer)) {
                X509Certificate[] completed = new X509Certificate[presented.length + upward.size()];
                System.arraycopy(presented, 0, completed, 0, presented.length);
                for (int i = 0; i < upward.size(); i++) {
                    completed[presented.length + i] = upward.get(i);
                }
                return Optional.of(completed);
            }
        }
        return Optional.empty();
    }

    private static boolean signed(X509Certificate certificate, X509Certificate issuer) {
        try {
            certificate.verify(issuer.getPublicKey());
            return true;
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
