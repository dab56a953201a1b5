package org.gridcache.pool.origin;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.access.DelegatedCredentials;
import org.gridcache.pool.http.FetchException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** An HTTP(S) origin's permission check: a HEAD as the subject; 2xx allows, 401/403 refuse, 404/410 are not found. */
final class HttpPermissionCheck implements PermissionCheck {
    private static final Logger LOG = LoggerFactory.getLogger(HttpPermissionCheck.class);
    private final HttpOriginFetcher fetcher;

    HttpPermissionCheck(HttpOriginFetcher fetcher) {
        this.fetcher = fetcher;
    }

    @Override
    public CompletableFuture<Void> check(URI origin, Ticket ticket, DelegatedCredentials.OriginCredential credential) {
        return fetcher.head(origin, fetcher.presenting(credential)).handle((status, error) -> {
            if (error != null) {
                Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                if (cause instanceof FetchException refused) {
                    throw new DelegatedCredentials.CompletionFailure(refused); // a redirect the pool does not follow
                }
                String alert = OriginResponseHandler.refusedCredential(cause);
                if (alert != null) {
                    LOG.info("origin refused the credential of {} for HEAD {}: TLS alert {}", ticket.subject(), ticket.path(), alert);
                    throw new DelegatedCredentials.CompletionFailure(new FetchException(HttpResponseStatus.FORBIDDEN,
                            "the origin refuses the credential of " + ticket.subject() + " (TLS alert " + alert + ")"));
                }
                throw new DelegatedCredentials.CompletionFailure(FetchException.badGateway(
                        "cannot check permission at origin " + OriginFetcher.describe(origin) + ": "
                                + OriginResponseHandler.reason(cause)));
            }
            if (status >= 200 && status < 300) {
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
    }
}
