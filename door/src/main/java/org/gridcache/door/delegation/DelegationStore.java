package org.gridcache.door.delegation;

import java.io.IOException;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridTrust;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The door's delegated credentials, kept per (DN, delegation id), and the GridSite flow that fills them (see
 * ARCHITECTURE.md, "Flows" and "Trust model"): the door makes a key pair and hands out a certificate request
 * ({@link ProxyRequests}); the client signs it with its proxy and puts the resulting chain; the door checks it
 * ({@link DelegatedChainCheck}) and keeps key and chain until the chain expires (at most the configured lifetime) or
 * the client destroys it. Nothing of it goes to ZooKeeper; when a directory is configured the credentials are also
 * written there ({@link DelegationFiles}), so they survive a restart.
 */
public final class DelegationStore implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DelegationStore.class);
    private final Map<String, Delegation> credentials = new ConcurrentHashMap<>();
    private final ProxyRequests requests;
    private final DelegatedChainCheck check;
    private final DelegationFiles files;
    private final Duration maxLifetime;
    private final Clock clock;

    /** {@code dir}: where credentials are kept across restarts (null: in memory only). */
    public DelegationStore(GridTrust trust, Path dir, Duration maxLifetime, Clock clock) throws IOException {
        this.requests = new ProxyRequests(clock);
        this.check = new DelegatedChainCheck(trust);
        this.files = dir == null ? null : new DelegationFiles(dir);
        this.maxLifetime = maxLifetime;
        this.clock = clock;
        if (files != null) {
            files.load(clock.instant()).forEach(d -> credentials.put(Delegation.key(d.dn(), d.id()), d));
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
        X509Certificate[] chain = check.check(dn, keys.getPublic(), chainPem);
        Instant notAfter = DelegatedChainCheck.notAfter(chain);
        if (Duration.between(clock.instant(), notAfter).compareTo(maxLifetime) > 0) {
            notAfter = clock.instant().plus(maxLifetime); // we forget it earlier than the chain would expire
        }
        Delegation d = new Delegation(dn, id, GridCredentials.of(keys.getPrivate(), chain), notAfter);
        requests.remove(dn, id);
        credentials.put(Delegation.key(dn, id), d);
        if (files != null) {
            files.write(d);
        }
        LOG.info("{} delegated credential {} until {}", dn, id, notAfter);
        String weakness = DelegatedChainCheck.weakness(chain[0]);
        if (weakness != null) {
            LOG.warn("delegation {} of {} {}: origins on OpenSSL 3 (Apache mod_gridsite, Globus GridFTP) will refuse it,"
                    + " Java origins (canl) accept it; gridcache delegate signs RFC 3820 proxies with SHA-256",
                    id, dn, weakness);
        }
        return d;
    }

    Optional<Delegation> get(String dn, String id) {
        Delegation d = credentials.get(Delegation.key(dn, id));
        return d != null && d.validAt(clock.instant()) ? Optional.of(d) : Optional.empty();
    }

    /** The delegation of this DN that lasts longest, if any is still valid. */
    public Optional<Delegation> freshest(String dn) {
        Instant now = clock.instant();
        return credentials.values().stream().filter(d -> d.dn().equals(dn) && d.validAt(now))
                .max(Comparator.comparing(Delegation::notAfter));
    }

    List<Delegation> of(String dn) {
        Instant now = clock.instant();
        return credentials.values().stream().filter(d -> d.dn().equals(dn) && d.validAt(now))
                .sorted(Comparator.comparing(Delegation::id)).toList();
    }

    Instant terminationTime(String dn, String id) throws DelegationException {
        return get(dn, id).orElseThrow(() -> new DelegationException(404, "no delegation " + id)).notAfter();
    }

    /** destroy: forgets the credential (and its file) and any pending request of this id. */
    boolean destroy(String dn, String id) {
        requests.remove(dn, id);
        Delegation d = credentials.remove(Delegation.key(dn, id));
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
        for (Delegation d : new ArrayList<>(credentials.values())) {
            if (!d.validAt(now) && credentials.remove(Delegation.key(d.dn(), d.id()), d)) {
                if (files != null) {
                    files.delete(d.dn(), d.id());
                }
                LOG.info("delegation {} of {} expired and was purged", d.id(), d.dn());
            }
        }
        requests.purge();
    }

    int size() {
        return credentials.size();
    }

    @Override
    public void close() {
        requests.clear();
        credentials.clear();
    }
}
