package org.gridcache.door.delegation;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.gridcache.common.PoolRecord;
import org.gridcache.common.Ticket;
import org.gridcache.common.TicketCodec;
import org.gridcache.common.TicketException;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.http.DoorException;
import org.gridcache.door.http.DoorReadFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /.gridcache/credential?gridcache-ticket=…}: hands a user's delegated credential to a pool that must
 * fetch as that user. Two things are needed, so that neither a stolen ticket nor a pool's key alone is enough: the
 * caller authenticates in the TLS handshake with a host certificate whose DN is one of the configured pool
 * identities and is the DN the ticket's pool publishes in its record, and it presents a valid, unexpired ticket
 * issued by this door that names the user and the delegation: one pool cannot use another pool's tickets.
 * The answer (certificate, key, chain as PEM) is never cached and never logged (ARCHITECTURE.md, "Trust model").
 */
public final class CredentialService {
    public static final String PATH = DoorReadFilter.SERVICES + "/credential";
    private static final Logger LOG = LoggerFactory.getLogger(CredentialService.class);
    private final DelegationStore store;
    private final TicketCodec tickets;
    private final String doorId;
    private final Set<String> poolIdentities;
    private final Supplier<List<PoolRecord>> pools;

    public CredentialService(DelegationStore store, TicketCodec tickets, String doorId, Set<String> poolIdentities,
                      Supplier<List<PoolRecord>> pools) {
        this.store = store;
        this.tickets = tickets;
        this.doorId = doorId;
        this.poolIdentities = poolIdentities;
        this.pools = pools;
    }

    public void handle(HttpServletRequest request, HttpServletResponse response, GridSubject caller) throws IOException {
        if (!request.getMethod().equals("GET")) {
            throw new DoorException(405, "the credential service only answers GET");
        }
        if (caller.anonymous()) {
            throw new DoorException(401, "the credential service needs a pool's host certificate");
        }
        if (!poolIdentities.contains(caller.dn())) {
            LOG.warn("credential request from {}, which is not a configured pool identity", caller.dn());
            throw new DoorException(403, "not a pool of this door");
        }
        Ticket ticket;
        try {
            ticket = tickets.verify(request.getParameter(Ticket.QUERY_PARAMETER));
        } catch (TicketException e) {
            throw new DoorException(403, e.getMessage());
        }
        if (!doorId.equals(ticket.door())) {
            throw new DoorException(403, "ticket was issued by another door");
        }
        String issuedTo = pools.get().stream().filter(p -> p.id().equals(ticket.pool())).map(PoolRecord::hostDn)
                .filter(Objects::nonNull).findFirst().orElse(null);
        if (!caller.dn().equals(issuedTo)) {
            LOG.warn("pool {} asked for a credential with a ticket issued to pool {} ({})", caller.dn(), ticket.pool(),
                    issuedTo == null ? "not registered with a host DN" : issuedTo);
            throw new DoorException(403, "ticket was issued to another pool");
        }
        if (!ticket.needsUserCredential() || ticket.delegationId() == null) {
            throw new DoorException(400, "ticket names no delegated credential");
        }
        Delegation d = store.get(ticket.subject(), ticket.delegationId())
                .orElseThrow(() -> new DoorException(404, "the delegated credential has expired or was destroyed"));
        byte[] pem = GridCredentials.toPem(d.credential()).getBytes(StandardCharsets.US_ASCII);
        response.setStatus(200);
        response.setHeader("Cache-Control", "no-store");
        response.setContentType("application/x-pem-file");
        response.setContentLength(pem.length);
        response.getOutputStream().write(pem);
        LOG.info("pool {} obtained delegation {} of {} for {}", caller.dn(), d.id(), d.dn(), ticket.path());
    }
}
