package org.gridcache.pool.peer;

import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.ticket.TicketCodec;
import org.gridcache.pool.http.PoolClient;
import org.gridcache.pool.http.Responses;
import org.gridcache.zk.PoolDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pool's side of cooperation: asks peer pools whether they hold a file, and makes the pool-signed tickets with
 * which it (or a client it redirects) reads from a peer. The pool signs them with its own key, whose public half it
 * publishes in its {@code /pools/<name>} record; a peer verifies them with that key and admits them for questions and
 * pulls only (never for a file read with the user's credential), and such a ticket names no peers, so a peer never
 * sends the question on.
 *
 * <p>The question is {@code HEAD} with {@value #ONLY_IF_CACHED}: the peer answers from its index and never fetches
 * (200 with {@code X-Cache: HIT}, or {@code X-Cache: IN-FLIGHT} when its own fetch is under way and has chosen its
 * source; 404 otherwise). An in-flight copy can be pulled at once, since the peer streams it while it arrives.
 */
public final class Peers implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Peers.class);
    public static final String ONLY_IF_CACHED = "X-Gridcache-Only-If-Cached";
    public static final String IN_FLIGHT = "IN-FLIGHT";
    public static final String HIT = "HIT";
    /** Long enough for a client to follow the redirect, or for a pull to start; the ticket is only checked then. */
    private static final long PEER_TICKET_SECONDS = 60;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

    /** A peer that holds the file (or is fetching it: {@code inFlight}). */
    public record Holder(PoolRecord pool, boolean inFlight) {
    }

    /** What the peers said within the timeout: the first holder (or none), and every peer that answered at all. */
    public record Answers(Optional<Holder> holder, Set<String> answered) {
    }

    private final String self;
    private final PoolDirectory directory;
    private final TicketCodec codec;
    private final Supplier<Duration> timeout;
    private final PoolClient client;

    /**
     * Asks with {@code client}: for a cluster of HTTPS pools it presents this pool's host certificate and checks the
     * peers' against the grid CAs ({@link PoolClient#cluster}).
     */
    public Peers(String self, PoolDirectory directory, TicketCodec codec, Supplier<Duration> timeout, PoolClient client) {
        this.self = self;
        this.directory = directory;
        this.codec = codec;
        this.timeout = timeout;
        this.client = client;
    }

    /** The live peers a ticket names, in its order (all live peers for {@code *}); never this pool. */
    public List<PoolRecord> named(Ticket ticket) {
        List<PoolRecord> live = directory.live();
        List<PoolRecord> out = new ArrayList<>();
        if (ticket.asksAllPeers()) {
            for (PoolRecord p : live) {
                if (!p.id().equals(self)) {
                    out.add(p);
                }
            }
            return out;
        }
        for (String id : ticket.peers()) {
            if (id.equals(self)) {
                continue;
            }
            for (PoolRecord p : live) {
                if (p.id().equals(id)) {
                    out.add(p);
                    break;
                }
            }
        }
        return out;
    }

    /**
     * Asks {@code peers} in parallel; completes with the first that holds the file ({@code acceptInFlight}: or is
     * fetching it), or empty when all said no, failed, or the peer timeout passed. Never completes exceptionally.
     */
    public CompletableFuture<Optional<Holder>> ask(Ticket ticket, List<PoolRecord> peers, boolean acceptInFlight) {
        return askAll(ticket, peers, acceptInFlight).thenApply(Answers::holder);
    }

    /** As {@link #ask}, also naming the peers that answered (yes or no) in time. */
    public CompletableFuture<Answers> askAll(Ticket ticket, List<PoolRecord> peers, boolean acceptInFlight) {
        CompletableFuture<Answers> answer = new CompletableFuture<>();
        Set<String> answered = ConcurrentHashMap.newKeySet();
        if (peers.isEmpty()) {
            answer.complete(new Answers(Optional.empty(), answered));
            return answer;
        }
        Duration wait = timeout.get();
        AtomicInteger pending = new AtomicInteger(peers.size());
        for (PoolRecord peer : peers) {
            URI url = URI.create(url(ticket, peer));
            FullHttpRequest head = PoolClient.request(HttpMethod.HEAD, url);
            head.headers().set(ONLY_IF_CACHED, "1");
            client.exchange(url, head, client.cluster(), CONNECT_TIMEOUT, wait).whenComplete((r, e) -> {
                if (r != null) {
                    answered.add(peer.id());
                }
                if (r != null && r.status() == 200) {
                    boolean inFlight = IN_FLIGHT.equals(r.headers().get(Responses.X_CACHE));
                    if (!inFlight || acceptInFlight) {
                        answer.complete(new Answers(Optional.of(new Holder(peer, inFlight)), answered));
                    }
                } else if (e != null) {
                    LOG.debug("peer {} did not answer about {}: {}", peer.id(), ticket.path(), e.toString());
                }
                if (pending.decrementAndGet() == 0) {
                    answer.complete(new Answers(Optional.empty(), answered));
                }
            });
        }
        return answer.completeOnTimeout(new Answers(Optional.empty(), answered), wait.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** The peer's URL for the ticket's file, with a fresh pool-signed ticket for that peer (naming no peers). */
    public String url(Ticket ticket, PoolRecord peer) {
        // the same subject and origin credential: a peer that must fetch the file itself does so as this client
        Ticket forPeer = ticket.forPool(peer.id(), self, Instant.now().getEpochSecond(), PEER_TICKET_SECONDS);
        return peer.ticketedUrl(ticket.path(), codec.sign(forPeer));
    }

    @Override
    public void close() {
        // the connections are the pool's, on its event loops, which it shuts down
    }
}
