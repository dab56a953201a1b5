package org.gridcache.door.delegation;

import static org.gridcache.door.delegation.DelegationFixtures.ALICE;
import static org.gridcache.door.delegation.DelegationFixtures.fqansOf;
import static org.gridcache.door.delegation.DelegationFixtures.sign;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import eu.emi.security.authn.x509.X509Credential;
import eu.emi.security.authn.x509.proxy.ProxyUtils;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.gridcache.common.origin.CredentialMode;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.ticket.TicketCodec;
import org.gridcache.common.ticket.TicketKeys;
import org.gridcache.common.ticket.TicketSigningKey;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridSubject;
import org.gridcache.common.security.TestPki;
import org.gridcache.common.authz.BearerIdentity;
import org.gridcache.common.authz.TokenGrant;
import org.gridcache.door.auth.TokenVault;
import org.gridcache.door.exchange.DoorException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the credential endpoint hands out, and to whom (ARCHITECTURE.md, "Trust model"). */
class CredentialServiceTest {
    private static final String POOL_DN = "/DC=org/DC=example/OU=hosts/CN=localhost";
    private static final String OTHER_POOL_DN = "/DC=org/DC=example/OU=hosts/CN=pool2.example.org";
    private final TicketSigningKey doorKey = TicketSigningKey.generate();
    private final TicketSigningKey poolKey = TicketSigningKey.generate();
    private final TicketCodec door = TicketCodec.of("door1", doorKey, List.of(doorKey));
    private DelegationStore store;
    private CredentialService service;
    private X509Certificate[] hostChain;
    private X509Credential alice;
    private TokenVault vault;
    /** The request's Accept header in {@link #call}, and what the response was given. */
    private String accept;
    private final Map<String, String> answered = new HashMap<>();

    @BeforeEach
    void setUp() throws Exception {
        Path pki = TestPki.get();
        store = new DelegationStore(DelegationFixtures.trust(), null, Duration.ofDays(7), DelegationFixtures.clockAtNow());
        String csr = store.request(ALICE, "d1");
        store.put(ALICE, "d1", sign(csr, "alice", 7200));
        alice = store.forSession(ALICE, List.of()).orElseThrow().credential();
        hostChain = GridCredentials.load(pki.resolve("host/cert.pem"), pki.resolve("host/key.pem")).getCertificateChain();
        List<PoolRecord> pools = List.of(pool("p1", POOL_DN), pool("p2", OTHER_POOL_DN));
        vault = new TokenVault(Clock.systemUTC());
        service = new CredentialService(store, door, "door1", Set.of(POOL_DN, OTHER_POOL_DN), () -> pools, vault);
    }

    private static PoolRecord pool(String id, String dn) {
        return new PoolRecord(id, "https://" + id + ":20000", "s", 1, 1, 0, 0, 0, "v", 0, PoolRecord.ENABLED, 0, 0, dn);
    }

    /** A ticket for a session without VOMS attributes, as alice's plain proxy (delegation d1) presents. */
    private String ticket(String pool) {
        return ticket(pool, List.of());
    }

    private String ticket(String pool, List<String> fqans) {
        return ticket(pool, fqans, Ticket.READ);
    }

    private String ticket(String pool, List<String> fqans, String operation) {
        long now = Instant.now().getEpochSecond();
        return door.sign(new Ticket("/atlas/f.bin", pool, operation, now, now + 60, ALICE, "door1", null, 10, 5,
                fqans.isEmpty() ? null : "atlas", fqans, CredentialMode.USER, "https://door:2880/.gridcache/credential", List.of()));
    }

