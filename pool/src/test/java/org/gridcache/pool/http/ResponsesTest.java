package org.gridcache.pool.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.api.Test;

/** Every 503 of a pool says when to come back (issue 15: no 503 without Retry-After). */
class ResponsesTest {
    @Test
    void a503GetsRetryAfterAndOtherStatusesDoNot() {
        DefaultFullHttpResponse unavailable = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.SERVICE_UNAVAILABLE);
        assertEquals(Responses.RETRY_AFTER_SECONDS, Responses.withRetryAfter(unavailable).headers().get(HttpHeaderNames.RETRY_AFTER));
        DefaultFullHttpResponse forbidden = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.FORBIDDEN);
        assertNull(Responses.withRetryAfter(forbidden).headers().get(HttpHeaderNames.RETRY_AFTER));
        unavailable.release();
        forbidden.release();
    }
}
