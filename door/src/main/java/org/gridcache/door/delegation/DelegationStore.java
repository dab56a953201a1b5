package org.gridcache.door.delegation;

import java.io.IOException;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.security.auth.x500.X500Principal;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridTrust;
import org.gridcache.common.security.X509Authenticator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The door's delegated credentials, kept per (DN, delegation id), and the GridSite flow that fills them (see
 * ARCHITECTURE.md, "Flows" and "Trust model"): the door makes a key pair and hands out a certificate request
 * ({@link ProxyRequests}); the client signs it with its proxy and puts the resulting chain; the door checks it
 * ({@link DelegatedChainCheck}) and keeps key and chain until the chain expires (at most the configured lifetime) or
 * the client destroys it. A delegation carries the VOMS attributes of its chain, and a request uses only a delegation
 * whose attributes are the ones its session presented ({@link #forSession}). The certificates above the delegated
 * proxies are also indexed by subject ({@link #certificatesWithSubject}), to complete the chain of a client that sends
 * a proxy without its user certificate. Nothing of it goes to ZooKeeper; when a
 * directory is configured the credentials are also written there ({@link DelegationFiles}), so they survive a restart.
 */
public final class DelegationStore implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DelegationStore.class);
    /**
     * The valid delegations one DN keeps: a user needs one per set of VOMS attributes and a few ids; more is a client
     * that never destroys (or someone filling the door's memory and disk), refused with 507 until one is destroyed.
     */
    static final int MAX_PER_DN = 16;
    /**
     * DN → (id → delegation), each inner map immutable and replaced whole under the DN's entry ({@code compute}): a
     * lookup costs the DN's delegations, not everyone's, and never sees half a change.
     */
    private final Map<String, Map<String, Delegation>> credentials = new ConcurrentHashMap<>();
    /** The certificates of those delegations' chains, by subject; changed with them, under the DN's entry. */
    private final DelegatedCertificates certificates = new DelegatedCertificates();
    private final ProxyRequests requests;
    private final DelegatedChainCheck check;
    private final X509Authenticator voms;
    private final DelegationFiles files;
    private final Duration maxLifetime;
    private final Clock clock;

    /** {@code dir}: where credentials are kept across restarts (null: in memory only). */
    public DelegationStore(GridTrust trust, Path dir, Duration maxLifetime, Clock clock) throws IOException {
        this.requests = new ProxyRequests(clock);
        this.check = new DelegatedChainCheck(trust);
        this.voms = new X509Authenticator(trust);
        this.files = dir == null ? null : new DelegationFiles(dir);
        this.maxLifetime = maxLifetime;
        this.clock = clock;
        if (files != null) {
            files.load(clock.instant(), this::fqansOf).forEach(this::keep);
        }
    }

    /** getNewProxyReq: a new delegation id (the client's when it names one) and its certificate request. */
    String[] newRequest(String dn, String wantedId) throws DelegationException {
        String id = wantedId == null || wantedId.isEmpty() ? requests.newId() : ProxyRequests.checkId(wantedId);
        return new String[] {id, requests.create(dn, id)};
    }

    /** getProxyReq: the pending request of this id, or a new one. */
    String request(String dn, String id) throws DelegationException {
        return requests.current(dn, ProxyRequests.checkId(id));
    }

    /** renewProxyReq: a new request for an existing delegation (which stays usable until the new chain is put). */
    String renewRequest(String dn, String id) throws DelegationException {
        ProxyRequests.checkId(id);
        if (get(dn, id).isEmpty()) {
            throw new DelegationException(404, "no delegation " + id + " to renew");
        }
        return requests.create(dn, id);
    }

    /** putProxy: the chain signed by the client's proxy, for a request this door made for the same DN. */
    Delegation put(String dn, String id, String chainPem) throws DelegationException {
        ProxyRequests.checkId(id);
        KeyPair keys = requests.keysOf(dn, id).orElseThrow(() ->
                new DelegationException(400, "no certificate request for delegation " + id + ": ask for one first"));
        long held = ofDn(dn).values().stream().filter(d -> d.validAt(clock.instant()) && !d.id().equals(id)).count();
        if (held >= MAX_PER_DN) {
            throw new DelegationException(507, "this DN holds " + held + " delegations, the most one DN may: destroy one first");
        }
        X509Certificate[] chain = check.check(dn, keys.getPublic(), chainPem);
        Instant notAfter = DelegatedChainCheck.notAfter(chain);
        if (Duration.between(clock.instant(), notAfter).compareTo(maxLifetime) > 0) {
            notAfter = clock.instant().plus(maxLifetime); // we forget it earlier than the chain would expire
        }
        Delegation d = new Delegation(dn, id, fqansOf(chain), GridCredentials.of(keys.getPrivate(), chain), notAfter);
        requests.remove(dn, id);
        keep(d);
        if (files != null) {
            files.write(d);
        }
        LOG.info("{} delegated credential {} with fqans [{}] until {}", dn, id, String.join(",", d.fqans()), notAfter);
        String weakness = DelegatedChainCheck.weakness(chain[0]);
        if (weakness != null) {
            LOG.warn("delegation {} of {} {}: origins on OpenSSL 3 (Apache mod_gridsite, Globus GridFTP) will refuse it,"
                    + " Java origins (canl) accept it; gridcache delegate signs RFC 3820 proxies with SHA-256",
                    id, dn, weakness);
        }
        return d;
    }

    /**
     * The VOMS attributes of a delegated chain: those voms-api-java finds valid in it, or, when it finds none, those of
     * the chain below the top certificate. GridSite's htproxyput signs a top certificate that is no proxy to canl and
     * voms-api-java (see {@link DelegatedChainCheck}), so the attribute certificate's holder check fails on the whole
     * chain; the attributes are then those of the client's proxy that signed it, which origins read (mod_gridsite
     * takes attribute certificates from any certificate of the chain).
     */
    private List<String> fqansOf(X509Certificate[] chain) {
        List<String> fqans = voms.fqans(chain);
        return fqans.isEmpty() && chain.length > 1 ? voms.fqans(java.util.Arrays.copyOfRange(chain, 1, chain.length)) : fqans;
    }

    Optional<Delegation> get(String dn, String id) {
        Delegation d = ofDn(dn).get(id);
        return d != null && d.validAt(clock.instant()) ? Optional.of(d) : Optional.empty();
    }

    /**
     * The delegation a request of {@code dn} may act with, when its session presented {@code fqans} (primary first;
     * empty without VOMS attributes): among the DN's valid delegations whose chain carries exactly these attributes
     * ({@link Delegation#servesSession}), the one that lasts longest. Empty when there is none: the user must delegate
     * from a session with these attributes.
     */
    public Optional<Delegation> forSession(String dn, List<String> fqans) {
        Instant now = clock.instant();
        return ofDn(dn).values().stream().filter(d -> d.validAt(now) && d.servesSession(fqans))
                .max(Comparator.comparing(Delegation::notAfter).thenComparing(Delegation::id));
    }

    /**
     * The certificates of the delegations held now (valid, or expired and not yet purged) whose subject is {@code
     * subject}, each followed by its issuers from its stored chain: candidates to complete the chain of a client that
     * presented a proxy without the certificate that signed it. Never the delegated proxies themselves. Holding them
     * proves nothing: a chain they complete must still validate.
     */
    public List<List<X509Certificate>> certificatesWithSubject(X500Principal subject) {
        return certificates.withSubject(subject);
    }

    List<Delegation> of(String dn) {
        Instant now = clock.instant();
        return ofDn(dn).values().stream().filter(d -> d.validAt(now))
                .sorted(Comparator.comparing(Delegation::id)).toList();
    }

    Instant terminationTime(String dn, String id) throws DelegationException {
        return get(dn, id).orElseThrow(() -> new DelegationException(404, "no delegation " + id)).notAfter();
    }

    /** destroy: forgets the credential (and its file) and any pending request of this id. */
    boolean destroy(String dn, String id) {
        requests.remove(dn, id);
        Delegation d = forget(dn, id, null);
        if (files != null) {
            files.delete(dn, id);
        }
        if (d != null) {
            LOG.info("{} destroyed delegation {}", dn, id);
        }
        return d != null;
    }

    /** Forgets expired credentials and stale requests; run periodically. */
    public void purge() {
        Instant now = clock.instant();
        List<Delegation> all = credentials.values().stream().flatMap(m -> m.values().stream()).toList();
        for (Delegation d : all) {
            if (!d.validAt(now) && forget(d.dn(), d.id(), d) != null) {
                if (files != null) {
                    files.delete(d.dn(), d.id());
                }
                LOG.info("delegation {} of {} expired and was purged", d.id(), d.dn());
            }
        }
        requests.purge();
    }

    private Map<String, Delegation> ofDn(String dn) {
        return dn == null ? Map.of() : credentials.getOrDefault(dn, Map.of());
    }

    /** Adds or replaces {@code d} under its (DN, id). */
    private void keep(Delegation d) {
        credentials.compute(d.dn(), (dn, old) -> {
            Map<String, Delegation> m = old == null ? new HashMap<>() : new HashMap<>(old);
            Delegation replaced = m.put(d.id(), d);
            if (replaced != null) {
                certificates.remove(replaced);
            }
            certificates.add(d);
            return Map.copyOf(m);
        });
    }

    /** Removes (DN, id) — only if it is still {@code expected}, when that is given; the removed delegation or null. */
    private Delegation forget(String dn, String id, Delegation expected) {
        Delegation[] removed = new Delegation[1];
        credentials.computeIfPresent(dn, (k, old) -> {
            Delegation d = old.get(id);
            if (d == null || expected != null && d != expected) {
                return old;
            }
            removed[0] = d;
            certificates.remove(d);
            Map<String, Delegation> m = new HashMap<>(old);
            m.remove(id);
            return m.isEmpty() ? null : Map.copyOf(m);
        });
        return removed[0];
    }

    int indexedSubjects() {
        return certificates.subjects();
    }

    int size() {
        return credentials.values().stream().mapToInt(Map::size).sum();
    }

    @Override
    public void close() {
        requests.clear();
        credentials.clear();
        certificates.clear();
    }
}
