package org.gridcache.door.delegation;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import eu.emi.security.authn.x509.X509Credential;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Function;

/**
 * The proxies the door derived from delegations for pools, kept in memory per (delegation credential, pool DN) so that
 * a pool's next miss as the same user does not cost another RSA key generation (tens to a hundred milliseconds on the
 * path to the first byte, issue 14 P10). A kept proxy is handed out again only while at least {@link #REUSE_LEFT} of
 * it remains, so a pool always gets one that outlives its fetch. The key is the delegation's credential object: a
 * destroyed or replaced delegation is no longer found by the store, so the proxies derived from it are never handed
 * out again (and age out of here); each pool has its own, so the door's log still tells which pool acts for whom.
 */
final class DerivedProxies {
    /** A kept proxy is handed out while this much of its life remains: with one-hour proxies, the first half hour. */
    static final Duration REUSE_LEFT = CredentialService.PROXY_LIFETIME.dividedBy(2);
    private static final int MAX_KEPT = 10_000;

    /** The delegation's credential compared by identity (credentials do not define equality): a new delegation, a new key. */
    private record Key(X509Credential delegation, String poolDn) {
    }

    private final Cache<Key, X509Credential> kept = Caffeine.newBuilder().maximumSize(MAX_KEPT)
            .expireAfterWrite(CredentialService.PROXY_LIFETIME.minus(REUSE_LEFT)).build();

    /** The proxy of {@code delegation} kept for {@code poolDn}, or a new one from {@code derive}, kept for next time. */
    X509Credential forPool(X509Credential delegation, String poolDn, Instant now, Function<Instant, X509Credential> derive) {
        Key key = new Key(delegation, poolDn);
        X509Credential proxy = kept.getIfPresent(key);
        if (proxy != null && !notAfter(proxy).isBefore(now.plus(REUSE_LEFT))) {
            return proxy;
        }
        proxy = derive.apply(now);
        if (!notAfter(proxy).isBefore(now.plus(REUSE_LEFT))) {
            kept.put(key, proxy); // one that ends sooner (a delegation near its end) is not worth keeping
        }
        return proxy;
    }

    private static Instant notAfter(X509Credential proxy) {
        Instant end = Instant.MAX;
        for (X509Certificate c : proxy.getCertificateChain()) {
            Instant e = c.getNotAfter().toInstant();
            end = e.isBefore(end) ? e : end;
        }
        return end;
    }
}
