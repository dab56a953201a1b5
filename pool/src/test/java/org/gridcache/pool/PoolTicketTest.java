package org.gridcache.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.gridcache.common.Ticket;
import org.gridcache.common.TicketCodec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A pool serves nothing without a valid ticket for exactly this path and this pool. */
class PoolTicketTest extends PoolTestSupport {
    private final byte[] data = randomBytes(100, 7);
    private String url;

    @BeforeEach
    void setUp() throws Exception {
        startPool(1 << 20);
        origin.serve("/f", data);
        url = origin.url("/f");
    }

    private void assertRefused(HttpResponse<byte[]> r, String reason) {
        assertEquals(403, r.statusCode());
        assertEquals(reason, body(r).trim());
        assertTrue(r.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain"));
        assertEquals(0, origin.gets("/f"));
    }

    @Test
    void missingTicket() throws Exception {
        assertRefused(get("/f", null), "missing ticket: read through the door, which redirects with one");
    }

    @Test
    void forgedTicket() throws Exception {
        String forged = new TicketCodec("another key, another key, another key".getBytes(StandardCharsets.US_ASCII))
                .sign(new Ticket("/f", poolName, Ticket.READ, Instant.now().getEpochSecond() + 60, "s", "d", url, 100, -1));
        assertRefused(get("/f", forged), "ticket signature invalid (forged, or the door uses another ticket key)");
    }

    @Test
    void expiredTicket() throws Exception {
        assertRefused(get("/f", ticket("/f", poolName, url, 100, Instant.now().getEpochSecond() - 1)),
                "ticket expired: ask the door again");
    }

    @Test
    void ticketForAnotherPath() throws Exception {
        assertRefused(get("/f", ticket("/g", url, 100)), "ticket was issued for another path");
    }

    @Test
    void ticketForAnotherPool() throws Exception {
        assertRefused(get("/f", ticket("/f", "other-pool", url, 100, Instant.now().getEpochSecond() + 60)),
                "ticket was issued for another pool");
    }

    @Test
    void pathIsDecodedAndNormalisedBeforeComparison() throws Exception {
        String token = ticket("/dir/a b", origin.url("/f"), 100);
        HttpResponse<byte[]> ok = http.send(HttpRequest.newBuilder(URI.create(pool.url() + "/dir//./a%20b?"
                + Ticket.QUERY_PARAMETER + "=" + token)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, ok.statusCode());

        HttpResponse<byte[]> bad = http.send(HttpRequest.newBuilder(URI.create(pool.url() + "/dir/%2e%2e/x?"
                + Ticket.QUERY_PARAMETER + "=" + token)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(400, bad.statusCode());
        assertEquals("bad path: path contains '..'", body(bad).trim());
    }
}
