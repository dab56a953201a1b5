package org.gridcache.pool.serve;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.gridcache.common.HttpMethods;
import org.gridcache.pool.http.Exchange;
import org.gridcache.pool.http.Refusal;
import org.gridcache.pool.http.Responses;

/**
 * Refuses early what a pool never serves: a malformed request, an HTTP version but HTTP/1.0 and HTTP/1.1 as RFC 9112
 * spells them, a target that is not a path, a missing, repeated or malformed {@code Host} (400, and the connection
 * closed where its framing is in doubt), a method no one implements (501), a method but GET and HEAD (405), a bad
 * path or query (400).
 */
@Sharable
final class RequestCheck extends SimpleChannelInboundHandler<Exchange> {
    /** RFC 3986's reg-name, an IPv4 address too; then an optional port. */
    private static final Pattern HOST = Pattern.compile("([A-Za-z0-9._~!$&'()*+,;=%-]*|\\[[0-9A-Fa-f:.]+\\])(:[0-9]{0,5})?");
    private static final String MALFORMED_TARGET = "malformed request target (a path, in visible ASCII, is served here)";

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Exchange ex) {
        if (!ex.decoded) {
            ex.sendErrorAndClose(HttpResponseStatus.BAD_REQUEST, "malformed request");
            return;
        }
        String versionRefusal = versionRefusal(ex.version);
        if (versionRefusal != null) {
            ex.sendErrorAndClose(HttpResponseStatus.BAD_REQUEST, versionRefusal);
            return;
        }
        if (!isPath(ex.uri)) {
            ex.sendError(HttpResponseStatus.BAD_REQUEST, MALFORMED_TARGET);
            return;
        }
        String hostRefusal = hostRefusal(ex.version, ex.headers);
        if (hostRefusal != null) {
            ex.sendErrorAndClose(HttpResponseStatus.BAD_REQUEST, hostRefusal);
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
        Admission.Target target;
        try {
            target = Admission.Target.of(ex.uri);
        } catch (Refusal r) {
            ex.refuse(r);
            return;
        }
        ctx.fireChannelRead(ex.withTarget(target.sent(), target.path(), target.token()));
    }

    /**
     * Null for HTTP/1.0 and HTTP/1.1 spelled exactly so (Netty reads {@code http/1.1} and {@code HTTP/01.1} as versions
     * of its own, never as its constants) and for a higher minor version of HTTP/1, which RFC 9112 §2.3 reads as the
     * highest this speaks; else why not.
     */
    static String versionRefusal(HttpVersion version) {
        if (version == HttpVersion.HTTP_1_1 || version == HttpVersion.HTTP_1_0) {
            return null;
        }
        if (version.protocolName().equals("HTTP") && version.majorVersion() == 1 && version.minorVersion() > 1
                && version.text().equals("HTTP/1." + version.minorVersion())) {
            return null;
        }
        return "malformed HTTP version " + version.text() + " (HTTP/1.1 is spoken here)";
    }

    /**
     * Why a request head cannot be served whatever its method, in the order a read's are checked: its version, its
     * target, its {@code Host}; null when it can. The requests taken before the aggregation (PUT, COPY) pass the same.
     */
    static String headRefusal(HttpVersion version, String uri, HttpHeaders headers) {
        String refusal = versionRefusal(version);
        if (refusal == null && !isPath(uri)) {
            refusal = MALFORMED_TARGET;
        }
        return refusal != null ? refusal : hostRefusal(version, headers);
    }

    /** RFC 9112 §3.2: an HTTP/1.1 request has exactly one Host, and it is a host with an optional port. */
    private static String hostRefusal(HttpVersion version, HttpHeaders headers) {
        List<String> hosts = headers.getAll(HttpHeaderNames.HOST);
        if (hosts.isEmpty()) {
            return version == HttpVersion.HTTP_1_1 ? "no Host header in an HTTP/1.1 request" : null;
        }
        if (hosts.size() > 1) {
            return "more than one Host header";
        }
        Matcher host = HOST.matcher(hosts.get(0));
        if (!host.matches() || host.group(2) != null && host.group(2).length() > 1
                && Integer.parseInt(host.group(2).substring(1)) > 65535) {
            return "malformed Host header";
        }
        return null;
    }

    private static boolean isPath(String uri) {
        return uri.startsWith("/") && visibleAscii(uri);
    }

    private static boolean visibleAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                return false;
            }
        }
        return true;
    }
}
