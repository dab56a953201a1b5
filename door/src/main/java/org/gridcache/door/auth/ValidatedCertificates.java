package org.gridcache.door.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import eu.emi.security.authn.x509.proxy.ProxyUtils;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.security.auth.x500.X500Principal;

/**
 * The end-entity certificates of the client chains this door validated (a user's own certificate, below her
 * proxies), by subject DN, each with the issuers the client sent above it: the second place {@link
 * ProxyChainCompletion} looks for the issuer of a proxy sent alone. A user who has once presented her whole proxy
 * (curl, wget, davix, gfal2, rclone, {@code gridcache delegate}) can then use a PKCS#12 of it with neon (cadaver,
 * davfs2), which sends only the proxy, without delegating. These certificates are public and were part of a chain
 * canl accepted; whatever they complete is validated again, in full. Proxies are not kept: each has a subject of its
 * own, so they would crowd users out of the bound, and a PKCS#12 of a proxy signed by another proxy is rare.
 *
 * <p>Memory only, bounded: {@link #SUBJECTS} subjects, {@link #CHAINS_PER_SUBJECT} chains each (the newest), kept
 * {@link #KEPT} after they were last validated.
 */
final class ValidatedCertificates {
    static final int SUBJECTS = 10_000;
    static final int CHAINS_PER_SUBJECT = 4;
    static final Duration KEPT = Duration.ofDays(1);

    /** The inner lists are immutable and replaced whole, newest first. */
    private final Cache<X500Principal, List<List<X509Certificate>>> bySubject =
            Caffeine.newBuilder().maximumSize(SUBJECTS).expireAfterWrite(KEPT).build();

    /** {@code chain}: a client chain, leaf first, that canl validated. */
    void remember(X509Certificate[] chain) {
        int i = 0;
        while (i < chain.length && ProxyUtils.isProxy(chain[i])) {
            i++;
        }
        if (i == chain.length || chain[i].getBasicConstraints() >= 0) {
            return; // no end-entity certificate sent: a CA comes from the CA directory, never from a client
        }
        List<X509Certificate> upward = List.of(Arrays.copyOfRange(chain, i, chain.length));
        bySubject.asMap().merge(chain[i].getSubjectX500Principal(), List.of(upward), (old, one) -> {
            List<List<X509Certificate>> newest = new ArrayList<>(CHAINS_PER_SUBJECT);
            newest.add(upward);
            for (List<X509Certificate> o : old) {
                if (newest.size() < CHAINS_PER_SUBJECT && !o.equals(upward)) {
                    newest.add(o);
                }
            }
            return List.copyOf(newest);
        });
    }

    /** The remembered chains, each starting with a certificate whose subject is {@code subject}, newest first. */
    List<List<X509Certificate>> withSubject(X500Principal subject) {
        List<List<X509Certificate>> chains = bySubject.getIfPresent(subject);
        return chains == null ? List.of() : chains;
    }
}
