package org.gridcache.common.ticket;

import org.gridcache.common.origin.CredentialMode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class VerifiedTicketsTest {
    private static final long NOW_S = 1_000_000;

    private static VerifiedTickets.Entry expiringAt(long exp) {
        Ticket ticket = new Ticket("/data/f.bin", "pool1", Ticket.READ, NOW_S, exp, "anonymous", "door1", null, 10, 5,
                null, List.of(), CredentialMode.NONE, null, List.of());
        return new VerifiedTickets.Entry(ticket, "kid", new byte[32]);
    }

    @Test
    void keepsNothingNewWhenFullOfValidTickets() {
        VerifiedTickets cache = new VerifiedTickets(2);
        cache.put("a", expiringAt(NOW_S + 60), NOW_S);
        cache.put("b", expiringAt(NOW_S + 60), NOW_S);
        cache.put("c", expiringAt(NOW_S + 60), NOW_S);
        assertEquals(2, cache.size());
        assertNull(cache.get("c"));
        assertNotNull(cache.get("a"));
    }

    @Test
    void makesRoomByDroppingExpiredTickets() {
        VerifiedTickets cache = new VerifiedTickets(2);
        cache.put("a", expiringAt(NOW_S + 10), NOW_S);
        cache.put("b", expiringAt(NOW_S + 60), NOW_S);
        cache.put("c", expiringAt(NOW_S + 60), NOW_S); // full, nothing expired
        cache.put("d", expiringAt(NOW_S + 60), NOW_S + 10); // a expired: swept, room for d
        assertNull(cache.get("a"));
        assertNotNull(cache.get("d"));
        assertEquals(2, cache.size());
        cache.forget("b");
        cache.put("e", expiringAt(NOW_S + 60), NOW_S + 10); // room without a sweep
        assertNotNull(cache.get("e"));
    }

    @Test
    void keepsNoLongTicket() {
        VerifiedTickets cache = new VerifiedTickets();
        String longTicket = "x".repeat(VerifiedTickets.LONGEST + 1);
        cache.put(longTicket, expiringAt(NOW_S + 60), NOW_S);
        assertNull(cache.get(longTicket));
        assertEquals(0, cache.size());
    }
}
