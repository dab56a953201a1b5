package org.gridcache.pool.serve;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.fetch.Downloads;
import org.gridcache.pool.http.Exchange;
import org.gridcache.pool.http.Responses;
import org.gridcache.pool.peer.Peers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where this pool and its peers meet (ARCHITECTURE.md, "Choosing a pool"): answers another pool's question "do you
 * hold it?" from the index alone, and, for the {@code random} policy's tickets, asks the peers on a miss and
 * redirects the client to the first that holds the file. Everything else passes on.
 */
@Sharable
final class PeerQuestions extends SimpleChannelInboundHandler<Exchange> {
    private static final Logger LOG = LoggerFactory.getLogger(PeerQuestions.class);
    private final Downloads downloads;
    private final Peers peers;

    /** {@code peers} null: a pool on its own, which answers questions but asks none. */
    PeerQuestions(Downloads downloads, Peers peers) {
        this.downloads = downloads;
        this.peers = peers;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Exchange ex) {
        Ticket ticket = ex.ticket;
        if (ex.head && ex.headers.contains(Peers.ONLY_IF_CACHED)) {
            answerOnlyIfCached(ex, ticket);
        } else if (!ticket.needsUserCredential() && !ex.head && peers != null && ticket.asksAllPeers()
                && downloads.peek(ticket) == null) {
            askAllPeers(ctx, ex, ticket); // a user's credential is checked here first, so such tickets are fetched here
        } else {
            ctx.fireChannelRead(ex);
        }
    }

    /** A peer's question: do you hold it? Answered from the index alone; never starts a fetch. */
    private void answerOnlyIfCached(Exchange ex, Ticket ticket) {
        String held = downloads.peek(ticket);
        if (held == null) {
            ex.reply(Responses.errorResponse(ex, HttpResponseStatus.NOT_FOUND, "not cached here"));
            return;
        }
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        response.headers().set(Responses.X_CACHE, held).set(HttpHeaderNames.CONTENT_LENGTH, 0);
        if (Peers.HIT.equals(held)) {
            // a door's PROPFIND asks this way for dCache's Checksums property: the sidecar's, never computed now
            Responses.withDigests(response, ex.digests, downloads.storedChecksums(ticket));
        }
        HttpUtil.setKeepAlive(response, ex.keepAlive);
        ex.reply(response);
    }

    /**
     * The seed design (policy {@code random}): on a miss, ask every peer in parallel and redirect the client to the
     * first that holds the file, with a ticket for it; when none does within the peer timeout, fetch it here.
     */
    private void askAllPeers(ChannelHandlerContext ctx, Exchange ex, Ticket ticket) {
        peers.ask(ticket, peers.named(ticket), false).thenAccept(holder -> ctx.executor().execute(() -> {
            if (!ctx.channel().isActive()) {
                return; // the client left while the peers were asked
            }
            if (holder.isEmpty()) {
                ctx.fireChannelRead(ex);
                return;
            }
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.FOUND);
            response.headers().set(HttpHeaderNames.LOCATION, peers.url(ticket, holder.get().pool()))
                    .set(HttpHeaderNames.CACHE_CONTROL, "no-store")
                    .set(HttpHeaderNames.CONTENT_LENGTH, 0);
            HttpUtil.setKeepAlive(response, ex.keepAlive);
            LOG.info("{} {} 302 to peer {} that holds it", ex.method, ex.path, holder.get().pool().id());
            ex.reply(response);
        }));
    }
}
