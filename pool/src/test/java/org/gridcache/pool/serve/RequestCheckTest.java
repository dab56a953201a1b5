package org.gridcache.pool.serve;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.api.Test;

/** The versions a pool speaks, as Netty reads them off the request line (issue 15, R6). */
class RequestCheckTest {
    @Test
    void onlyHttp1SpelledAsRfc9112SpellsItIsSpoken() {
        assertNull(RequestCheck.versionRefusal(HttpVersion.valueOf("HTTP/1.1")));
        assertNull(RequestCheck.versionRefusal(HttpVersion.valueOf("HTTP/1.0")));
        assertNull(RequestCheck.versionRefusal(HttpVersion.valueOf("HTTP/1.2")), "a higher minor version is HTTP/1.1");
        assertNotNull(RequestCheck.versionRefusal(HttpVersion.valueOf("http/1.1")));
        assertNotNull(RequestCheck.versionRefusal(HttpVersion.valueOf("HTTP/01.1")));
        assertNotNull(RequestCheck.versionRefusal(HttpVersion.valueOf("HTTP/2.0")));
        assertNotNull(RequestCheck.versionRefusal(HttpVersion.valueOf("HTXP/1.1")));
    }
}
