package org.gridcache.door;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.gridcache.common.OriginEntry;
import org.gridcache.common.PoolRecord;
import org.gridcache.common.Ticket;
import org.gridcache.common.TicketCodec;
import org.gridcache.common.UrlCodec;

/**
 * Makes the signed read ticket for one file on one pool and the pool URL that carries it. The ticket binds what the
 * door resolved (origin URL, size, mtime) so the pool fetches exactly that object.
 */
final class TicketIssuer {
    private final TicketCodec codec;
    private final String doorId;
    private final Clock clock;

    TicketIssuer(TicketCodec codec, String doorId, Clock clock) {
        this.codec = codec;
        this.doorId = doorId;
        this.clock = clock;
    }

    String poolUrl(PoolRecord pool, OriginEntry origin, NamespaceEntry file, Subject subject, Duration lifetime) {
        return poolUrl(pool, List.of(), origin, file, subject, lifetime);
    }

    /** {@code peers}: what the pool consults on a miss before the origin (see {@link Ticket#peers()}). */
    String poolUrl(PoolRecord pool, List<String> peers, OriginEntry origin, NamespaceEntry file, Subject subject, Duration lifetime) {
        long expires = clock.instant().plus(lifetime).getEpochSecond();
        Ticket ticket = new Ticket(file.path(), pool.id(), Ticket.READ, expires, subject.name(), doorId,
                origin.urlOf(file.path()), file.size(), file.mtimeSeconds(), peers);
        String base = pool.url().endsWith("/") ? pool.url().substring(0, pool.url().length() - 1) : pool.url();
        return base + UrlCodec.encodePath(file.path()) + "?" + Ticket.QUERY_PARAMETER + "=" + codec.sign(ticket);
    }
}
