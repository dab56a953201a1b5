package org.gridcache.pool;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.gridcache.common.origin.CredentialMode;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.ticket.TicketCodec;
import org.gridcache.common.ticket.TicketSigningKey;
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
        assertRefused("/f", r, reason);
    }

    private void assertRefused(String path, HttpResponse<byte[]> r, String reason) {
        assertEquals(403, r.statusCode());
        assertEquals(reason, body(r).trim());
        assertTrue(r.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain"));
        assertEquals(0, origin.gets(path));
    }

    @Test
    void missingTicket() throws Exception {
        assertRefused(get("/f", null), "missing ticket: read through the door, which redirects with one");
    }

    @Test
    void forgedTicket() throws Exception {
        TicketSigningKey other = TicketSigningKey.generate();
        String forged = TicketCodec.of(DOOR, other, List.of(other))
                .sign(new Ticket("/f", poolName, Ticket.READ, Instant.now().getEpochSecond() + 60, "s", DOOR, null, 100, -1));
        assertRefused(get("/f", forged), "ticket signed with a key that door1 does not publish (unknown or retired key)");
    }

    @Test
    void aTicketOverThePoolsLifetimeCap() throws Exception {
        long now = Instant.now().getEpochSecond();
        String year = tickets.sign(new Ticket("/f", poolName, Ticket.READ, now, now + 365L * 86400, "s", DOOR, null, 100, -1,
                null, List.of(), CredentialMode.NONE, null, List.of()));
        assertRefused(get("/f", year), "ticket lifetime exceeds this pool's limit of 600 s");
    }

    @Test
    void aPoolsKeyCannotMintADoorTicket() throws Exception {
        // what a compromised pool holds: its own key, published as a pool's
        TicketSigningKey poolKey = TicketSigningKey.generate();
        zk.create().creatingParentsIfNeeded().withMode(org.apache.zookeeper.CreateMode.EPHEMERAL).forPath(
                org.gridcache.zk.layout.ZkLayout.pool("rogue"), org.gridcache.common.Json.bytes(new org.gridcache.common.cluster.PoolRecord(
                        "rogue", "http://127.0.0.1:9", "test", 1, 1, 0, 0, 0, "v", 0, "enabled", 0, 0, null, poolKey.publicJwk())));
        try {
            String minted = new TicketCodec(poolKey, (issuer, kid) -> null, TicketCodec.DEFAULT_MAX_LIFETIME, java.time.Clock.systemUTC())
                    .sign(new Ticket("/f", poolName, Ticket.READ, Instant.now().getEpochSecond() + 60, "/CN=victim", DOOR, null, 100, -1));
            assertRefused(get("/f", minted), "ticket signed with a key that door1 does not publish (unknown or retired key)");
        } finally {
            zk.delete().forPath(org.gridcache.zk.layout.ZkLayout.pool("rogue"));
        }
    }

    @Test
    void aPoolsTicketReadsAUsersFileOnlyWithTheDoorsGrantToThatPool() throws Exception {
        TicketCodec peer = publishPeer();
        org.gridcache.zk.MountTable.put(zk, org.gridcache.common.origin.OriginEntry.of("users", "/u", "https://127.0.0.1:9/u", "user"));
        try {
            await().atMost(WAIT).until(() -> pool.mounts().resolve("/u/f").isPresent());
            long now = Instant.now().getEpochSecond();
            Ticket toPeer = userTicket("peer", now);
            // a pool's ticket alone: the pool claims a user it may never have seen
            assertRefused("/u/f", get("/u/f", peer.sign(toPeer.forPool(poolName, "peer", now, 60))),
                    "a pool's ticket for a file read as the user must carry the door's ticket");
            // the door's ticket of another pool does not let "peer" read as the user
            Ticket toOther = userTicket("other", now).withGrant(tickets.sign(userTicket("other", now)));
            assertRefused("/u/f", get("/u/f", peer.sign(toOther.forPool(poolName, "peer", now, 60))),
                    "ticket was issued for another pool");
            // with the door's ticket to "peer": admitted, and served only if held here (it is not: 404, never fetched)
            Ticket granted = toPeer.withGrant(tickets.sign(toPeer));
            HttpResponse<byte[]> r = get("/u/f", peer.sign(granted.forPool(poolName, "peer", now, 60)));
            assertEquals(404, r.statusCode(), body(r));
            assertEquals("not cached here: a peer reads a user's file from the origin itself", body(r).trim());
        } finally {
            zk.delete().forPath(org.gridcache.zk.layout.ZkLayout.pool("peer"));
            org.gridcache.zk.MountTable.remove(zk, "users");
        }
    }

    private static final org.gridcache.common.authz.BearerIdentity ALICE_TOKEN =
            new org.gridcache.common.authz.BearerIdentity("https://iss.example.org", "alice");

    /** A door's ticket of a token subject whose scopes read {@code scoped}, for the plain origin's {@code /f}. */
    private static Ticket tokenTicket(String pool, long now, String scoped) {
        org.gridcache.common.authz.Grants scopes = org.gridcache.common.authz.Grants.of(
                new org.gridcache.common.authz.PathGrant(org.gridcache.common.authz.Activity.READING, scoped));
        return new Ticket("/f", pool, Ticket.READ, now, now + 60, ALICE_TOKEN.name(), DOOR, null, 100, -1, null, List.of(),
                CredentialMode.NONE, null, List.of(), null,
                new org.gridcache.common.authz.TokenGrant(ALICE_TOKEN, scopes, List.of(), null));
    }

    @Test
    void aTokensTicketIsAdmittedOnlyWhereItsScopesAllowTheRead() throws Exception {
        long now = Instant.now().getEpochSecond();
        assertRefused(get("/f", tickets.sign(tokenTicket(poolName, now, "/other"))),
                "the token's scopes do not allow DOWNLOAD of /f");
        mount("/f", url);
        HttpResponse<byte[]> r = get("/f", tickets.sign(tokenTicket(poolName, now, "/")));
        assertEquals(200, r.statusCode(), body(r));
        assertEquals(java.util.Arrays.toString(data), java.util.Arrays.toString(r.body()));
    }

    @Test
    void aPoolForwardedTokenTicketCannotDropTheScopes() throws Exception {
        TicketCodec peer = publishPeer();
        try {
            long now = Instant.now().getEpochSecond();
            Ticket toPeer = tokenTicket("peer", now, "/other");
            Ticket admitted = toPeer.withGrant(tickets.sign(toPeer));
            // "peer" drops the scopes that keep Alice from /f, keeping the door's ticket inside, whose scopes still say no
            Ticket dropped = admitted.withToken(new org.gridcache.common.authz.TokenGrant(ALICE_TOKEN, null, List.of(), null));
            assertRefused(get("/f", peer.sign(dropped.forPool(poolName, "peer", now, 60))),
                    "the token's scopes do not allow DOWNLOAD of /f");
            // any change of the door's grant is refused, even one that would not widen it
            Ticket allowed = tokenTicket("peer", now, "/");
            Ticket changed = allowed.withGrant(tickets.sign(allowed))
                    .withToken(new org.gridcache.common.authz.TokenGrant(ALICE_TOKEN, null, List.of(), null));
            assertRefused(get("/f", peer.sign(changed.forPool(poolName, "peer", now, 60))),
                    "a pool's ticket does not match the door's ticket it carries");
            // or leaves out the door's ticket and the token's claims altogether
            Ticket bare = new Ticket("/f", poolName, Ticket.READ, now + 60, ALICE_TOKEN.name(), "pool:peer", null, 100, -1);
            assertRefused(get("/f", peer.sign(bare)), "a pool's ticket for a token's subject must carry the door's ticket");
        } finally {
            zk.delete().forPath(org.gridcache.zk.layout.ZkLayout.pool("peer"));
        }
    }

    /** Publishes pool "peer" with a key of its own, as a pool's record does, and waits until this pool sees it. */
    private TicketCodec publishPeer() throws Exception {
        TicketSigningKey poolKey = TicketSigningKey.generate();
        zk.create().creatingParentsIfNeeded().withMode(org.apache.zookeeper.CreateMode.EPHEMERAL).forPath(
                org.gridcache.zk.layout.ZkLayout.pool("peer"), org.gridcache.common.Json.bytes(new org.gridcache.common.cluster.PoolRecord(
                        "peer", "http://127.0.0.1:9", "test", 1, 1, 0, 0, 0, "v", 0, "enabled", 0, 0, null, poolKey.publicJwk())));
        await().atMost(WAIT).until(() -> pool.poolsSeen().stream().anyMatch(p -> p.id().equals("peer")));
        return new TicketCodec(poolKey, (issuer, kid) -> null, TicketCodec.DEFAULT_MAX_LIFETIME, java.time.Clock.systemUTC());
    }

    private static Ticket userTicket(String pool, long now) {
        return new Ticket("/u/f", pool, Ticket.READ, now, now + 60, "/CN=alice", DOOR, null, 100, -1, null, List.of(),
                CredentialMode.USER, "https://door/.gridcache/credential", List.of());
    }

    @Test
    void aPoolsTicketPullsAFileReadWithoutTheUsersCredential() throws Exception {
        TicketCodec peer = publishPeer();
        try {
            mount("/f", url);
            long now = Instant.now().getEpochSecond();
            Ticket pull = new Ticket("/f", "x", Ticket.READ, now + 60, "/CN=test", DOOR, null, 100, -1)
                    .forPool(poolName, "peer", now, 60);
            assertEquals(200, get("/f", peer.sign(pull)).statusCode());
            // the same pull naming peers, as no pool signs it: refused, so a pool cannot fan its peers' misses out
            Ticket fanOut = new Ticket(pull.path(), pull.pool(), pull.operation(), pull.issuedAt(), pull.expiresAt(),
                    pull.subject(), pull.door(), null, pull.size(), pull.mtime(), null, List.of(), pull.credential(), null,
                    List.of(Ticket.ALL_PEERS));
            HttpResponse<byte[]> refused = get("/f", peer.sign(fanOut));
            assertEquals(403, refused.statusCode());
            assertEquals("a pool's ticket names no peers", body(refused).trim());
        } finally {
            zk.delete().forPath(org.gridcache.zk.layout.ZkLayout.pool("peer"));
        }
    }

    @Test
    void expiredTicket() throws Exception {
        assertRefused(get("/f", ticket("/f", poolName, url, 100, Instant.now().getEpochSecond() - 1)),
                "ticket expired: ask the door again");
    }

    @Test
    void ticketForAnotherPath() throws Exception {
        assertRefused(get("/f", ticket("/g", origin.url("/g"), 100)), "ticket was issued for another path: it opens exactly /g");
    }

    @Test
    void ticketForAnotherPool() throws Exception {
        assertRefused(get("/f", ticket("/f", "other-pool", url, 100, Instant.now().getEpochSecond() + 60)),
                "ticket was issued for another pool");
    }

    @Test
    void pathIsDecodedButATicketOpensExactlyThePathItNames() throws Exception {
        origin.serve("/dir/a%20b", data);
        String token = ticket("/dir/a b", origin.url("/dir/a%20b"), 100);
        HttpResponse<byte[]> ok = http.send(HttpRequest.newBuilder(URI.create(pool.url() + "/dir/a%20b?"
                + Ticket.QUERY_PARAMETER + "=" + token)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, ok.statusCode());
        for (String other : new String[] {"/dir//./a%20b", "/dir/a%20b/", "//dir/a%20b"}) {
            HttpResponse<byte[]> refused = http.send(HttpRequest.newBuilder(URI.create(pool.url() + other + "?"
                    + Ticket.QUERY_PARAMETER + "=" + token)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(403, refused.statusCode(), other);
            assertEquals("ticket was issued for another path: it opens exactly /dir/a b", body(refused).trim(), other);
        }

        HttpResponse<byte[]> bad = http.send(HttpRequest.newBuilder(URI.create(pool.url() + "/dir/%2e%2e/x?"
                + Ticket.QUERY_PARAMETER + "=" + token)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(400, bad.statusCode());
        assertEquals("bad path: path contains '..'", body(bad).trim());
    }
}