    @Test
    void handsThePoolAShortLivedProxyOfTheDelegationNotTheDelegation() throws Exception {
        String pem = call(GridSubject.of(POOL_DN), hostChain, ticket("p1"));
        X509Credential handed = GridCredentials.fromPem(pem);
        X509Certificate[] chain = handed.getCertificateChain();
        X509Certificate[] delegation = alice.getCertificateChain();
        assertEquals(delegation.length + 1, chain.length, "one proxy below the delegation's chain");
        assertArrayEquals(delegation[0].getEncoded(), chain[1].getEncoded(), "signed by the delegation");
        assertEquals(delegation[0].getSubjectX500Principal(), chain[0].getIssuerX500Principal());
        assertTrue(ProxyUtils.isProxy(chain[0]));
        assertNotEquals(alice.getKey(), handed.getKey(), "a fresh key: the delegated key never leaves the door");
        assertFalse(pem.contains(GridCredentials.toPem(alice).split("-----BEGIN")[2]), "not the delegation's key");
        assertTrue(chain[0].getSigAlgName().equalsIgnoreCase("SHA256withRSA"), chain[0].getSigAlgName());
        Duration lifetime = Duration.between(chain[0].getNotBefore().toInstant(), chain[0].getNotAfter().toInstant());
        assertTrue(lifetime.compareTo(Duration.ofHours(1)) <= 0, lifetime.toString());
        assertTrue(!chain[0].getNotAfter().after(delegation[0].getNotAfter()));
        assertEquals(ProxyUtils.getOriginalUserDN(delegation), ProxyUtils.getOriginalUserDN(chain));
    }

    @Test
    void aPoolGetsTheProxyDerivedForItAgainButNeverAfterTheDelegationIsDestroyed() throws Exception {
        X509Certificate first = GridCredentials.fromPem(call(GridSubject.of(POOL_DN), hostChain, ticket("p1"))).getCertificateChain()[0];
        X509Certificate again = GridCredentials.fromPem(call(GridSubject.of(POOL_DN), hostChain, ticket("p1"))).getCertificateChain()[0];
        assertArrayEquals(first.getEncoded(), again.getEncoded(), "no new key pair for the same pool's next miss");
        X509Certificate other = GridCredentials.fromPem(call(GridSubject.of(OTHER_POOL_DN), hostChain, ticket("p2"))).getCertificateChain()[0];
        assertNotEquals(first.getPublicKey(), other.getPublicKey(), "each pool has a proxy of its own");

        assertTrue(store.destroy(ALICE, "d1"));
        DoorException destroyed = assertThrows(DoorException.class, () -> call(GridSubject.of(POOL_DN), hostChain, ticket("p1")));
        assertEquals(404, destroyed.status(), "the kept proxy is not handed out once its delegation is gone");

        store.put(ALICE, "d1", sign(store.request(ALICE, "d1"), "alice", 7200));
        X509Certificate renewed = GridCredentials.fromPem(call(GridSubject.of(POOL_DN), hostChain, ticket("p1"))).getCertificateChain()[0];
        assertNotEquals(first.getPublicKey(), renewed.getPublicKey(), "a new delegation, a new proxy");
    }

    @Test
    void aKeptProxyIsHandedOutOnlyWhileHalfItsLifeRemains() throws Exception {
        DerivedProxies derived = new DerivedProxies();
        Instant now = Instant.now();
        int[] derivations = {0};
        java.util.function.Function<Instant, X509Credential> derive = at -> {
            derivations[0]++;
            return CredentialService.proxyOf(alice, at);
        };
        X509Credential first = derived.forPool(alice, POOL_DN, now, derive);
        assertSame(first, derived.forPool(alice, POOL_DN, now.plus(Duration.ofMinutes(20)), derive));
        assertEquals(1, derivations[0]);
        // the proxy started a minute in the past and lives an hour: 35 minutes on, less than half an hour is left
        X509Credential later = derived.forPool(alice, POOL_DN, now.plus(Duration.ofMinutes(35)), derive);
        assertNotSame(first, later);
        assertEquals(2, derivations[0]);
        assertSame(later, derived.forPool(alice, POOL_DN, now.plus(Duration.ofMinutes(36)), derive));
    }

    @Test
    void aDelegationWhoseProxyForbidsAnotherLevelIsHandedOutItself() throws Exception {
        // alice-atlas (voms-proxy-fake) allows one proxy below it: the delegation; a further one would not verify
        store.put(ALICE, "d2", sign(store.request(ALICE, "d2"), "alice-atlas", 10_800));
        List<String> atlas = fqansOf("alice-atlas");
        X509Credential handed = GridCredentials.fromPem(call(GridSubject.of(POOL_DN), hostChain, ticket("p1", atlas)));
        assertArrayEquals(store.forSession(ALICE, atlas).orElseThrow().credential().getCertificateChain()[0].getEncoded(),
                handed.getCertificateChain()[0].getEncoded());
    }

