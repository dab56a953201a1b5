package org.gridcache.pool.access;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.gridcache.common.Ticket;
import org.gridcache.pool.fetch.FetchException;
import org.gridcache.pool.origin.GridFtpOriginFetcher;
import org.gridcache.pool.origin.HttpOriginFetcher;
import org.gridcache.pool.origin.OriginFetcher;
import org.gridcache.pool.origin.OriginResponseHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a ticket's subject may have a file that the origin reads as the user (ARCHITECTURE.md, "Trust model"): the permission
 * cache maps (subject, file) to "allowed" for {@code pool.permission-cache-ttl} (5 minutes by default, applied
 * live). Without a fresh entry the pool first obtains the subject's delegated credential from the door, then asks
 * the origin with a HEAD as that subject; only a 2xx lets cached (or coalesced) bytes go to that subject. The
 * origin's 401/403 becomes our 403; refusals are not cached.
 */
public final class OriginAccess {
    private static final Logger LOG = LoggerFactory.getLogger(OriginAccess.class);
    private final DelegatedCredentials credentials;
    private final HttpOriginFetcher fetcher;
    private final GridFtpOriginFetcher gridftp;
    private final Supplier<Duration> ttl;
    private final Cache<String, Long> allowed = Caffeine.newBuilder().maximumSize(100_000).build(); // value: when granted (ms)

    OriginAccess(DelegatedCredentials credentials, HttpOriginFetcher fetcher, Supplier<Duration> ttl) {
        this(credentials, fetcher, null, ttl);
    }

    /** {@code gridftp}: checks {@code gsiftp://} origins with an MLST as the subject (null: no GridFTP). */
    public OriginAccess(DelegatedCredentials credentials, HttpOriginFetcher fetcher, GridFtpOriginFetcher gridftp, Supplier<Duration> ttl) {
        this.credentials = credentials;
        this.fetcher = fetcher;
        this.gridftp = gridftp;
        this.ttl = ttl;
    }

    /**
     * Completes when the subject may be served; fails with a {@link DelegatedCredentials.CompletionFailure}. A file
     * this pool {@code holds} (stored or being fetched), whose permission for this subject is still fresh, needs
     * nothing more; anything else first obtains the user's credential from the door, for the permission check and
     * for the fetch that follows.
     */
    public CompletableFuture<Void> check(Ticket ticket, String token, boolean holds) {
        if (credentials == null) {
            return CompletableFuture.failedFuture(new DelegatedCredentials.CompletionFailure(
                    FetchException.badGateway("this pool has no TLS credentials: it cannot read origins as the user")));
        }
        String key = key(ticket);
        if (holds && fresh(key)) {
            return CompletableFuture.completedFuture(null);
        }
        return credentials.obtain(ticket, token).thenCompose(credential -> {
            if (fresh(key)) {
                return CompletableFuture.completedFuture(null);
            }
            URI origin = URI.create(ticket.originUrl());
            if (gridftp != null && gridftp.supports(origin)) {
                return gridftp.checkAccess(origin, ticket, credential.credential()).thenRun(() -> allowed.put(key, System.currentTimeMillis()));
            }
            return fetcher.head(URI.create(ticket.originUrl()), credential.tls()).handle((status, error) -> {
                if (error != null) {
                    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                    String alert = OriginResponseHandler.refusedCredential(cause);
                    if (alert != null) {
                        LOG.info("origin refused the credential of {} for HEAD {}: TLS alert {}", ticket.subject(), ticket.path(), alert);
                        throw new DelegatedCredentials.CompletionFailure(new FetchException(HttpResponseStatus.FORBIDDEN,
                                "the origin refuses the credential of " + ticket.subject() + " (TLS alert " + alert + ")"));
                    }
                    throw new DelegatedCredentials.CompletionFailure(FetchException.badGateway(
                            "cannot check permission at origin " + OriginFetcher.describe(URI.create(ticket.originUrl())) + ": "
                                    + OriginResponseHandler.reason(cause)));
                }
                if (status >= 200 && status < 300) {
                    allowed.put(key, System.currentTimeMillis());
                    return null;
                }
                LOG.info("origin answered {} to HEAD {} as {}", status, ticket.path(), ticket.subject());
                if (status == 401 || status == 403) {
                    throw new DelegatedCredentials.CompletionFailure(new FetchException(HttpResponseStatus.FORBIDDEN,
                            "the origin refuses " + ticket.subject() + " access to " + ticket.path()));
                }
                if (status == 404 || status == 410) {
                    throw new DelegatedCredentials.CompletionFailure(new FetchException(HttpResponseStatus.NOT_FOUND, "not found at origin"));
                }
                throw new DelegatedCredentials.CompletionFailure(FetchException.badGateway("origin answered HTTP " + status + " to a permission check"));
            });
        });
    }

    private boolean fresh(String key) {
        Long granted = allowed.getIfPresent(key);
        return granted != null && System.currentTimeMillis() - granted < ttl.get().toMillis();
    }

    /** The subject as the origin judges it: DN and FQANs. */
    private static String key(Ticket ticket) {
        return ticket.subject() + "\n" + String.join(",", ticket.fqans()) + "\n" + ticket.originUrl();
    }
}
