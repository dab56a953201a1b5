package org.gridcache.common;

import org.gridcache.common.ClusterSettings.Keys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class TicketCodecTest {
    private static final byte[] KEY = new byte[32];
    private static final Clock NOW = Clock.fixed(Instant.ofEpochSecond(1_000_000), ZoneOffset.UTC);
    private final TicketCodec codec = new TicketCodec(KEY, NOW);

    private static Ticket ticket(long exp) {
        return new Ticket("/data/f.bin", "pool1", Ticket.READ, exp, "anonymous", "door1", "http://o/f.bin", 10, 5);
    }

    @Test
    void roundTripsAllClaims() throws Exception {
        Ticket t = ticket(1_000_060);
        assertEquals(t, codec.verify(codec.sign(t), "/data/f.bin", "pool1", Ticket.READ));
    }

    @Test
    void roundTripsThePeersToAskOnAMiss() throws Exception {
        Ticket ranked = new Ticket("/data/f.bin", "pool3", Ticket.READ, 1_000_060, "anonymous", "door1", "http://o/f.bin", 10, 5)
                .withPeers(java.util.List.of("pool1", "pool2"));
        Ticket back = codec.verify(codec.sign(ranked), "/data/f.bin", "pool3", Ticket.READ);
        assertEquals(java.util.List.of("pool1", "pool2"), back.peers());
        assertEquals(false, back.asksAllPeers());
        Ticket all = new Ticket("/data/f.bin", "pool3", Ticket.READ, 1_000_060, "anonymous", "door1", "http://o/f.bin", 10, 5)
                .withPeers(java.util.List.of(Ticket.ALL_PEERS));
        assertTrue(codec.verify(codec.sign(all)).asksAllPeers());
        assertEquals(java.util.List.of(), codec.verify(codec.sign(ticket(1_000_060))).peers());
    }

    @Test
    void selectionSettingsAreValidated() {
        assertEquals(SelectionPolicy.AFFINITY, ClusterSettings.defaults().get(Keys.SELECTION_POLICY));
        assertEquals(java.time.Duration.ofSeconds(2), ClusterSettings.defaults().get(Keys.PEER_TIMEOUT));
        ClusterSettings.validate(Keys.SELECTION_POLICY.key(), "random");
        ClusterSettings.validate(Keys.SELECTION_POLICY.key(), "least-loaded");
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.validate(Keys.SELECTION_POLICY.key(), "closest"));
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.validate(Keys.SPILL_LOAD.key(), "-1"));
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.validate(Keys.PEER_TIMEOUT.key(), "0s"));
        assertEquals(java.time.Duration.ofSeconds(30),
                ClusterSettings.of(java.util.Map.of(Keys.ZK_GRACE.key(), "30s")).get(Keys.ZK_GRACE));
    }

    @Test
    void refusesExpired() {
        String token = codec.sign(ticket(1_000_000));
        TicketException e = assertThrows(TicketException.class, () -> codec.verify(token));
        assertTrue(e.getMessage().contains("expired"), e.getMessage());
    }

    @Test
    void refusesOtherPathPoolAndOperation() {
        String token = codec.sign(ticket(1_000_060));
        assertTrue(assertThrows(TicketException.class, () -> codec.verify(token, "/data/g.bin", "pool1", "read"))
                .getMessage().contains("path"));
        assertTrue(assertThrows(TicketException.class, () -> codec.verify(token, "/data/f.bin", "pool2", "read"))
                .getMessage().contains("pool"));
        assertTrue(assertThrows(TicketException.class, () -> codec.verify(token, "/data/f.bin", "pool1", "write"))
                .getMessage().contains("write"));
    }

    @Test
    void refusesForgedAndMalformed() {
        byte[] other = Arrays.copyOf(KEY, 32);
        other[0] = 1;
        String forged = new TicketCodec(other, NOW).sign(ticket(1_000_060));
        assertTrue(assertThrows(TicketException.class, () -> codec.verify(forged)).getMessage().contains("signature"));
        assertTrue(assertThrows(TicketException.class, () -> codec.verify("abc")).getMessage().contains("malformed"));
        assertTrue(assertThrows(TicketException.class, () -> codec.verify("")).getMessage().contains("missing"));
        // "alg":"none" must not pass: take a valid token and strip its signature
        String token = codec.sign(ticket(1_000_060));
        String unsigned = token.substring(0, token.lastIndexOf('.') + 1);
        assertThrows(TicketException.class, () -> codec.verify(unsigned));
    }
}