    @Test
    void handsOutOnlyTheDelegationOfTheTicketsAttributes() throws Exception {
        store.put(ALICE, "d2", sign(store.request(ALICE, "d2"), "alice-atlas", 10_800));
        // an /atlas ticket gets the /atlas delegation, never d1 (no attributes) nor, for /cms, the /atlas one
        X509Credential atlas = GridCredentials.fromPem(call(GridSubject.of(POOL_DN), hostChain, ticket("p1", fqansOf("alice-atlas"))));
        assertArrayEquals(store.forSession(ALICE, fqansOf("alice-atlas")).orElseThrow().credential().getCertificateChain()[0].getEncoded(),
                atlas.getCertificateChain()[0].getEncoded());
        DoorException cms = assertThrows(DoorException.class,
                () -> call(GridSubject.of(POOL_DN), hostChain, ticket("p1", fqansOf("alice-cms"))));
        assertEquals(404, cms.status(), "a /cms session has no delegation here: nothing is handed out");
        assertEquals("the delegated credential has expired or was destroyed", cms.getMessage());
    }

    @Test
    void neverOutlivesTheDelegation() throws Exception {
        Instant late = alice.getCertificateChain()[0].getNotAfter().toInstant().minus(Duration.ofMinutes(10));
        X509Certificate proxy = CredentialService.proxyOf(alice, late).getCertificateChain()[0];
        assertEquals(alice.getCertificateChain()[0].getNotAfter(), proxy.getNotAfter());
    }

    @Test
    void aWriteTicketGetsTheUsersCredentialForTheUploadAnyOtherOperationNothing() throws Exception {
        // a PUT redirected to a pool: the pool writes to the origin as the user (the bug: only read tickets were served)
        X509Credential handed = GridCredentials.fromPem(call(GridSubject.of(POOL_DN), hostChain, ticket("p1", List.of(), Ticket.WRITE)));
        assertEquals(ProxyUtils.getOriginalUserDN(alice.getCertificateChain()), ProxyUtils.getOriginalUserDN(handed.getCertificateChain()));
        DoorException e = assertThrows(DoorException.class,
                () -> call(GridSubject.of(POOL_DN), hostChain, ticket("p1", List.of(), "delete")));
        assertEquals(403, e.status());
    }

    /** A third-party copy presenting the user's proxy to the remote (Credential: gridsite) gets it; one with none does not. */
    @Test
    void aThirdPartyCopyGetsTheUsersCredentialOnlyForGridsite() throws Exception {
        long now = Instant.now().getEpochSecond();
        String gridsite = door.sign(new Ticket("/atlas/f.bin", "p1", Ticket.TPC_PULL, now, now + 60, ALICE, "door1", null, -1, -1,
                null, List.of(), CredentialMode.NONE, "https://door:2880/.gridcache/credential", List.of(), null, null,
                "https://remote.example.org/f.bin", Ticket.REMOTE_GRIDSITE));
        X509Credential handed = GridCredentials.fromPem(call(GridSubject.of(POOL_DN), hostChain, gridsite));
        assertEquals(ProxyUtils.getOriginalUserDN(alice.getCertificateChain()), ProxyUtils.getOriginalUserDN(handed.getCertificateChain()));
        String none = door.sign(new Ticket("/atlas/f.bin", "p1", Ticket.TPC_PUSH, now, now + 60, ALICE, "door1", null, 10, 5,
                null, List.of(), CredentialMode.NONE, "https://door:2880/.gridcache/credential", List.of(), null, null,
                "https://remote.example.org/f.bin", Ticket.REMOTE_NONE));
        DoorException e = assertThrows(DoorException.class, () -> call(GridSubject.of(POOL_DN), hostChain, none));
        assertEquals(400, e.status());
    }

    @Test
    void refusesAProxyOfTheHostCertificate() throws Exception {
        // the host credential as a client would hand it on: a proxy certificate below it
        X509Credential host = GridCredentials.load(TestPki.get().resolve("host/cert.pem"), TestPki.get().resolve("host/key.pem"));
        X509Certificate[] proxyChain = CredentialService.proxyOf(host, Instant.now()).getCertificateChain();
        DoorException e = assertThrows(DoorException.class, () -> call(GridSubject.of(POOL_DN), proxyChain, ticket("p1")));
        assertEquals(403, e.status());
        assertTrue(e.getMessage().contains("proxy certificate"), e.getMessage());
    }

