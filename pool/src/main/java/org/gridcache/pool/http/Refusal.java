package org.gridcache.pool.http;

import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * Why the pool refuses a request: the status to answer and a one-line reason fit for the client (it names the path,
 * the pool or the origin's mount, never a URL's secrets nor a ticket). Every handler of the pool refuses with one;
 * failures the store and the fetchers report become one where the request is served.
 */
public final class Refusal extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient HttpResponseStatus status;

    public Refusal(HttpResponseStatus status, String reason) {
        super(reason, null, false, false); // a reason, not a bug: no stack trace
        this.status = status;
    }

    public HttpResponseStatus status() {
        return status;
    }

    /** The one-line reason, as the client reads it. */
    public String reason() {
        return getMessage();
    }
}
