package org.gridcache.pool.serve;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Optional;
import org.gridcache.common.GridPath;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.ticket.TicketCodec;
import org.gridcache.common.ticket.TicketException;
import org.gridcache.common.UrlCodec;
import org.gridcache.pool.http.Refusal;
import org.gridcache.pool.ops.PoolOperations;
import org.gridcache.zk.MountTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pool's one admission, on a request's head, for every method (ARCHITECTURE.md, "Trust model"): the path is
 * normalised, the ticket verified for exactly the path as sent ({@code /f/} nor {@code //f} open {@code /f}), this
 * pool and the operation the method asks for (GET and HEAD read, PUT writes, COPY pulls from its {@code Source} or
 * pushes to its {@code Destination}), the origin resolved from the mount table with the credential mode the ticket
 * was issued for (a ticket names no origin URL), and the pool's state asked whether it takes the request now. The
 * first check that fails refuses, in this order: 400 (malformed head: version, target, {@code Host}; path, query),
 * 411 (a PUT without a length), 403 (ticket), 404 (no mount), 403 (credential mode), 503 (pool state).
 *
 * <p>A ticket another pool signed admits only what pools ask each other, peer questions and pulls, and for a file
 * read as the user only with the door's ticket that let the user read it through that pool; it never admits a write
 * or a third-party copy. A write's ticket names its length, a copy's its remote: the request must announce the same.
 */
final class Admission {
    private static final Logger LOG = LoggerFactory.getLogger(Admission.class);
    static final String SOURCE = "Source";
    static final String DESTINATION = "Destination";

    /**
     * An admitted request: its normalised path, its ticket with the origin resolved (and, for a door's read ticket,
     * the door's grant for the peers), the ticket as the client sent it, the mount's name (for reasons a client
     * reads: never its URL), and for a third-party copy whether it pulls.
     */
    record Admitted(String path, Ticket ticket, String token, String mount, boolean pull) {
    }

    /** The request target: the path as sent (decoded), normalised, and the ticket in the query (null: none). */
    record Target(String sent, String path, String token) {
        /** Reads a request's target, refusing a path that cannot be normalised or a malformed query (400). */
        static Target of(String uri) throws Refusal {
            QueryStringDecoder target = new QueryStringDecoder(uri);
            String sent;
            String path;
            try {
                sent = UrlCodec.decode(target.rawPath());
                path = GridPath.normalize(sent);
            } catch (IllegalArgumentException e) {
                throw new Refusal(HttpResponseStatus.BAD_REQUEST, "bad path: " + e.getMessage());
            }
            List<String> tickets;
            try {
                // a malformed escape in the query is the client's error, not a missing ticket
                tickets = target.parameters().get(Ticket.QUERY_PARAMETER);
            } catch (IllegalArgumentException e) {
                throw new Refusal(HttpResponseStatus.BAD_REQUEST, "malformed query: " + e.getMessage());
            }
            return new Target(sent, path, tickets == null || tickets.isEmpty() ? null : tickets.get(0));
        }
    }

    private final String poolName;
    private final TicketCodec tickets;
    private final MountTable mounts;
    private final PoolOperations operations;

    Admission(String poolName, TicketCodec tickets, MountTable mounts, PoolOperations operations) {
        this.poolName = poolName;
        this.tickets = tickets;
        this.mounts = mounts;
        this.operations = operations;
    }

    /** A request head that carries a body or outlives its request (PUT, COPY), admitted before anything is read. */
    Admitted admit(HttpRequest head) throws Refusal {
        if (!head.decoderResult().isSuccess()) {
            throw new Refusal(HttpResponseStatus.BAD_REQUEST, "malformed request");
        }
        String malformed = RequestCheck.headRefusal(head.protocolVersion(), head.uri(), head.headers());
        if (malformed != null) {
            throw new Refusal(HttpResponseStatus.BAD_REQUEST, malformed);
        }
        return admit(head.method().name(), Target.of(head.uri()), head.headers());
    }

    /** Admits {@code method} on {@code target}; {@code headers}: the request's. */
    Admitted admit(String method, Target target, HttpHeaders headers) throws Refusal {
        String path = target.path();
        String remote = null;
        String operation;
        switch (method) {
            case "PUT" -> {
                operation = Ticket.WRITE;
                if (!headers.contains(HttpHeaderNames.CONTENT_LENGTH)
                        || headers.containsValue(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED, true)) {
                    throw new Refusal(HttpResponseStatus.LENGTH_REQUIRED, "a PUT to a pool needs a Content-Length");
                }
            }
            case "COPY" -> {
                remote = headers.get(SOURCE);
                operation = remote != null ? Ticket.TPC_PULL : Ticket.TPC_PUSH;
                remote = remote != null ? remote : headers.get(DESTINATION);
                if (remote == null) {
                    throw new Refusal(HttpResponseStatus.BAD_REQUEST,
                            "a COPY at a pool is a third-party copy: it needs a Source or a Destination");
                }
            }
            default -> operation = Ticket.READ;
        }
        Ticket ticket;
        try {
            ticket = tickets.verify(target.token(), target.sent(), poolName, operation);
        } catch (TicketException e) {
            throw new Refusal(HttpResponseStatus.FORBIDDEN, e.getMessage());
        }
        if (ticket.issuedByPool()) {
            fromAPool(ticket, operation, path);
        }
        switch (operation) {
            case Ticket.WRITE -> {
                long length = contentLength(headers);
                if (ticket.size() != length) {
                    throw new Refusal(HttpResponseStatus.BAD_REQUEST, "the ticket was issued for " + ticket.size()
                            + " bytes, the request announces " + length + ": ask the door again");
                }
            }
            case Ticket.TPC_PULL, Ticket.TPC_PUSH -> {
                if (ticket.remote() == null || !ticket.remote().equals(normalized(remote))) {
                    throw new Refusal(HttpResponseStatus.FORBIDDEN, "the " + (operation.equals(Ticket.TPC_PULL) ? SOURCE
                            : DESTINATION) + " is not the remote the ticket was issued for: ask the door again");
                }
            }
            default -> {
            }
        }
        Optional<OriginEntry> origin = mounts.resolve(path);
        if (origin.isEmpty()) {
            throw new Refusal(HttpResponseStatus.NOT_FOUND, "no origin serves this path now");
        }
        if (origin.get().credentialMode() != ticket.credential()) {
            throw new Refusal(HttpResponseStatus.FORBIDDEN, "the mount table changed since the ticket was issued: ask the door again");
        }
        Ticket resolved = ticket.withOrigin(origin.get().urlOf(path));
        if (operation.equals(Ticket.READ) && !ticket.issuedByPool()) {
            resolved = resolved.withGrant(target.token()); // a door's ticket travels on with the pool's tickets for its peers
        }
        checkState(operation, resolved);
        return new Admitted(path, resolved, target.token(), origin.get().name(), operation.equals(Ticket.TPC_PULL));
    }

    /** What a pool's signature admits: a peer's question or pull, never a write nor a third-party copy. */
    private void fromAPool(Ticket ticket, String operation, String path) throws Refusal {
        switch (operation) {
            case Ticket.WRITE -> {
                LOG.warn("{} signed a write ticket for {}", ticket.door(), path);
                throw new Refusal(HttpResponseStatus.FORBIDDEN, "only a door grants a write: a pool's ticket cannot");
            }
            case Ticket.TPC_PULL, Ticket.TPC_PUSH -> throw new Refusal(HttpResponseStatus.FORBIDDEN,
                    "only a door grants a third-party copy: a pool's ticket cannot");
            default -> {
            }
        }
        if (!ticket.peers().isEmpty()) {
            // pools sign tickets naming no peers: one that does would turn this pool's misses into a fan-out
            LOG.warn("{} signed a ticket for {} naming peers {}", ticket.door(), path, ticket.peers());
            throw new Refusal(HttpResponseStatus.FORBIDDEN, "a pool's ticket names no peers");
        }
        if (ticket.needsDoorGrant()) {
            try {
                tickets.verifyGrant(ticket);
            } catch (TicketException e) {
                LOG.warn("{} asked for {} as {} without the door's grant: {}", ticket.door(), path, ticket.subject(),
                        e.getMessage());
                throw new Refusal(HttpResponseStatus.FORBIDDEN, e.getMessage());
            }
        }
    }

    /**
     * Whether the pool takes the request now: a read or a push (which reads) unless drained, or read-only without a
     * current copy; a write or a pull (which write) only while enabled.
     */
    private void checkState(String operation, Ticket resolved) throws Refusal {
        if (operation.equals(Ticket.WRITE) || operation.equals(Ticket.TPC_PULL)) {
            String state = operations.state();
            if (!state.equals(PoolRecord.ENABLED)) {
                throw new Refusal(HttpResponseStatus.SERVICE_UNAVAILABLE, "pool " + poolName + " is " + state + " and takes no "
                        + (operation.equals(Ticket.WRITE) ? "uploads" : "third-party pull") + ": ask the door again");
            }
            return;
        }
        String refusal = operations.refusal(resolved);
        if (refusal != null) {
            throw new Refusal(HttpResponseStatus.SERVICE_UNAVAILABLE, refusal);
        }
    }

    /** The announced length (the codec let only a valid one through); -1 if none can be read. */
    private static long contentLength(HttpHeaders headers) {
        try {
            return Long.parseLong(headers.get(HttpHeaderNames.CONTENT_LENGTH).trim());
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** The remote URL as the door wrote it into the ticket. */
    private static String normalized(String remote) {
        try {
            return new URI(remote.trim()).toASCIIString();
        } catch (URISyntaxException e) {
            return null;
        }
    }
}