    /** A PUT the door redirected to the pool is written to the origin as the user, as a read is fetched. */
    @Test
    void handsThePoolTheUsersCredentialForAnUploadAndForNoOtherOperation() throws Exception {
        X509Credential handed = GridCredentials.fromPem(call(GridSubject.of(POOL_DN), hostChain, ticket("p1", List.of(), Ticket.WRITE)));
        assertEquals(ProxyUtils.getOriginalUserDN(alice.getCertificateChain()), ProxyUtils.getOriginalUserDN(handed.getCertificateChain()));
        DoorException e = assertThrows(DoorException.class,
                () -> call(GridSubject.of(POOL_DN), hostChain, ticket("p1", List.of(), "delete")));
        assertEquals(403, e.status());
        assertTrue(e.getMessage().contains("another operation"), e.getMessage());
    }

    @Test
    void refusesAnotherPoolsTicket() {
        DoorException e = assertThrows(DoorException.class, () -> call(GridSubject.of(OTHER_POOL_DN), hostChain, ticket("p1")));
        assertEquals(403, e.status());
        assertTrue(e.getMessage().contains("another pool"), e.getMessage());
    }

    @Test
    void refusesATicketAPoolSigned() {
        long now = Instant.now().getEpochSecond();
        Ticket forPeer = new Ticket("/atlas/f.bin", "p1", Ticket.READ, now, now + 60, ALICE, "door1", null, 10, 5,
                "atlas", List.of("/atlas"), CredentialMode.USER, "https://door:2880/.gridcache/credential", List.of());
        // a pool's key, even claiming to be the door
        String minted = new TicketCodec(poolKey, TicketKeys.of("pool:p2", List.of(poolKey)), TicketCodec.DEFAULT_MAX_LIFETIME,
                Clock.systemUTC()).sign(forPeer);
        DoorException e = assertThrows(DoorException.class, () -> call(GridSubject.of(POOL_DN), hostChain, minted));
        assertEquals(403, e.status());
        assertTrue(e.getMessage().contains("does not publish"), e.getMessage());
    }

    @Test
    void refusesACallerThatIsNoPool() {
        DoorException e = assertThrows(DoorException.class, () -> call(GridSubject.of(ALICE), hostChain, ticket("p1")));
        assertEquals(403, e.status());
    }

    @Test
    void refusesABearerTokensSubject() {
        GridSubject token = GridSubject.ofToken(new org.gridcache.common.authz.BearerIdentity("https://iss", "p1"), java.util.List.of(), null);
        DoorException e = assertThrows(DoorException.class, () -> call(token, hostChain, ticket("p1")));
        assertEquals(401, e.status());
        assertEquals("the credential service needs a pool's host certificate", e.reason());
    }

    /** A macaroon minted by a pool's identity names the pool's DN, but whoever holds it is not the pool. */
    @Test
    void refusesAMacaroonNamingAPoolsDn() {
        GridSubject macaroon = GridSubject.of(POOL_DN).withCaveats(org.gridcache.common.authz.Grants.of(
                new org.gridcache.common.authz.PathGrant(java.util.Set.of(org.gridcache.common.authz.Activity.DOWNLOAD), "/")));
        DoorException e = assertThrows(DoorException.class, () -> call(macaroon, hostChain, ticket("p1")));
        assertEquals(401, e.status());
        assertEquals("the credential service needs a pool's host certificate", e.reason());
    }

    private static final String TOKEN = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl";
    private static final BearerIdentity ALICE_TOKEN = new BearerIdentity("https://iss.example.org", "alice");

    /** A ticket of a token origin naming the token whose reference is {@code ref}. */
    private String tokenTicket(String pool, String ref, String operation) {
        long now = Instant.now().getEpochSecond();
        return door.sign(new Ticket("/token/f.bin", pool, operation, now, now + 60, ALICE_TOKEN.name(), "door1", null, 10, 5,
                null, List.of(), CredentialMode.TOKEN, "https://door:2880/.gridcache/credential", List.of(), null,
                new TokenGrant(ALICE_TOKEN, null, List.of(), ref)));
    }

