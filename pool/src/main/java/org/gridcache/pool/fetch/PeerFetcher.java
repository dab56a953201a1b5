package org.gridcache.pool.fetch;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.util.List;
import java.util.Optional;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.origin.DownloadSink;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.origin.HttpOriginFetcher;
import org.gridcache.pool.origin.OriginFetcher;
import org.gridcache.pool.peer.Peers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Policy {@code affinity} on a miss: asks the peers the ticket names (the pools ranked above this one for the path)
 * whether they hold the file or are fetching it, and pulls it from the first that does, pool to pool over HTTP with
 * a pool-signed ticket, into the same {@link Download} as an origin fetch would fill: coalescing, cut-through and
 * "a hit only once complete and verified" are unchanged.
 *
 * <p>When no peer holds it yet but the best-ranked peer (the path's owner) answered, the file is pulled through the
 * owner all the same: the owner fetches it from the origin (its ticket names no peers) and every pool that spilled
 * past it joins that one fetch. So concurrent misses on several pools reach the origin once for the whole cluster,
 * whatever the order in which the requests arrive. Only when the owner is silent within
 * {@code selection.peer-timeout}, or fails before sending a byte, is the origin read directly.
 */
public final class PeerFetcher {
    private static final Logger LOG = LoggerFactory.getLogger(PeerFetcher.class);
    private final Peers peers;
    private final HttpOriginFetcher http;

    public PeerFetcher(Peers peers, HttpOriginFetcher http) {
        this.peers = peers;
        this.http = http;
    }

    public void fetch(Ticket ticket, URI origin, Download download, OriginFetcher originFetcher) {
        List<PoolRecord> named = peers.named(ticket);
        if (named.isEmpty()) {
            fromOrigin(ticket, origin, download, originFetcher);
            return;
        }
        PoolRecord owner = named.get(0);
        peers.askAll(ticket, named, true).thenAccept(answers -> {
            Optional<Peers.Holder> holder = answers.holder();
            // a file read as the user is pulled from a holder only: the owner could not fetch it as the user
            if (holder.isEmpty() && answers.answered().contains(owner.id()) && !ticket.needsUserCredential()) {
                holder = Optional.of(new Peers.Holder(owner, false)); // the owner fetches; this pool joins it
            }
            pull(ticket, holder, origin, download, originFetcher);
        });
    }

    private void pull(Ticket ticket, Optional<Peers.Holder> holder, URI origin, Download download, OriginFetcher originFetcher) {
        if (holder.isEmpty()) {
            fromOrigin(ticket, origin, download, originFetcher);
            return;
        }
        PoolRecord peer = holder.get().pool();
        LOG.info("pulling {} from peer {}", ticket.path(), peer.id());
        download.from("peer " + peer.id());
        http.fetch(URI.create(peers.url(ticket, peer)), new FallbackSink(download, peer.id(), () -> fromOrigin(ticket, origin, download, originFetcher)));
    }

    private static void fromOrigin(Ticket ticket, URI origin, Download download, OriginFetcher originFetcher) {
        download.from("origin");
        originFetcher.fetch(origin, download, ticket); // the ticket says which credential to present
    }

    /** Passes everything on, except a failure before the first byte: then the origin is tried instead. */
    private static final class FallbackSink implements DownloadSink {
        private final Download download;
        private final String peer;
        private final Runnable fallback;
        private volatile boolean begun;

        FallbackSink(Download download, String peer, Runnable fallback) {
            this.download = download;
            this.peer = peer;
            this.fallback = fallback;
        }

        @Override
        public void begin(long contentLength, long mtime, String etag) throws FetchException {
            begun = true;
            download.begin(contentLength, mtime, etag);
        }

        @Override
        public boolean write(ByteBuf data, Runnable resume) throws FetchException {
            return download.write(data, resume);
        }

        @Override
        public long transferFrom(FileChannel source, long position, long count) throws IOException, FetchException {
            return download.transferFrom(source, position, count);
        }

        @Override
        public long received() {
            return download.received();
        }

        @Override
        public void complete() {
            download.complete();
        }

        @Override
        public void fail(FetchException reason) {
            if (!begun && download.received() == 0) {
                LOG.warn("peer {} failed before sending anything ({}); fetching from the origin", peer, reason.getMessage());
                fallback.run();
                return;
            }
            download.fail(reason);
        }
    }
}
