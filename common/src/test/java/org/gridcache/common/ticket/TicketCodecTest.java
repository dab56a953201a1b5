package org.gridcache.common.ticket;

import org.gridcache.common.settings.SelectionPolicy;
import org.gridcache.common.Json;
import org.gridcache.common.origin.CredentialMode;
import org.gridcache.common.settings.ClusterSettings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.gridcache.common.settings.ClusterSettings.Keys;
import org.gridcache.common.authz.Activity;
import org.gridcache.common.authz.BearerIdentity;
import org.gridcache.common.authz.Grants;
import org.gridcache.common.authz.PathGrant;
import org.gridcache.common.authz.TokenGrant;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TicketCodecTest {
    private static final long NOW_S = 1_000_000;
    private static final Clock NOW = Clock.fixed(Instant.ofEpochSecond(NOW_S), ZoneOffset.UTC);
    private static final TicketSigningKey DOOR_KEY = TicketSigningKey.generate();
    private static final TicketSigningKey POOL_KEY = TicketSigningKey.generate();
    /** What a pool trusts: door1's key and pool pool2's key. */
    private static final TicketKeys TRUSTED = TicketKeys.anyOf(TicketKeys.of("door1", List.of(DOOR_KEY)),
            TicketKeys.of("pool:pool2", List.of(POOL_KEY)));
    private final TicketCodec door = codec(DOOR_KEY);
    private final TicketCodec pool = new TicketCodec(null, TRUSTED, TicketCodec.DEFAULT_MAX_LIFETIME, NOW);

    private static TicketCodec codec(TicketSigningKey key) {
        return new TicketCodec(key, TRUSTED, TicketCodec.DEFAULT_MAX_LIFETIME, NOW);
    }

    private static Ticket ticket(long exp) {
        return new Ticket("/data/f.bin", "pool1", Ticket.READ, NOW_S, exp, "/DC=org/CN=Alice", "door1", null, 10, 5,
                "atlas", List.of("/atlas"), CredentialMode.USER, "https://door.example.org:2880/.gridcache/credential", List.of());
    }

    @Test
    void roundTripsAllClaims() throws Exception {
        Ticket t = ticket(NOW_S + 60);
        assertEquals(t, pool.verify(door.sign(t), "/data/f.bin", "pool1", Ticket.READ));
    }

    @Test
    void namesNoOriginUrlHostOrDelegation() throws Exception {
        Ticket t = ticket(NOW_S + 60).withOrigin("https://internal-se.example.org:2880/secret/real/path/f.bin");
        String token = door.sign(t);
        String payload = new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8);
        assertFalse(payload.contains("internal-se"), payload);
        assertFalse(payload.contains("secret/real"), payload);
        assertFalse(payload.contains("\"src\""), payload);
        assertFalse(payload.contains("\"dlg\""), payload);
        assertNull(pool.verify(token).originUrl(), "the pool resolves the origin itself");
        String header = new String(Base64.getUrlDecoder().decode(token.split("\\.")[0]), StandardCharsets.UTF_8);
        assertTrue(header.contains("\"kid\":\"" + DOOR_KEY.kid() + "\""), header);
        assertTrue(header.contains("\"alg\":\"EdDSA\""), header);
    }

    @Test
    void roundTripsAThirdPartyCopysRemoteAndItsCredential() throws Exception {
        Ticket t = new Ticket("/data/f.bin", "pool1", Ticket.TPC_PULL, NOW_S, NOW_S + 60, "/DC=org/CN=Alice", "door1", null, -1, -1,
                null, List.of(), CredentialMode.NONE, null, List.of(), null, null, "https://remote.example.org:2880/f.bin", Ticket.REMOTE_GRIDSITE);
        Ticket back = pool.verify(door.sign(t), "/data/f.bin", "pool1", Ticket.TPC_PULL);
        assertEquals(t, back);
        assertTrue(back.thirdPartyCopy());
        assertTrue(back.presentsUserProxyToRemote());
        assertNull(pool.verify(door.sign(ticket(NOW_S + 60))).remote(), "a read names no remote");
        assertFalse(pool.verify(door.sign(ticket(NOW_S + 60))).thirdPartyCopy());
        assertThrows(TicketException.class, () -> pool.verify(door.sign(t), "/data/f.bin", "pool1", Ticket.TPC_PUSH));
    }

    @Test
    void roundTripsThePeersToAskOnAMiss() throws Exception {
        Ticket ranked = ticket(NOW_S + 60).withPeers(List.of("pool1", "pool2"));
        Ticket back = pool.verify(door.sign(ranked), "/data/f.bin", "pool1", Ticket.READ);
        assertEquals(List.of("pool1", "pool2"), back.peers());
        assertFalse(back.asksAllPeers());
        assertTrue(pool.verify(door.sign(ticket(NOW_S + 60).withPeers(List.of(Ticket.ALL_PEERS)))).asksAllPeers());
        assertEquals(List.of(), pool.verify(door.sign(ticket(NOW_S + 60))).peers());
    }

    @Test
    void aPoolKeyCannotMintADoorTicket() {
        String minted = codec(POOL_KEY).sign(ticket(NOW_S + 60));
        TicketException e = assertThrows(TicketException.class, () -> pool.verify(minted));
        assertTrue(e.getMessage().contains("door1 does not publish"), e.getMessage());
    }

    @Test
    void aPoolKeySignsTicketsForItsPeers() throws Exception {
        Ticket forPeer = ticket(NOW_S + 60).forPool("pool3", "pool2", NOW_S, 60);
        Ticket back = pool.verify(codec(POOL_KEY).sign(forPeer), "/data/f.bin", "pool3", Ticket.READ);
        assertTrue(back.issuedByPool());
        assertEquals("pool:pool2", back.door());
        // but not in another pool's name
        Ticket asOther = ticket(NOW_S + 60).forPool("pool3", "pool9", NOW_S, 60);
        assertThrows(TicketException.class, () -> pool.verify(codec(POOL_KEY).sign(asOther)));
    }

    @Test
    void refusesATicketOverTheLifetimeCap() throws Exception {
        Ticket year = new Ticket("/data/f.bin", "pool1", Ticket.READ, NOW_S, NOW_S + 365L * 86400, "anonymous", "door1",
                null, 10, 5, null, List.of(), CredentialMode.NONE, null, List.of());
        TicketException e = assertThrows(TicketException.class, () -> pool.verify(door.sign(year)));
        assertTrue(e.getMessage().contains("lifetime exceeds"), e.getMessage());
        // exactly the cap passes; a pool configured lower refuses it
        Ticket tenMinutes = ticket(NOW_S + 600);
        pool.verify(door.sign(tenMinutes));
        TicketCodec strict = new TicketCodec(null, TRUSTED, Duration.ofMinutes(5), NOW);
        assertThrows(TicketException.class, () -> strict.verify(door.sign(tenMinutes)));
    }

    @Test
    void refusesATicketIssuedInTheFuture() {
        Ticket ahead = new Ticket("/data/f.bin", "pool1", Ticket.READ, NOW_S + 3600, NOW_S + 3660, "anonymous", "door1",
                null, 10, 5, null, List.of(), CredentialMode.NONE, null, List.of());
        assertTrue(assertThrows(TicketException.class, () -> pool.verify(door.sign(ahead))).getMessage().contains("future"));
    }

    @Test
    void refusesAnUnknownKid() {
        String token = codec(TicketSigningKey.generate()).sign(ticket(NOW_S + 60));
        TicketException e = assertThrows(TicketException.class, () -> pool.verify(token));
        assertTrue(e.getMessage().contains("unknown or retired key"), e.getMessage());
    }

    @Test
    void rollOverAcceptsThePreviousKeyWhilePublishedOnly() throws Exception {
        TicketSigningKey previous = TicketSigningKey.generate();
        TicketSigningKey current = TicketSigningKey.generate();
        AtomicReference<TicketKeys> published = new AtomicReference<>(TicketKeys.of("door1", List.of(current, previous)));
        TicketCodec verifier = new TicketCodec(null, (issuer, kid) -> published.get().publicKey(issuer, kid),
                TicketCodec.DEFAULT_MAX_LIFETIME, NOW);
        String old = codec(previous).sign(ticket(NOW_S + 60));
        String fresh = codec(current).sign(ticket(NOW_S + 60));
        verifier.verify(old);
        verifier.verify(fresh);
        published.set(TicketKeys.of("door1", List.of(current))); // the door stopped publishing the previous key
        verifier.verify(fresh);
        assertTrue(assertThrows(TicketException.class, () -> verifier.verify(old)).getMessage().contains("retired"));
    }

    @Test
    void refusesExpired() {
        String token = door.sign(ticket(NOW_S));
        TicketException e = assertThrows(TicketException.class, () -> pool.verify(token));
        assertTrue(e.getMessage().contains("expired"), e.getMessage());
    }

    @Test
    void aReusedTicketsSignatureIsCheckedOnce() throws Exception {
        TicketCodec verifier = new TicketCodec(null, TRUSTED, TicketCodec.DEFAULT_MAX_LIFETIME, NOW);
        String token = door.sign(ticket(NOW_S + 60));
        Ticket first = verifier.verify(token, "/data/f.bin", "pool1", Ticket.READ);
        assertEquals(first, verifier.verify(token, "/data/f.bin", "pool1", Ticket.READ));
        assertEquals(first, verifier.verify(token));
        assertEquals(1, verifier.signaturesChecked());
        verifier.verify(door.sign(ticket(NOW_S + 61)));
        assertEquals(2, verifier.signaturesChecked(), "another ticket is checked afresh");
        // what the cache does not remember is still checked on each use
        assertThrows(TicketException.class, () -> verifier.verify(token, "/data/g.bin", "pool1", Ticket.READ));
        assertThrows(TicketException.class, () -> verifier.verify(token, "/data/f.bin", "pool2", Ticket.READ));
    }

    @Test
    void aReusedTicketStillExpires() throws Exception {
        AtomicReference<Instant> now = new AtomicReference<>(Instant.ofEpochSecond(NOW_S));
        TicketCodec verifier = new TicketCodec(null, TRUSTED, TicketCodec.DEFAULT_MAX_LIFETIME, new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Instant instant() {
                return now.get();
            }
        });
        String token = door.sign(ticket(NOW_S + 60));
        verifier.verify(token);
        now.set(Instant.ofEpochSecond(NOW_S + 59));
        verifier.verify(token);
        now.set(Instant.ofEpochSecond(NOW_S + 60));
        assertEquals(1, verifier.signaturesChecked());
        assertTrue(assertThrows(TicketException.class, () -> verifier.verify(token)).getMessage().contains("expired"));
        assertTrue(assertThrows(TicketException.class, () -> verifier.verify(token)).getMessage().contains("expired"),
                "forgotten, and refused again after a fresh check");
    }

    @Test
    void aReusedTicketStopsVerifyingWhenItsKeyIsRetired() throws Exception {
        TicketSigningKey key = TicketSigningKey.generate();
        AtomicReference<TicketKeys> published = new AtomicReference<>(TicketKeys.of("door1", List.of(key)));
        TicketCodec verifier = new TicketCodec(null, (issuer, kid) -> published.get().publicKey(issuer, kid),
                TicketCodec.DEFAULT_MAX_LIFETIME, NOW);
        String token = codec(key).sign(ticket(NOW_S + 60));
        verifier.verify(token);
        verifier.verify(token);
        published.set(TicketKeys.of("door1", List.of(TicketSigningKey.generate())));
        assertTrue(assertThrows(TicketException.class, () -> verifier.verify(token)).getMessage().contains("retired"));
        published.set(TicketKeys.of("door1", List.of(key))); // published again: verified afresh
        verifier.verify(token);
        assertEquals(2, verifier.signaturesChecked());
    }

    @Test
    void aTamperedCopyOfAVerifiedTicketIsRefused() throws Exception {
        String token = door.sign(ticket(NOW_S + 60));
        pool.verify(token);
        String forged = withMalloryAsSubject(token);
        assertTrue(assertThrows(TicketException.class, () -> pool.verify(forged)).getMessage().contains("forged"));
        assertTrue(assertThrows(TicketException.class, () -> pool.verify(forged)).getMessage().contains("forged"),
                "a refused ticket is not remembered");
    }

    @Test
    void refusesOtherPathPoolAndOperation() {
        String token = door.sign(ticket(NOW_S + 60));
        assertTrue(assertThrows(TicketException.class, () -> pool.verify(token, "/data/g.bin", "pool1", "read"))
                .getMessage().contains("path"));
        assertTrue(assertThrows(TicketException.class, () -> pool.verify(token, "/data/f.bin", "pool2", "read"))
                .getMessage().contains("pool"));
        assertTrue(assertThrows(TicketException.class, () -> pool.verify(token, "/data/f.bin", "pool1", "write"))
                .getMessage().contains("write"));
    }

    /** The ticket with another subject in its claims and its original signature. */
    private static String withMalloryAsSubject(String token) {
        String[] parts = token.split("\\.");
        String otherClaims = Base64.getUrlEncoder().withoutPadding().encodeToString(
                new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                        .replace("/DC=org/CN=Alice", "/DC=org/CN=Mallory").getBytes(StandardCharsets.UTF_8));
        return parts[0] + "." + otherClaims + "." + parts[2];
    }

    @Test
    void refusesForgedAndMalformed() {
        String token = door.sign(ticket(NOW_S + 60));
        String forged = withMalloryAsSubject(token);
        assertTrue(assertThrows(TicketException.class, () -> pool.verify(forged)).getMessage().contains("forged"));
        assertTrue(assertThrows(TicketException.class, () -> pool.verify("abc")).getMessage().contains("malformed"));
        assertTrue(assertThrows(TicketException.class, () -> pool.verify("")).getMessage().contains("missing"));
        // "alg":"none" must not pass: take a valid token and strip its signature
        String unsigned = token.substring(0, token.lastIndexOf('.') + 1);
        assertThrows(TicketException.class, () -> pool.verify(unsigned));
    }

    @Test
    void keysAreCreatedOwnerOnlyAndRefusedWhenOthersCanRead(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("keys/door.jwk");
        TicketSigningKey created = TicketSigningKey.loadOrCreate(file);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals(created.kid(), TicketSigningKey.loadOrCreate(file).kid(), "the second start reads the same key");
        TicketKeys.Published published = TicketKeys.parsePublished(created.publicJwk());
        assertEquals(created.kid(), published.kid());
        assertFalse(created.publicJwk().containsKey("d"), "the published half holds no private part");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertTrue(assertThrows(java.io.IOException.class, () -> TicketSigningKey.load(file)).getMessage().contains("chmod 600"));
    }

    @Test
    void aPublishedKeyMustBePublicAndNamedByItsThumbprint() {
        java.util.Map<String, Object> jwk = new java.util.HashMap<>(DOOR_KEY.publicJwk());
        jwk.put("kid", POOL_KEY.kid());
        assertThrows(IllegalArgumentException.class, () -> TicketKeys.parsePublished(jwk));
        java.util.Map<String, Object> withPrivate = new java.util.HashMap<>(DOOR_KEY.publicJwk());
        withPrivate.put("d", withPrivate.get("x"));
        assertThrows(IllegalArgumentException.class, () -> TicketKeys.parsePublished(withPrivate));
    }

    @Test
    void doorKeysFromAFileVerifyThatDoorsTicketsOnly(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("door-keys.json");
        Files.writeString(file, Json.string(java.util.Map.of("door1", List.of(DOOR_KEY.publicJwk()))));
        TicketCodec fromFile = new TicketCodec(null, TicketKeys.fromFile(file), TicketCodec.DEFAULT_MAX_LIFETIME, NOW);
        fromFile.verify(door.sign(ticket(NOW_S + 60)));
        assertThrows(TicketException.class, () -> fromFile.verify(codec(POOL_KEY).sign(ticket(NOW_S + 60))));
        Files.writeString(file, Json.string(java.util.Map.of("pool:p1", List.of(POOL_KEY.publicJwk()))));
        assertTrue(assertThrows(java.io.IOException.class, () -> TicketKeys.fromFile(file)).getMessage().contains("not a door"));
        Files.writeString(file, "[1, 2]");
        assertThrows(java.io.IOException.class, () -> TicketKeys.fromFile(file));
    }

    @Test
    void selectionSettingsAreValidated() {
        assertEquals(SelectionPolicy.AFFINITY, ClusterSettings.defaults().get(Keys.SELECTION_POLICY));
        assertEquals(Duration.ofSeconds(2), ClusterSettings.defaults().get(Keys.PEER_TIMEOUT));
        ClusterSettings.validate(Keys.SELECTION_POLICY.key(), "random");
        ClusterSettings.validate(Keys.SELECTION_POLICY.key(), "least-loaded");
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.validate(Keys.SELECTION_POLICY.key(), "closest"));
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.validate(Keys.SPILL_LOAD.key(), "-1"));
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.validate(Keys.PEER_TIMEOUT.key(), "0s"));
        assertEquals(Duration.ofSeconds(30), ClusterSettings.of(java.util.Map.of(Keys.ZK_GRACE.key(), "30s")).get(Keys.ZK_GRACE));
    }

    @Test
    void theDoorRefusesToConfigureATicketLifetimeOverTheCap() {
        ClusterSettings.validate(Keys.TICKET_LIFETIME.key(), "10m");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.validate(Keys.TICKET_LIFETIME.key(), "1h"));
        assertTrue(e.getMessage().contains("at most 600s"), e.getMessage());
    }

    private static final BearerIdentity ALICE_TOKEN = new BearerIdentity("https://iss.example.org", "alice");
    private static final String TOKEN_REF = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    /** A read of {@code path} by a token subject whose scopes read {@code scoped}, for a token origin. */
    private static Ticket tokenTicket(String path, String scoped, String operation) {
        TokenGrant grant = new TokenGrant(ALICE_TOKEN, Grants.of(new PathGrant(Activity.READING, scoped)),
                List.of(Grants.of(new PathGrant(Set.of(Activity.DOWNLOAD, Activity.UPLOAD), "/data"))), TOKEN_REF);
        return new Ticket(path, "pool1", operation, NOW_S, NOW_S + 60, ALICE_TOKEN.name(), "door1", null, 10, 5, null,
                List.of("/atlas/production"), CredentialMode.TOKEN, "https://door.example.org:2880/.gridcache/credential",
                List.of(), null, grant);
    }

    @Test
    void roundTripsTheTokensIdentityScopesCaveatsGroupsAndReference() throws Exception {
        Ticket t = tokenTicket("/data/f.bin", "/data", Ticket.READ);
        String signed = door.sign(t);
        assertEquals(t, pool.verify(signed, "/data/f.bin", "pool1", Ticket.READ));
        String payload = new String(Base64.getUrlDecoder().decode(signed.split("\\.")[1]), StandardCharsets.UTF_8);
        assertTrue(payload.contains("\"sub\":\"token:alice@https://iss.example.org\""), payload);
        assertTrue(payload.contains("\"tkiss\":\"https://iss.example.org\""), payload);
        assertTrue(payload.contains("\"tksub\":\"alice\""), payload);
        assertTrue(payload.contains("\"scopes\":[\"DOWNLOAD,LIST,READ_METADATA:/data\"]"), payload);
        assertTrue(payload.contains("\"caveats\":[[\"DOWNLOAD,UPLOAD:/data\"]]"), payload);
        assertTrue(payload.contains("\"groups\":[\"/atlas/production\"]"), payload);
        assertTrue(payload.contains("\"tokref\":\"" + TOKEN_REF + "\""), payload);
        assertTrue(t.needsUserCredential(), "a token origin needs the user's token from the door");
    }

    @Test
    void anX509TicketCarriesNoTokenClaims() throws Exception {
        String signed = door.sign(ticket(NOW_S + 60));
        String payload = new String(Base64.getUrlDecoder().decode(signed.split("\\.")[1]), StandardCharsets.UTF_8);
        for (String claim : List.of("tkiss", "tksub", "scopes", "caveats", "tokref", "groups")) {
            assertFalse(payload.contains("\"" + claim + "\""), payload);
        }
        assertEquals(TokenGrant.NONE, pool.verify(signed).token());
    }

    @Test
    void aDoorTicketWhoseScopesDoNotCoverItsPathIsRefusedAtThePool() {
        String outside = door.sign(tokenTicket("/data/f.bin", "/other", Ticket.READ));
        TicketException e = assertThrows(TicketException.class, () -> pool.verify(outside, "/data/f.bin", "pool1", Ticket.READ));
        assertEquals("the token's scopes do not allow DOWNLOAD of /data/f.bin", e.getMessage());
        // whole components: /data does not cover /database
        String sibling = door.sign(tokenTicket("/database/f.bin", "/data", Ticket.READ));
        assertThrows(TicketException.class, () -> pool.verify(sibling, "/database/f.bin", "pool1", Ticket.READ));
        // a read scope does not allow a write
        String write = door.sign(tokenTicket("/data/f.bin", "/data", Ticket.WRITE));
        e = assertThrows(TicketException.class, () -> pool.verify(write, "/data/f.bin", "pool1", Ticket.WRITE));
        assertEquals("the token's scopes do not allow UPLOAD of /data/f.bin", e.getMessage());
    }

    @Test
    void aMacaroonsCaveatsBoundTheTicketToo() {
        TokenGrant caveated = new TokenGrant(null, null, List.of(Grants.of(new PathGrant(Set.of(Activity.DOWNLOAD), "/data/public"))), null);
        Ticket t = ticket(NOW_S + 60).withToken(caveated);
        TicketException e = assertThrows(TicketException.class, () -> pool.verify(door.sign(t), "/data/f.bin", "pool1", Ticket.READ));
        assertEquals("the token's caveats do not allow DOWNLOAD of /data/f.bin", e.getMessage());
    }

    @Test
    void aBoundedTicketForAnOperationWithoutAnActivityIsRefused() {
        String stage = door.sign(tokenTicket("/data/f.bin", "/data", "stage"));
        TicketException e = assertThrows(TicketException.class, () -> pool.verify(stage, "/data/f.bin", "pool1", "stage"));
        assertEquals("a token's ticket cannot allow stage", e.getMessage());
    }

    @Test
    void aPoolForwardedTicketKeepsTheTokenGrantAndTheDoorsTicket() throws Exception {
        String doors = door.sign(tokenTicket("/data/f.bin", "/data", Ticket.READ));
        Ticket admitted = pool.verify(doors, "/data/f.bin", "pool1", Ticket.READ).withGrant(doors);
        Ticket forPeer = admitted.forPool("pool3", "pool2", NOW_S, 60);
        assertEquals(admitted.token(), forPeer.token());
        // signed by pool2 (whose key the test pool trusts) with the door's ticket to pool2 inside
        TicketCodec pool2 = codec(POOL_KEY);
        Ticket fromPool2 = pool.verify(pool2.sign(door2Ticket().forPool("pool3", "pool2", NOW_S, 60)), "/data/f.bin", "pool3", Ticket.READ);
        assertEquals(door2Ticket().token(), fromPool2.token());
        assertEquals(door2Ticket().subject(), pool.verifyGrant(fromPool2).subject());
    }

    /** The door's ticket to pool2, admitted there (so carrying itself as the grant). */
    private Ticket door2Ticket() {
        Ticket t = new Ticket("/data/f.bin", "pool2", Ticket.READ, NOW_S, NOW_S + 60, ALICE_TOKEN.name(), "door1", null, 10, 5,
                null, List.of(), CredentialMode.TOKEN, "https://door.example.org:2880/.gridcache/credential", List.of(), null,
                tokenTicket("/data/f.bin", "/data", Ticket.READ).token());
        return t.withGrant(door.sign(t));
    }

    @Test
    void aPoolForwardedTicketCannotDropOrWidenTheScopes() throws Exception {
        TicketCodec pool2 = codec(POOL_KEY);
        Ticket doors = door2Ticket();
        // dropped: no scopes, no caveats, but the door's ticket inside has them
        Ticket dropped = doors.withToken(new TokenGrant(ALICE_TOKEN, null, List.of(), doors.token().tokenRef()))
                .forPool("pool3", "pool2", NOW_S, 60);
        Ticket droppedBack = pool.verify(pool2.sign(dropped), "/data/f.bin", "pool3", Ticket.READ);
        TicketException e = assertThrows(TicketException.class, () -> pool.verifyGrant(droppedBack));
        assertEquals("a pool's ticket does not match the door's ticket it carries", e.getMessage());
        // widened: scopes for / instead of /data
        Ticket widened = doors.withToken(new TokenGrant(ALICE_TOKEN, Grants.of(new PathGrant(Activity.READING, "/")),
                doors.token().caveats(), doors.token().tokenRef())).forPool("pool3", "pool2", NOW_S, 60);
        Ticket widenedBack = pool.verify(pool2.sign(widened), "/data/f.bin", "pool3", Ticket.READ);
        assertThrows(TicketException.class, () -> pool.verifyGrant(widenedBack));
        // dropped altogether, with the door's ticket left out: a token subject's pool ticket must carry it
        Ticket bare = new Ticket("/data/f.bin", "pool3", Ticket.READ, NOW_S, NOW_S + 60, ALICE_TOKEN.name(), "pool:pool2", null,
                10, 5, null, List.of(), CredentialMode.NONE, null, List.of());
        Ticket bareBack = pool.verify(pool2.sign(bare), "/data/f.bin", "pool3", Ticket.READ);
        assertTrue(bareBack.needsDoorGrant(), "a token subject's name alone asks for the door's ticket");
        TicketException missing = assertThrows(TicketException.class, () -> pool.verifyGrant(bareBack));
        assertEquals("a pool's ticket for a token's subject must carry the door's ticket", missing.getMessage());
    }
}