    @Test
    void handsThePoolTheBearerTokenOfATokenTicketAsJsonNeverCached() throws Exception {
        String ref = vault.keep(TOKEN);
        for (String operation : List.of(Ticket.READ, Ticket.WRITE)) {
            answered.clear();
            String json = call(GridSubject.of(POOL_DN), hostChain, tokenTicket("p1", ref, operation));
            Map<?, ?> answer = org.gridcache.common.Json.read(json.getBytes(StandardCharsets.UTF_8), Map.class);
            assertEquals(TOKEN, answer.get("access_token"));
            assertEquals("Bearer", answer.get("token_type"));
            long expiresAt = ((Number) answer.get("expires_at")).longValue();
            assertTrue(expiresAt > Instant.now().getEpochSecond(), json);
            assertEquals("no-store", answered.get("Cache-Control"));
            assertEquals("application/json", answered.get("Content-Type"));
        }
    }

    @Test
    void handsTheTokenAloneAsTextWhenAskedFor() throws Exception {
        accept = "text/plain";
        String text = call(GridSubject.of(POOL_DN), hostChain, tokenTicket("p1", vault.keep(TOKEN), Ticket.READ));
        assertEquals(TOKEN + "\n", text);
        assertEquals("no-store", answered.get("Cache-Control"));
        assertTrue(answered.get("Content-Type").startsWith("text/plain"), answered.toString());
    }

    @Test
    void aTokenTheVaultNoLongerHoldsIs404() {
        DoorException e = assertThrows(DoorException.class,
                () -> call(GridSubject.of(POOL_DN), hostChain, tokenTicket("p1", TokenVault.ref("forgotten"), Ticket.READ)));
        assertEquals(404, e.status());
        assertEquals("the bearer token has expired or is no longer held by this door", e.getMessage());
    }

    @Test
    void aTokenTicketIsHandedOnlyToItsOwnPoolAndOnlyWithAReference() {
        String ref = vault.keep(TOKEN);
        DoorException other = assertThrows(DoorException.class,
                () -> call(GridSubject.of(OTHER_POOL_DN), hostChain, tokenTicket("p1", ref, Ticket.READ)));
        assertEquals(403, other.status());
        DoorException noPool = assertThrows(DoorException.class,
                () -> call(GridSubject.of(ALICE), hostChain, tokenTicket("p1", ref, Ticket.READ)));
        assertEquals(403, noPool.status());
        DoorException noRef = assertThrows(DoorException.class,
                () -> call(GridSubject.of(POOL_DN), hostChain, tokenTicket("p1", null, Ticket.READ)));
        assertEquals(400, noRef.status());
        assertEquals("ticket names no bearer token", noRef.getMessage());
    }

    private String call(GridSubject caller, X509Certificate[] chain, String token) throws Exception {
        Map<String, Object> attributes = new HashMap<>();
        attributes.put("jakarta.servlet.request.X509Certificate", chain);
        HttpServletRequest request = (HttpServletRequest) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (p, m, args) -> switch (m.getName()) {
                    case "getMethod" -> "GET";
                    case "getParameter" -> Ticket.QUERY_PARAMETER.equals(args[0]) ? token : null;
                    case "getAttribute" -> attributes.get((String) args[0]);
                    case "getHeader" -> "Accept".equalsIgnoreCase((String) args[0]) ? accept : null;
                    default -> null;
                });
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        ServletOutputStream out = new ServletOutputStream() {
            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setWriteListener(WriteListener listener) {
            }

            @Override
            public void write(int b) {
                body.write(b);
            }
        };
        HttpServletResponse response = (HttpServletResponse) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {HttpServletResponse.class}, (p, m, args) -> {
                    switch (m.getName()) {
                        case "getOutputStream" -> {
                            return out;
                        }
                        case "setHeader" -> answered.put((String) args[0], (String) args[1]);
                        case "setContentType" -> answered.put("Content-Type", (String) args[0]);
                        default -> {
                        }
                    }
                    return null;
                });
        service.handle(request, response, caller);
        return body.toString(StandardCharsets.US_ASCII);
    }
}
