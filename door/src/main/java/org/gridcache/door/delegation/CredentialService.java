package org.gridcache.door.delegation;

import org.gridcache.door.exchange.DoorRequests;
import eu.emi.security.authn.x509.X509Credential;
import eu.emi.security.authn.x509.proxy.ProxyCertificate;
import eu.emi.security.authn.x509.proxy.ProxyCertificateOptions;
import eu.emi.security.authn.x509.proxy.ProxyChainInfo;
import eu.emi.security.authn.x509.proxy.ProxyGenerator;
import eu.emi.security.authn.x509.proxy.ProxyType;
import eu.emi.security.authn.x509.proxy.ProxyUtils;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.Map;
import org.gridcache.common.origin.CredentialMode;
import org.gridcache.common.Json;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.ticket.TicketCodec;
import org.gridcache.common.ticket.TicketException;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.auth.TokenVault;
import org.gridcache.door.exchange.DoorException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /.gridcache/credential?gridcache-ticket=…}: gives a pool that must fetch as a user a short-lived proxy of
 * that user's delegation. Two things are needed, so that neither a stolen ticket nor a pool's key alone is enough:
 * the caller authenticates in the TLS handshake with an end-entity host certificate (not a proxy of it: a proxy
 * could have been handed to anyone) whose DN is one of the configured pool identities and is the DN the ticket's
 * pool publishes in its record, and it presents a valid, unexpired ticket that this door signed and that names a
 * user credential: one pool cannot use another pool's tickets, and a pool cannot mint one.
 *
 * <p>The answer is not the user's delegated key but a fresh RFC 3820 proxy signed by it (SHA-256, its own RSA key,
 * {@link #PROXY_LIFETIME} at most and never beyond the delegation), so a pool that leaks it leaks an hour of the
 * user's identity, not the delegation. Only when the user's proxy forbids a further proxy (a path length constraint)
 * is the delegation itself handed out, with a warning: nothing else can act for that user. The answer (certificate, key,
 * chain as PEM) is never logged; the door keeps the proxy it derived per delegation and pool in memory for the next
 * miss ({@link DerivedProxies}), never beyond the delegation: each call still finds the delegation in the store first,
 * so a destroyed one is refused at once (ARCHITECTURE.md, "Trust model").
 *
 * <p>For a ticket of an origin mounted {@code --credential token}, the same checks hand out the user's bearer token
 * instead, which the door's {@link TokenVault} keeps under the hash the ticket names ({@code tokref}): as JSON
 * ({@code {"token_type": "Bearer", "access_token": …, "expires_at": <epoch s>}}) or, for {@code Accept: text/plain},
 * the token alone; 404 when the vault no longer has it.
 */
public final class CredentialService {
    public static final String PATH = DoorRequests.SERVICES + "/credential";
    /** The longest a proxy handed to a pool lives. */
    public static final Duration PROXY_LIFETIME = Duration.ofHours(1);
    private static final String CERTIFICATE_ATTRIBUTE = "jakarta.servlet.request.X509Certificate";
    /** Proxies start a little in the past, so that a pool whose clock lags can use them at once. */
    private static final Duration CLOCK_SKEW = Duration.ofMinutes(1);
    private static final Logger LOG = LoggerFactory.getLogger(CredentialService.class);
    private final DelegationStore store;
    private final TicketCodec tickets;
    private final String doorId;
    private final Set<String> poolIdentities;
    private final Supplier<List<PoolRecord>> pools;
    private final Clock clock;
    private final TokenVault tokens;
    private final DerivedProxies derived = new DerivedProxies();

    public CredentialService(DelegationStore store, TicketCodec tickets, String doorId, Set<String> poolIdentities,
                      Supplier<List<PoolRecord>> pools) {
        this(store, tickets, doorId, poolIdentities, pools, null);
    }

    /** {@code tokens}: the bearer tokens the door accepted (null: none, token tickets get 404). */
    public CredentialService(DelegationStore store, TicketCodec tickets, String doorId, Set<String> poolIdentities,
                      Supplier<List<PoolRecord>> pools, TokenVault tokens) {
        this.tokens = tokens;
        this.store = store;
        this.tickets = tickets;
        this.doorId = doorId;
        this.poolIdentities = poolIdentities;
        this.pools = pools;
        this.clock = Clock.systemUTC();
    }

    public void handle(HttpServletRequest request, HttpServletResponse response, GridSubject caller) throws IOException {
        if (!request.getMethod().equals("GET")) {
            throw new DoorException(405, "the credential service only answers GET");
        }
        if (!caller.presentedCertificate()) { // anonymous, or a bearer token (a macaroon's may name a DN): no host certificate
            throw new DoorException(401, "the credential service needs a pool's host certificate");
        }
        if (!poolIdentities.contains(caller.dn())) {
            LOG.warn("credential request from {}, which is not a configured pool identity", caller.dn());
            throw new DoorException(403, "not a pool of this door");
        }
        if (presentsProxy(request)) {
            LOG.warn("credential request from {} with a proxy certificate: only a pool's host certificate is accepted", caller.dn());
            throw new DoorException(403, "a proxy certificate cannot obtain credentials: present the pool's host certificate");
        }
        Ticket ticket;
        try {
            ticket = tickets.verify(request.getParameter(Ticket.QUERY_PARAMETER));
        } catch (TicketException e) {
            throw new DoorException(403, e.getMessage());
        }
        // the codec verifies with this door's keys only, so another issuer fails above; kept so that a change of
        // codec cannot widen who is served, together with the operations tickets grant: a read, and an upload the
        // door redirected to the pool (which writes the origin as the user, as it reads), and a third-party copy
        if (!doorId.equals(ticket.door()) || !(Ticket.READ.equals(ticket.operation()) || Ticket.WRITE.equals(ticket.operation())
                || ticket.thirdPartyCopy())) {
            throw new DoorException(403, "ticket was issued by another door, or for another operation");
        }
        String issuedTo = pools.get().stream().filter(p -> p.id().equals(ticket.pool())).map(PoolRecord::hostDn)
                .filter(Objects::nonNull).findFirst().orElse(null);
        if (!caller.dn().equals(issuedTo)) {
            LOG.warn("pool {} asked for a credential with a ticket issued to pool {} ({})", caller.dn(), ticket.pool(),
                    issuedTo == null ? "not registered with a host DN" : issuedTo);
            throw new DoorException(403, "ticket was issued to another pool");
        }
        // a third-party copy may present the user's proxy to the remote side only (Credential: gridsite)
        if (!(ticket.needsUserCredential() || ticket.presentsUserProxyToRemote()) || ticket.subject() == null) {
            throw new DoorException(400, "ticket names no user credential");
        }
        if (ticket.credential() == CredentialMode.TOKEN) {
            handOutToken(request, response, caller, ticket);
            return;
        }
        Delegation d = store.forSession(ticket.subject(), ticket.fqans())
                .orElseThrow(() -> new DoorException(404, "the delegated credential has expired or was destroyed"));
        byte[] pem = GridCredentials.toPem(forPool(d, caller.dn(), clock.instant())).getBytes(StandardCharsets.US_ASCII);
        response.setStatus(200);
        response.setHeader("Cache-Control", "no-store");
        response.setContentType("application/x-pem-file");
        response.setContentLength(pem.length);
        response.getOutputStream().write(pem);
        LOG.info("pool {} obtained a proxy of delegation {} of {} for {}", caller.dn(), d.id(), d.dn(), ticket.path());
    }

    private void handOutToken(HttpServletRequest request, HttpServletResponse response, GridSubject caller, Ticket ticket)
            throws IOException {
        String ref = ticket.token().tokenRef();
        if (ref == null) {
            throw new DoorException(400, "ticket names no bearer token");
        }
        TokenVault.KeptToken kept = (tokens == null ? Optional.<TokenVault.KeptToken>empty() : tokens.get(ref))
                .orElseThrow(() -> new DoorException(404, "the bearer token has expired or is no longer held by this door"));
        String accept = request.getHeader("Accept");
        boolean text = accept != null && accept.contains("text/plain") && !accept.contains("application/json");
        byte[] body = (text ? kept.token() + "\n"
                : Json.string(Map.of("token_type", "Bearer", "access_token", kept.token(),
                        "expires_at", kept.expiry().getEpochSecond()))).getBytes(StandardCharsets.UTF_8);
        response.setStatus(200);
        response.setHeader("Cache-Control", "no-store");
        response.setContentType(text ? "text/plain;charset=utf-8" : "application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
        LOG.info("pool {} obtained the bearer token of {} for {}", caller.dn(), ticket.subject(), ticket.path());
    }

    /** True when the TLS client certificate is a proxy (RFC 3820 or an older form), not an end entity. */
    private static boolean presentsProxy(HttpServletRequest request) {
        Object attribute = request.getAttribute(CERTIFICATE_ATTRIBUTE);
        return attribute instanceof X509Certificate[] chain && chain.length > 0 && ProxyUtils.isProxy(chain[0]);
    }

    /**
     * What a pool gets for {@code d}: a proxy derived from it, unless the user's own proxy forbids a further one (a
     * path length constraint, as {@code voms-proxy-fake} and some VOMS clients set): then the delegation itself, as
     * the only credential that can act for the user, with a warning (ARCHITECTURE.md, "Trust model").
     */
    private X509Credential forPool(Delegation d, String poolDn, Instant now) {
        int remaining;
        try {
            remaining = new ProxyChainInfo(d.credential().getCertificateChain()).getRemainingPathLimit();
        } catch (CertificateException | IOException e) {
            throw new DoorException(500, "cannot read the delegation's proxy chain");
        }
        if (remaining < 1) {
            LOG.warn("delegation {} of {} allows no further proxy (the user's proxy limits the path length): the pool gets "
                    + "the delegation itself", d.id(), d.dn());
            return d.credential();
        }
        return derived.forPool(d.credential(), poolDn, now, at -> proxyOf(d.credential(), at));
    }

    /**
     * A new RFC 3820 proxy signed by {@code delegation} (SHA-256 with RSA, a fresh 2048-bit key), valid from a minute
     * ago for {@link #PROXY_LIFETIME} and never after any certificate of the delegation's chain.
     */
    static X509Credential proxyOf(X509Credential delegation, Instant now) {
        X509Certificate[] parent = delegation.getCertificateChain();
        Instant notBefore = now.minus(CLOCK_SKEW);
        for (X509Certificate c : parent) {
            Instant start = c.getNotBefore().toInstant();
            notBefore = start.isAfter(notBefore) ? start : notBefore;
        }
        Instant notAfter = notBefore.plus(PROXY_LIFETIME);
        for (X509Certificate c : parent) {
            Instant end = c.getNotAfter().toInstant();
            notAfter = end.isBefore(notAfter) ? end : notAfter;
        }
        if (!notAfter.isAfter(now)) {
            throw new DoorException(404, "the delegated credential has expired");
        }
        ProxyCertificateOptions options = new ProxyCertificateOptions(parent);
        options.setType(ProxyType.RFC3820);
        try {
            // a limited delegation stays limited
            options.setLimited(ProxyUtils.isProxy(parent[0]) && new ProxyChainInfo(parent).isLimited());
        } catch (CertificateException | IOException e) {
            throw new DoorException(500, "cannot read the delegation's proxy chain");
        }
        options.setValidityBounds(Date.from(notBefore), Date.from(notAfter));
        try {
            ProxyCertificate proxy = ProxyGenerator.generate(options, delegation.getKey());
            return proxy.getCredential();
        } catch (GeneralSecurityException | IOException e) {
            LOG.error("cannot derive a proxy from a delegation: {}", e.toString());
            throw new DoorException(500, "cannot derive a proxy from the delegation");
        }
    }
}
