package org.gridcache.pool.origin;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.Optional;
import java.util.function.Supplier;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.access.DelegatedCredentials;
import org.gridcache.pool.http.FetchException;

/**
 * Whether a ticket's subject may have a file that the origin reads as the user (ARCHITECTURE.md, "Trust model"): the
 * permission cache maps (subject, file) to "allowed" for {@code pool.permission-cache-ttl} (5 minutes by default, applied
 * live). Without a fresh entry the pool first obtains the subject's delegated credential from the door, then asks
 * the origin as that subject; only a 2xx lets cached (or coalesced) bytes go to that subject. The
 * origin's 401/403 becomes our 403; refusals are not cached.
 */
public final class OriginAccess {
    private final DelegatedCredentials credentials;
    private final Origins origins;
    private final Supplier<Duration> ttl;
    // value: when granted (ms); the upkeep on the writer's thread, as in StoreKey
    private final Cache<String, Long> allowed = Caffeine.newBuilder().maximumSize(100_000).executor(Runnable::run).build();

    /** Asks the origin by its protocol's {@link PermissionCheck} (an HTTP HEAD, a GridFTP MLST) as the subject. */
    public OriginAccess(DelegatedCredentials credentials, Origins origins, Supplier<Duration> ttl) {
        this.credentials = credentials;
        this.origins = origins;
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
            Optional<PermissionCheck> check = origins.permissionCheck(ticket.originUrl());
            if (check.isEmpty()) {
                return CompletableFuture.failedFuture(new DelegatedCredentials.CompletionFailure(FetchException.badGateway(
                        "this origin's protocol has no permission check as the user")));
            }
            return check.get().check(URI.create(ticket.originUrl()), ticket, credential)
                    .thenRun(() -> allowed.put(key, System.currentTimeMillis()));
        });
    }

    private boolean fresh(String key) {
        Long granted = allowed.getIfPresent(key);
        return granted != null && System.currentTimeMillis() - granted < ttl.get().toMillis();
    }

    /** The subject as the origin judges it: DN and FQANs, and for a token origin the token. */
    private static String key(Ticket ticket) {
        String key = ticket.subject() + "\n" + String.join(",", ticket.fqans()) + "\n" + ticket.originUrl();
        return ticket.token().tokenRef() == null ? key : key + "\n" + ticket.token().tokenRef();
    }

    /**
     * The user's delegated credential for an upload as the user (no permission check: the origin itself refuses a
     * write the user may not make, and the pool passes its refusal on).
     */
    public CompletableFuture<DelegatedCredentials.OriginCredential> credential(Ticket ticket, String token) {
        if (credentials == null) {
            return CompletableFuture.failedFuture(new DelegatedCredentials.CompletionFailure(
                    FetchException.badGateway("this pool has no TLS credentials: it cannot write origins as the user")));
        }
        return credentials.obtain(ticket, token);
    }
}
