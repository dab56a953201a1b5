package org.gridcache.common.security;

import eu.emi.security.authn.x509.ValidationError;
import eu.emi.security.authn.x509.ValidationResult;
import eu.emi.security.authn.x509.impl.OpensslNameUtils;
import eu.emi.security.authn.x509.proxy.ProxyChainInfo;
import eu.emi.security.authn.x509.proxy.ProxyUtils;
import java.io.IOException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.security.auth.x500.X500Principal;
import org.italiangrid.voms.VOMSAttribute;
import org.italiangrid.voms.ac.VOMSValidationResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a client's certificate chain (an end-entity certificate, or an RFC 3820 proxy chain, impersonation or
 * limited) into a {@link GridSubject}: canl-java validates the chain against the CA directory (expiry, CRLs,
 * signing policies, proxy rules); voms-api-java validates the attribute certificates in it. An invalid or expired
 * attribute certificate leaves the user authenticated without its FQANs, as mod_gridsite does, and is logged.
 */
public final class X509Authenticator {
    private static final Logger LOG = LoggerFactory.getLogger(X509Authenticator.class);
    private final GridTrust trust;

    public X509Authenticator(GridTrust trust) {
        this.trust = trust;
    }

    public GridSubject authenticate(X509Certificate[] chain) throws AuthenticationException {
        if (chain == null || chain.length == 0) {
            return GridSubject.ANONYMOUS;
        }
        ValidationResult result = trust.validator().validate(chain);
        String presented = slashDn(chain[0].getSubjectX500Principal());
        if (!result.isValid()) {
            String reason = onlyProxies(chain) ? LONE_PROXY : reason(result);
            LOG.info("refused certificate chain of {}: {}", presented, reason);
            throw new AuthenticationException("certificate refused: " + reason);
        }
        String dn;
        boolean limited = false;
        try {
            dn = slashDn(ProxyUtils.getOriginalUserDN(chain));
            if (ProxyUtils.isProxy(chain)) {
                limited = new ProxyChainInfo(chain).isLimited();
            }
        } catch (CertificateException | IOException | IllegalArgumentException e) {
            LOG.info("refused certificate chain of {}: malformed proxy chain ({})", presented, e.getMessage());
            throw new AuthenticationException("certificate refused: malformed proxy chain");
        }
        return withVoms(dn, limited, chain);
    }

    /**
     * The FQANs of the first valid VOMS attribute certificate in {@code chain}, primary first (none without one or
     * without a vomsdir): what an origin that trusts the same VOMS servers sees when the chain is presented to it. The
     * chain itself is not validated here (a delegated chain is checked where it is received).
     */
    public List<String> fqans(X509Certificate[] chain) {
        return chain.length == 0 ? List.of() : withVoms(slashDn(chain[0].getSubjectX500Principal()), false, chain).fqans();
    }

    private GridSubject withVoms(String dn, boolean limited, X509Certificate[] chain) {
        if (trust.voms() == null) {
            return new GridSubject(dn, null, List.of(), limited);
        }
        List<VOMSValidationResult> results = trust.voms().validateWithResult(chain);
        for (VOMSValidationResult r : results) {
            VOMSAttribute attributes = r.getAttributes();
            if (r.isValid()) {
                return new GridSubject(dn, attributes.getVO(), attributes.getFQANs(), limited);
            }
            LOG.info("{}: ignoring the VOMS attributes of VO {}: {}", dn, attributes == null ? "?" : attributes.getVO(),
                    r.getValidationErrors());
        }
        return new GridSubject(dn, null, List.of(), limited);
    }

    /**
     * neon (cadaver, davfs2) sends only the certificate that matches the key of a PKCS#12 file, never the rest of
     * it: a proxy arrives without the user certificate that signed it, and canl's own words for that do not say why.
     */
    static final String LONE_PROXY = "the proxy came without the user certificate that signed it (cadaver and davfs2 "
            + "send only one certificate of a PKCS#12 file: give them a PKCS#12 of the user certificate instead)";

    private static boolean onlyProxies(X509Certificate[] chain) {
        for (X509Certificate c : chain) {
            if (!ProxyUtils.isProxy(c)) {
                return false;
            }
        }
        return true;
    }

    /** The first validation error as one line: what is wrong, never a stack trace. */
    private static String reason(ValidationResult result) {
        List<ValidationError> errors = result.getErrors();
        if (errors == null || errors.isEmpty()) {
            return "chain not valid";
        }
        ValidationError first = errors.get(0);
        String message = first.getMessage() == null ? first.getErrorCode().name() : first.getMessage();
        return message.lines().findFirst().orElse(message);
    }

    /** {@code /DC=org/DC=example/CN=Alice}: the form grid policy files and mod_gridsite use. */
    public static String slashDn(X500Principal principal) {
        return OpensslNameUtils.convertFromRfc2253(principal.getName(), false);
    }
}
