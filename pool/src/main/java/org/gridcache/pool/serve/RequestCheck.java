package org.gridcache.pool.serve;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import org.gridcache.common.GridPath;
import org.gridcache.common.HttpMethods;
import org.gridcache.common.UrlCodec;

/**
 * Refuses early what a pool never serves: a malformed request or an HTTP version but 1.x (400), a method no one
 * implements (501), a method but GET and HEAD (405), a bad path (400).
 */
@Sharable
final class RequestCheck extends SimpleChannelInboundHandler<Exchange> {

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Exchange ex) {
        if (!ex.decoded) {
            ex.sendError(HttpResponseStatus.BAD_REQUEST, "malformed request");
            return;
        }
        if (!ex.version.protocolName().equals("HTTP") || ex.version.majorVersion() != 1) {
            // RFC 9112: a malformed or foreign version is the client's error (Netty reads HTTP/2.0 and HTXP/1.1 as lines)
            ex.sendError(HttpResponseStatus.BAD_REQUEST, "HTTP version " + ex.version.text() + " is not spoken here (HTTP/1.1 is)");
            return;
        }
        if (!HttpMethods.KNOWN.contains(ex.method)) {
            ex.sendError(HttpResponseStatus.NOT_IMPLEMENTED, "method not implemented");
            return;
        }
        if (!ex.head && !ex.method.equals("GET")) {
            FullHttpResponse response = Responses.errorResponse(ex, HttpResponseStatus.METHOD_NOT_ALLOWED,
                    "a pool only serves GET and HEAD");
            response.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
            ex.sendError(response, "method " + ex.method + " not allowed");
            return;
        }
        String path;
        try {
            path = GridPath.normalize(UrlCodec.decode(new QueryStringDecoder(ex.uri).rawPath()));
        } catch (IllegalArgumentException e) {
            ex.sendError(HttpResponseStatus.BAD_REQUEST, "bad path: " + e.getMessage());
            return;
        }
        ctx.fireChannelRead(ex.withPath(path));
    }
}
