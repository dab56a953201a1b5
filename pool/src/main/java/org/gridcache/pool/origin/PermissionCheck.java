package org.gridcache.pool.origin;

import java.net.URI;
import java.util.concurrent.CompletableFuture;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.access.DelegatedCredentials;

/**
 * An origin capability: asking the origin, as the ticket's subject, whether that subject may read the file
 * (ARCHITECTURE.md, "Trust model"). Fails with a {@link DelegatedCredentials.CompletionFailure} carrying the
 * status to answer: the origin's refusal becomes 403, a missing file 404, anything else 502.
 */
public interface PermissionCheck {
    CompletableFuture<Void> check(URI origin, Ticket ticket, DelegatedCredentials.OriginCredential credential);
}
