package org.gridcache.door.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import jakarta.servlet.http.HttpServletRequest;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import org.italiangrid.voms.VOMSAttribute;
import org.italiangrid.voms.ac.impl.DefaultVOMSACParser;
import org.gridcache.common.security.Authentication;
import org.gridcache.common.security.AuthenticationException;
import org.gridcache.common.security.GridSubject;
import org.gridcache.common.security.X509Authenticator;
import org.gridcache.door.exchange.DoorException;

/**
 * The subject of an HTTPS request: the client's certificate chain (from the TLS handshake) validated by canl and
 * voms-api-java. No certificate is {@link GridSubject#ANONYMOUS}; a certificate that does not validate is a 401 with
 * the reason. A proxy presented without the certificate that signed it (neon clients) is first completed from the
 * certificates of the door's delegations and of the chains it validated ({@link ProxyChainCompletion}), and refused
 * with advice when none does.
 * Results are cached briefly per presented chain (a client sends many requests on one chain), never past the expiry
 * of the chain validated; a chain nothing completed is not cached, so it logs in as soon as its user has delegated or presented her whole
 * proxy.
 */
public final class X509SubjectResolver implements SubjectResolver {
    static final String CERTIFICATE_ATTRIBUTE = "jakarta.servlet.request.X509Certificate";
    private static final Duration CACHE = Duration.ofSeconds(60);
    private final X509Authenticator authenticator;
    private final ProxyChainCompletion completion;
    private final Cache<String, Outcome> cache = Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(CACHE).build();

    private record Outcome(GridSubject subject, String refusal, long notAfterMillis, String vomsRefusal) {
    }

    public X509SubjectResolver(X509Authenticator authenticator, ProxyChainCompletion completion) {
        this.authenticator = authenticator;
        this.completion = completion;
    }

    @Override
    public GridSubject resolve(HttpServletRequest request) {
        X509Certificate[] presented = chain(request);
        if (presented == null || presented.length == 0) {
            return GridSubject.ANONYMOUS;
        }
        Outcome outcome = outcome(presented);
        if (outcome.vomsRefusal() != null) {
            request.setAttribute(VOMS_REFUSAL_ATTRIBUTE, outcome.vomsRefusal());
        }
        return subject(outcome);
    }

    /** The subject of the chain a client presented (null or empty: anonymous), or a 401. */
    GridSubject resolve(X509Certificate[] presented) {
        if (presented == null || presented.length == 0) {
            return GridSubject.ANONYMOUS;
        }
        return subject(outcome(presented));
    }

    private Outcome outcome(X509Certificate[] presented) {
        String key = fingerprint(presented);
        Outcome outcome = cache.getIfPresent(key);
        if (outcome == null || System.currentTimeMillis() >= outcome.notAfterMillis()) {
            // a chain nothing completes is not remembered: its user may delegate any moment
            X509Certificate[] chain = completion.complete(presented)
                    .orElseThrow(() -> new DoorException(401, "certificate refused: " + ProxyChainCompletion.NO_USER_CERTIFICATE));
            outcome = authenticate(chain);
            cache.put(key, outcome);
        }
        return outcome;
    }

    private static GridSubject subject(Outcome outcome) {
        if (outcome.refusal() != null) {
            throw new DoorException(401, outcome.refusal());
        }
        return outcome.subject();
    }

    static X509Certificate[] chain(HttpServletRequest request) {
        Object attribute = request.getAttribute(CERTIFICATE_ATTRIBUTE);
        return attribute instanceof X509Certificate[] certs ? certs : null;
    }

    private Outcome authenticate(X509Certificate[] chain) {
        long notAfter = Long.MAX_VALUE;
        for (X509Certificate c : chain) {
            notAfter = Math.min(notAfter, c.getNotAfter().getTime());
        }
        try {
            GridSubject subject = authenticator.authenticate(chain);
            if (!subject.anonymous()) {
                completion.validated(chain);
            }
            // the chain's expiry bounds what it mints (a macaroon's before:)
            return new Outcome(subject.anonymous() ? subject : subject.authenticatedBy(Authentication.x509(Instant.ofEpochMilli(notAfter))),
                    null, notAfter, subject.vo() == null ? vomsRefusal(chain) : null);
        } catch (AuthenticationException e) {
            return new Outcome(null, e.getMessage(), notAfter, null);
        }
    }

    /**
     * Why the chain's VOMS attributes were not taken, when it carries some (read, not validated: the authenticator
     * validated and refused them): an attribute certificate out of its validity says when; null without any.
     */
    static String vomsRefusal(X509Certificate[] chain) {
        List<VOMSAttribute> attributes;
        try {
            attributes = new DefaultVOMSACParser().parse(chain);
        } catch (RuntimeException e) {
            return null;
        }
        if (attributes.isEmpty()) {
            return null;
        }
        VOMSAttribute a = attributes.get(0);
        Date now = new Date();
        if (a.getNotAfter() != null && now.after(a.getNotAfter())) {
            return "the VOMS attribute certificate of VO " + a.getVO() + " in your proxy expired at "
                    + a.getNotAfter().toInstant() + ": make a new proxy (voms-proxy-init)";
        }
        if (a.getNotBefore() != null && now.before(a.getNotBefore())) {
            return "the VOMS attribute certificate of VO " + a.getVO() + " in your proxy is not valid before "
                    + a.getNotBefore().toInstant();
        }
        return "the VOMS attributes of VO " + a.getVO() + " in your proxy were not accepted (the door's log says why)";
    }

    private static String fingerprint(X509Certificate[] chain) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (X509Certificate c : chain) {
                md.update(c.getEncoded());
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
    }
}
