package org.gridcache.door.delegation;

import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.security.auth.x500.X500Principal;

/**
 * The certificates above the leaf of every chain in the {@link DelegationStore} (the user's end-entity certificate and
 * the proxies between it and the delegated proxy), by subject DN, each with its own issuers from that chain: what
 * completes the chain of a client that presents a proxy without the certificate that signed it (neon: cadaver,
 * davfs2). The store adds and removes a delegation's certificates with the delegation itself, so this holds no more
 * than the store does. The leaf is left out: its key is the door's. These certificates are public; whatever they
 * complete is trusted only if canl validates it.
 */
final class DelegatedCertificates {
    /**
     * Subject → (delegation key → the stored chain from that certificate up). The inner maps are immutable and replaced
     * whole, so a reader never sees half a change; several delegations of one user hold the same certificates.
     */
    private final Map<X500Principal, Map<String, List<X509Certificate>>> bySubject = new ConcurrentHashMap<>();

    void add(Delegation d) {
        String key = Delegation.key(d.dn(), d.id());
        X509Certificate[] chain = d.credential().getCertificateChain();
        for (int i = 1; i < chain.length; i++) {
            List<X509Certificate> upward = List.of(Arrays.copyOfRange(chain, i, chain.length));
            bySubject.merge(chain[i].getSubjectX500Principal(), Map.of(key, upward), (old, one) -> {
                Map<String, List<X509Certificate>> m = new HashMap<>(old);
                m.put(key, upward);
                return Map.copyOf(m);
            });
        }
    }

    void remove(Delegation d) {
        String key = Delegation.key(d.dn(), d.id());
        X509Certificate[] chain = d.credential().getCertificateChain();
        for (int i = 1; i < chain.length; i++) {
            bySubject.computeIfPresent(chain[i].getSubjectX500Principal(), (subject, old) -> {
                if (!old.containsKey(key)) {
                    return old;
                }
                Map<String, List<X509Certificate>> m = new HashMap<>(old);
                m.remove(key);
                return m.isEmpty() ? null : Map.copyOf(m);
            });
        }
    }

    /** The stored chains, each starting with a certificate whose subject is {@code subject}; duplicates possible. */
    List<List<X509Certificate>> withSubject(X500Principal subject) {
        return List.copyOf(bySubject.getOrDefault(subject, Map.of()).values());
    }

    /** How many subjects are indexed: for tests of the bound. */
    int subjects() {
        return bySubject.size();
    }

    void clear() {
        bySubject.clear();
    }
}
