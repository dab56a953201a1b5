package org.gridcache.pool.origin;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.ssl.SslContext;
import java.util.function.Supplier;

/**
 * What the pool presents to an origin mounted {@code --credential token}: TLS without a client certificate, and the
 * user's bearer token in every request, redirects and permission HEADs included (the token travels with the TLS
 * supplier every HTTP origin request already carries). {@link #toString} never shows the token.
 */
final class BearerPresentation implements Supplier<SslContext> {
    private final Supplier<SslContext> tls;
    private final String token;

    BearerPresentation(Supplier<SslContext> tls, String token) {
        this.tls = tls;
        this.token = token;
    }

    @Override
    public SslContext get() {
        return tls.get();
    }

    /** {@code request} with {@code Authorization: Bearer} when {@code presented} carries a token. */
    static <R extends HttpRequest> R authorize(R request, Supplier<SslContext> presented) {
        if (presented instanceof BearerPresentation bearer) {
            request.headers().set(HttpHeaderNames.AUTHORIZATION, "Bearer " + bearer.token);
        }
        return request;
    }

    @Override
    public String toString() {
        return "a bearer token";
    }
}
