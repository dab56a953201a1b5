package org.gridcache.pool.origin;

import java.net.URI;
import java.util.List;
import java.util.Optional;

/** The pool's origin fetchers, one per protocol, found by an origin URL's scheme; callers ask for capabilities. */
public final class Origins implements AutoCloseable {
    private final List<OriginFetcher> fetchers;

    public Origins(List<OriginFetcher> fetchers) {
        this.fetchers = List.copyOf(fetchers);
    }

    public List<OriginFetcher> all() {
        return fetchers;
    }

    /** The fetcher for {@code origin}; empty for an unknown scheme or an unparsable URL. */
    public Optional<OriginFetcher> of(String origin) {
        URI uri;
        try {
            uri = URI.create(origin);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        return fetchers.stream().filter(f -> f.supports(uri)).findFirst();
    }

    public Optional<RangedReads> blockReads(String origin) {
        return of(origin).flatMap(OriginFetcher::blockReads);
    }

    public Optional<PermissionCheck> permissionCheck(String origin) {
        return of(origin).flatMap(OriginFetcher::permissionCheck);
    }

    @Override
    public void close() {
        fetchers.forEach(OriginFetcher::close);
    }
}
