package org.gridcache.pool.serve;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.net.URI;
import org.gridcache.common.origin.CredentialMode;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.origin.OriginAccess;
import org.gridcache.pool.fetch.Downloads;
import org.gridcache.pool.http.Exchange;
import org.gridcache.pool.http.Refusal;
import org.gridcache.pool.http.Responses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An origin read as the user (ARCHITECTURE.md, "Trust model"): the subject's credential and permission are settled
 * (off the event loop, see {@link OriginAccess}) before any byte, cached or fetched, goes to the client. A subject
 * with no delegated credential is told where to delegate one ({@code X-Delegate-To}).
 */
@Sharable
final class UserCredentialCheck extends SimpleChannelInboundHandler<Exchange> {
    private static final Logger LOG = LoggerFactory.getLogger(UserCredentialCheck.class);
    static final String DELEGATE_TO = "X-Delegate-To";
    private final OriginAccess access;
    private final Downloads downloads;

    /** {@code access} null: no origin is read as the user here (a pool without TLS refuses such tickets). */
    UserCredentialCheck(OriginAccess access, Downloads downloads) {
        this.access = access;
        this.downloads = downloads;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Exchange ex) {
        Ticket ticket = ex.ticket;
        if (!ticket.needsUserCredential()) {
            ctx.fireChannelRead(ex);
            return;
        }
        if (ticket.issuedByPool()) {
            // a peer's pull: the door let the user read this through that pool, which checked the user's permission
            // itself (the admission verified the grant); this pool serves what it holds, and fetches nothing as the user
            if (downloads.peek(ticket) == null) {
                ex.sendError(HttpResponseStatus.NOT_FOUND, "not cached here: a peer reads a user's file from the origin itself");
                return;
            }
            ctx.fireChannelRead(ex);
            return;
        }
        if (access == null) {
            ex.sendError(HttpResponseStatus.BAD_GATEWAY, "this pool cannot read origins with the user's credential (no TLS)");
            return;
        }
        access.check(ticket, ex.token, downloads.holds(ticket)).whenComplete((ok, error) -> ctx.executor().execute(() -> {
            if (!ctx.channel().isActive()) {
                return; // the client left; channelInactive cleans up
            }
            if (error == null) {
                ctx.fireChannelRead(ex);
                return;
            }
            Refusal reason = Failures.of(error);
            if (reason == null) {
                LOG.error("permission check of {} for {} failed: {}", ex.path, ticket.subject(), error.toString());
                ex.sendError(HttpResponseStatus.BAD_GATEWAY, "permission check failed");
                return;
            }
            FullHttpResponse response = Responses.errorResponse(ex, reason.status(), reason.reason());
            if (reason.status().code() == 401 && ticket.credential() == CredentialMode.TOKEN) {
                response.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer"); // a token, not a delegation, is missing
            } else if (reason.status().code() == 401 && ticket.credentialUrl() != null) {
                response.headers().set(DELEGATE_TO, delegationUrl(ticket.credentialUrl()));
            }
            ex.sendError(response, reason.reason() + " (" + ticket.subject() + ")");
        }));
    }

    /**
     * The issuing door's delegation service: the sibling of the credential service the ticket names
     * ({@code …/.gridcache/credential} → {@code …/.gridcache/delegation}), with no query.
     */
    static String delegationUrl(String credentialUrl) {
        return URI.create(credentialUrl).resolve("delegation").toString();
    }
}
