package org.gridcache.door.read;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.gridcache.common.OriginEntry;
import org.gridcache.common.PoolRecord;
import org.gridcache.common.Ticket;
import org.gridcache.common.TicketCodec;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.namespace.NamespaceEntry;

/**
 * Makes the signed read ticket for one file on one pool and the pool URL that carries it. The ticket binds what the
 * door resolved (origin URL, size, mtime) so the pool fetches exactly that object, and the subject with its VOMS
 * attributes and, for origins read as the user, which delegated credential to fetch with.
 */
public final class TicketIssuer {
    private final TicketCodec codec;
    private final String doorId;
    private final Clock clock;

    public TicketIssuer(TicketCodec codec, String doorId, Clock clock) {
        this.codec = codec;
        this.doorId = doorId;
        this.clock = clock;
    }

    /**
     * {@code peers}: what the pool consults on a miss before the origin (see {@link Ticket#peers()}).
     * {@code delegationId} names the subject's delegated credential when the origin needs the user's credential
     * (null otherwise); the pool then fetches it from {@code credentialUrl}.
     */
    String poolUrl(PoolRecord pool, List<String> peers, OriginEntry origin, NamespaceEntry file, GridSubject subject,
                   Duration lifetime, String delegationId, String credentialUrl) {
        long expires = clock.instant().plus(lifetime).getEpochSecond();
        Ticket ticket = new Ticket(file.path(), pool.id(), Ticket.READ, expires, subject.name(), doorId,
                origin.urlOf(file.path()), file.size(), file.mtimeSeconds(), subject.vo(), subject.fqans(),
                origin.credentialMode(), delegationId, delegationId == null ? null : credentialUrl, peers);
        return pool.ticketedUrl(file.path(), codec.sign(ticket));
    }
}
