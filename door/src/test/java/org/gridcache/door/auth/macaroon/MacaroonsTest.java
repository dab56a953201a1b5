package org.gridcache.door.auth.macaroon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.nitram509.jmacaroons.Macaroon;
import com.github.nitram509.jmacaroons.MacaroonsBuilder;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.Json;
import org.gridcache.common.authz.Activity;
import org.gridcache.common.authz.BearerIdentity;
import org.gridcache.common.authz.Grants;
import org.gridcache.common.authz.PathGrant;
import org.gridcache.common.security.Authentication;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.auth.BearerSubjectResolver;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.zk.EmbeddedZooKeeper;
import org.gridcache.zk.MacaroonSecrets;
import org.gridcache.zk.Zk;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Minting and verifying with the cluster's root key in a real embedded ZooKeeper; every refusal. */
class MacaroonsTest {
    private static final String DOOR = "https://door.example.org:2880";
    private static final GridSubject ALICE = new GridSubject("/DC=org/DC=example/CN=Alice", "atlas", List.of("/atlas"), false);
    private static final Instant NOW = Instant.parse("2030-01-01T12:00:00Z");
    private static final String LOCAL = "127.0.0.1";
    private static EmbeddedZooKeeper server;
    private static CuratorFramework zk;
    private static MacaroonSecrets secrets;
    @TempDir
    static Path dir;
    private final MacaroonIssuer issuer = new MacaroonIssuer(secrets, () -> Duration.ofDays(7), Clock.fixed(NOW, java.time.ZoneOffset.UTC));
    private final MacaroonVerifier verifier = verifierAt(NOW.plusSeconds(60));

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedZooKeeper.start(dir, "127.0.0.1", 0);
        zk = Zk.connect(server.connectString());
        secrets = new MacaroonSecrets(zk).start(Duration.ofSeconds(10));
    }

    @AfterAll
    static void stop() throws Exception {
        secrets.close();
        zk.close();
        server.close();
    }

    private static MacaroonVerifier verifierAt(Instant now) {
        return new MacaroonVerifier(secrets, () -> Duration.ofDays(7), Clock.fixed(now, java.time.ZoneOffset.UTC));
    }

    private static HttpServletRequest from(String address) {
        return Exchanges.request("GET", true, address, Map.of(), "");
    }

    private String mint(GridSubject subject, String path, String body) {
        return issuer.mint(subject, path, MacaroonRequest.parse(body.getBytes(), path), DOOR).macaroon();
    }

    private String downloadOnly() {
        return mint(ALICE, "/data", "{\"caveats\": [\"activity:DOWNLOAD,LIST\", \"path:sub\", \"ip:127.0.0.0/8\"], \"validity\": \"PT1H\"}");
    }

    private GridSubject verified(String macaroon, String address) {
        return verifier.verify(macaroon, from(address)).orElseThrow();
    }

    private DoorException refused(String macaroon, MacaroonVerifier by, String address) {
        DoorException e = assertThrows(DoorException.class, () -> by.verify(macaroon, from(address)));
        assertEquals(401, e.status());
        assertFalse(e.reason().contains(macaroon), "no token quoted");
        return e;
    }

    private static boolean allows(GridSubject subject, Activity activity, String path) {
        return subject.allows(activity, path, () -> true); // the policy would allow everything: only the caveats bound
    }

    @Test
    void aMintedMacaroonActsAsItsIssuerWithinItsCaveats() {
        GridSubject subject = verified(downloadOnly(), LOCAL);
        assertEquals(ALICE.dn(), subject.dn());
        assertEquals(List.of("/atlas"), subject.fqans());
        assertEquals("atlas", subject.vo());
        assertTrue(allows(subject, Activity.DOWNLOAD, "/data/sub/file"));
        assertTrue(allows(subject, Activity.LIST, "/data/sub"));
        assertTrue(allows(subject, Activity.READ_METADATA, "/data/sub/file"), "a stat comes with every activity");
        assertFalse(allows(subject, Activity.UPLOAD, "/data/sub/new"));
        assertFalse(allows(subject, Activity.DELETE, "/data/sub/file"));
        assertFalse(allows(subject, Activity.DOWNLOAD, "/data/other"), "outside its path");
        assertFalse(allows(subject, Activity.DOWNLOAD, "/data/subway"), "whole components");
        assertFalse(subject.allows(Activity.DOWNLOAD, "/data/sub/file", () -> false), "today's policy is asked again");
    }

    @Test
    void theMacaroonCarriesDCachesCaveatsAndIsUrlSafe() {
        Macaroon m = MacaroonsBuilder.deserialize(downloadOnly());
        List<String> caveats = java.util.Arrays.stream(m.caveatPackets).map(c -> c.getValueAsText()).toList();
        assertTrue(caveats.get(0).startsWith("id:{\"dn\":\"/DC=org/DC=example/CN=Alice\""), caveats.get(0));
        assertEquals("before:2030-01-01T13:00:00Z", caveats.get(1));
        assertEquals(List.of("activity:DOWNLOAD,LIST", "path:/data/sub", "ip:127.0.0.0/8"), caveats.subList(2, 5));
        assertEquals(DOOR, m.location);
        assertTrue(downloadOnly().matches("[A-Za-z0-9_-]+"), "base64url: goes into ?authz= as it is");
    }

    @Test
    void withoutCaveatsAMacaroonIsBoundToTheRequestPathAndLivesADay() {
        String m = mint(ALICE, "/data/x", "");
        List<String> caveats = java.util.Arrays.stream(MacaroonsBuilder.deserialize(m).caveatPackets).map(c -> c.getValueAsText()).toList();
        assertEquals(List.of("before:2030-01-02T12:00:00Z", "path:/data/x"), caveats.subList(1, 3));
        GridSubject subject = verified(m, "10.1.2.3");
        assertTrue(allows(subject, Activity.DELETE, "/data/x/y"), "every activity, as its issuer");
        assertFalse(allows(subject, Activity.DOWNLOAD, "/data/y"));
    }

    @Test
    void aTokenSubjectsMacaroonKeepsItsScopes() {
        GridSubject token = GridSubject.ofToken(new BearerIdentity("https://issuer.example", "42"), List.of("/atlas"),
                Grants.of(PathGrant.decode("DOWNLOAD,LIST,READ_METADATA:/data")));
        GridSubject subject = verified(mint(token, "/data", ""), LOCAL);
        assertEquals("token:42@https://issuer.example", subject.name());
        assertTrue(allows(subject, Activity.DOWNLOAD, "/data/f"));
        assertFalse(allows(subject, Activity.UPLOAD, "/data/f"), "the token's scopes still decide");
    }

    @Test
    void aSignatureMadeWithAnotherKeyDoesNotVerify() {
        Macaroon real = MacaroonsBuilder.deserialize(downloadOnly());
        MacaroonsBuilder forged = new MacaroonsBuilder(real.location, new byte[32], real.identifier);
        java.util.Arrays.stream(real.caveatPackets).forEach(c -> forged.add_first_party_caveat(c.getValueAsText()));
        assertEquals("macaroon does not verify", refused(forged.getMacaroon().serialize(), verifier, LOCAL).reason());
        Macaroon dropped = new MacaroonsBuilder(real.location, new byte[32], real.identifier).getMacaroon();
        assertEquals("macaroon does not verify", refused(dropped.serialize(), verifier, LOCAL).reason(),
                "no caveat can be taken away either");
    }

    @Test
    void aMacaroonOfAnUnknownKeyIsRefused() {
        Macaroon real = MacaroonsBuilder.deserialize(downloadOnly());
        String other = "0123456789abcdef" + real.identifier.substring(real.identifier.indexOf(':'));
        String m = new MacaroonsBuilder(real.location, new byte[32], other).getMacaroon().serialize();
        assertTrue(refused(m, verifier, LOCAL).reason().contains("root key is unknown"));
    }

    @Test
    void anExpiredMacaroonIsRefused() {
        String m = downloadOnly();
        assertTrue(refused(m, verifierAt(NOW.plus(Duration.ofHours(1))), LOCAL).reason().contains("expired at 2030-01-01T13:00:00Z"));
        assertTrue(verifierAt(NOW.plus(Duration.ofMinutes(59))).verify(m, from(LOCAL)).isPresent());
    }

    @Test
    void aMacaroonUsedFromAnotherAddressIsRefused() {
        assertTrue(refused(downloadOnly(), verifier, "10.1.2.3").reason().contains("not valid from 10.1.2.3"));
        assertTrue(verifier.verify(downloadOnly(), from("127.9.9.9")).isPresent());
    }

    private static String appended(String macaroon, String caveat) {
        return MacaroonsBuilder.modify(MacaroonsBuilder.deserialize(macaroon)).add_first_party_caveat(caveat).getMacaroon().serialize();
    }

    @Test
    void aWidenedActivityStillAllowsOnlyWhatTheFirstDid() {
        GridSubject subject = verified(appended(downloadOnly(), "activity:DOWNLOAD,UPLOAD,DELETE"), LOCAL);
        assertFalse(allows(subject, Activity.UPLOAD, "/data/sub/new"));
        assertFalse(allows(subject, Activity.DELETE, "/data/sub/file"));
        assertFalse(allows(subject, Activity.LIST, "/data/sub"), "the appended caveat narrows: LIST is gone");
        assertTrue(allows(subject, Activity.DOWNLOAD, "/data/sub/file"));
    }

    @Test
    void aWidenedPathStillAllowsOnlyTheFirst() {
        GridSubject subject = verified(appended(appended(downloadOnly(), "path:/"), "ip:0.0.0.0/0"), LOCAL);
        assertFalse(allows(subject, Activity.DOWNLOAD, "/data/other"));
        assertTrue(allows(subject, Activity.DOWNLOAD, "/data/sub/file"));
        assertTrue(refused(appended(downloadOnly(), "ip:0.0.0.0/0"), verifier, "10.1.2.3").reason().contains("not valid from"));
        GridSubject narrower = verified(appended(downloadOnly(), "path:/data/sub/deeper"), LOCAL);
        assertFalse(allows(narrower, Activity.DOWNLOAD, "/data/sub/file"), "a holder may narrow further");
    }

    @Test
    void anUnknownCaveatIsRefused() {
        assertTrue(refused(appended(downloadOnly(), "home:/x"), verifier, LOCAL).reason().contains("unknown caveat 'home'"));
        assertTrue(refused(appended(downloadOnly(), "before:tomorrow"), verifier, LOCAL).reason().contains("ISO-8601"));
        assertTrue(refused(appended(downloadOnly(), "activity:FLY"), verifier, LOCAL).reason().contains("unknown activity"));
    }

    @Test
    void aSecondIdIsRefused() {
        String bob = "id:{\"dn\":\"/DC=org/DC=example/CN=Bob\"}";
        assertTrue(refused(appended(downloadOnly(), bob), verifier, LOCAL).reason().contains("names its issuer twice"));
    }

    @Test
    void aThirdPartyCaveatIsRefused() {
        String m = MacaroonsBuilder.modify(MacaroonsBuilder.deserialize(downloadOnly()))
                .add_third_party_caveat("https://auth.example", "a secret", "who-am-i").getMacaroon().serialize();
        assertTrue(refused(m, verifier, LOCAL).reason().contains("third-party"));
    }

    @Test
    void whatIsNoMacaroonOfThisClusterIsLeftToTheOtherVerifiers() {
        assertEquals(Optional.empty(), verifier.verify("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln", from(LOCAL)), "a JWT");
        String foreign = new MacaroonsBuilder("https://dcache.example", "key", "dcache-style-id").getMacaroon().serialize();
        assertEquals(Optional.empty(), verifier.verify(foreign, from(LOCAL)));
    }

    @Test
    void theBearerResolverTakesTheHeaderOrTheAuthzParameterOverHttpsOnly() {
        BearerSubjectResolver resolver = new BearerSubjectResolver(List.of(verifier), request -> GridSubject.ANONYMOUS);
        String m = downloadOnly();
        assertEquals(ALICE.dn(), resolver.resolve(Exchanges.request("GET", true, LOCAL, Map.of("Authorization", "Bearer " + m), "")).dn());
        assertEquals(ALICE.dn(), resolver.resolve(Exchanges.request("GET", true, LOCAL, Map.of("?", "x=1&authz=" + m), "")).dn());
        assertTrue(resolver.resolve(Exchanges.request("GET", true, LOCAL, Map.of(), "")).anonymous());
        DoorException clear = assertThrows(DoorException.class,
                () -> resolver.resolve(Exchanges.request("GET", false, LOCAL, Map.of("?", "authz=" + m), "")));
        assertEquals(401, clear.status());
        assertTrue(clear.reason().startsWith("bearer tokens are accepted over HTTPS only"), clear.reason());
        DoorException unknown = assertThrows(DoorException.class,
                () -> resolver.resolve(Exchanges.request("GET", true, LOCAL, Map.of("Authorization", "Bearer nonsense"), "")));
        assertEquals(401, unknown.status());
    }

    // the HTTP side: MacaroonRequests

    private Exchanges.Response post(GridSubject subject, boolean secure, String body) throws Exception {
        Exchanges.Response response = new Exchanges.Response();
        new MacaroonRequests(issuer, () -> DOOR).handle(Exchanges.request("POST", secure, LOCAL,
                Map.of("Content-Type", MacaroonRequests.CONTENT_TYPE), body), response.servlet, "/data/dir one", subject);
        return response;
    }

    private DoorException postRefused(int status, GridSubject subject, boolean secure, String body) {
        DoorException e = assertThrows(DoorException.class, () -> post(subject, secure, body));
        assertEquals(status, e.status(), e.reason());
        return e;
    }

    @Test
    void aRequestIsAnsweredWithTheMacaroonAndItsUrls() throws Exception {
        Exchanges.Response response = post(ALICE, true, "{\"caveats\": [\"activity:DOWNLOAD\"], \"validity\": \"PT30M\"}");
        assertEquals(200, response.status);
        assertEquals("application/json", response.headers.get("Content-Type"));
        assertNull(response.headers.get(MacaroonRequests.CAPPED));
        JsonNode answer = Json.mapper().readTree(response.text());
        String m = answer.get("macaroon").asText();
        assertEquals(DOOR + "/data/dir%20one?authz=" + m, answer.get("uri").get("targetWithMacaroon").asText());
        assertEquals(DOOR + "/?authz=" + m, answer.get("uri").get("baseWithMacaroon").asText());
        assertTrue(allows(verified(m, LOCAL), Activity.DOWNLOAD, "/data/dir one/f"));
    }

    @Test
    void aValidityBeyondTheCapIsCutAndSaidSo() throws Exception {
        Exchanges.Response response = post(ALICE, true, "{\"validity\": \"P30D\"}");
        assertEquals(200, response.status);
        assertEquals("until 2030-01-08T12:00:00Z (macaroon.max-validity)", response.headers.get(MacaroonRequests.CAPPED));
    }

    // issue 39: the credential it was minted with, max-validity at verification, credential:gridsite

    @Test
    void aMacaroonNeverOutlivesTheCredentialItWasMintedWith() throws Exception {
        GridSubject shortToken = GridSubject.ofToken(new BearerIdentity("https://issuer.example", "42"), List.of(), null)
                .authenticatedBy(Authentication.token("https://issuer.example", "jti:t1", NOW.plusSeconds(90)));
        Exchanges.Response response = post(shortToken, true, "{\"validity\": \"P7D\"}");
        assertEquals("until 2030-01-01T12:01:30Z (the expiry of the credential it was minted with)", response.headers.get(MacaroonRequests.CAPPED));
        String m = Json.mapper().readTree(response.text()).get("macaroon").asText();
        assertTrue(verifierAt(NOW.plusSeconds(60)).verify(m, from(LOCAL)).isPresent());
        assertTrue(refused(m, verifierAt(NOW.plusSeconds(91)), LOCAL).reason().contains("expired at 2030-01-01T12:01:30Z"));
        GridSubject proxy = ALICE.authenticatedBy(Authentication.x509(NOW.plus(Duration.ofHours(12))));
        List<String> caveats = java.util.Arrays.stream(MacaroonsBuilder.deserialize(mint(proxy, "/data", "{\"validity\": \"P1D\"}"))
                .caveatPackets).map(c -> c.getValueAsText()).toList();
        assertEquals("before:2030-01-02T00:00:00Z", caveats.get(1), "the proxy's notAfter");
    }

    @Test
    void macaroonMaxValidityIsAppliedAgainAtVerification() {
        String week = mint(ALICE, "/data", "{\"validity\": \"P7D\"}");
        MacaroonVerifier lowered = new MacaroonVerifier(secrets, () -> Duration.ofDays(1), Clock.fixed(NOW, java.time.ZoneOffset.UTC));
        assertTrue(refused(week, lowered, LOCAL).reason().contains("longer than macaroon.max-validity (PT24H) from now"));
        assertTrue(lowered.verify(mint(ALICE, "/data", "{\"validity\": \"PT23H\"}"), from(LOCAL)).isPresent());
    }

    @Test
    void onlyAMacaroonMintedWithCredentialGridsiteMayActWithTheDelegation() throws Exception {
        GridSubject plain = verified(downloadOnly(), LOCAL);
        assertFalse(plain.mayActWithDelegation(), "a macaroon names Alice's DN, but may not use her proxy");
        assertFalse(verified(appended(downloadOnly(), "credential:gridsite"), LOCAL).mayActWithDelegation(), "a holder cannot grant it");
        String granted = mint(ALICE, "/data", "{\"caveats\": [\"credential:gridsite\"]}");
        GridSubject holder = verified(granted, LOCAL);
        assertTrue(holder.mayActWithDelegation());
        assertEquals(Authentication.MACAROON, holder.authentication().method());
        assertTrue(holder.toString().endsWith(" via macaroon " + MacaroonsBuilder.deserialize(granted).identifier), holder.toString());
        assertFalse(verified(appended(granted, "credential:none"), LOCAL).mayActWithDelegation(), "a holder can take it away");
        assertTrue(refused(appended(granted, "credential:x509"), verifier, LOCAL).reason().contains("gridsite or none"));
        GridSubject token = GridSubject.ofToken(new BearerIdentity("https://issuer.example", "42"), List.of(), null);
        assertTrue(postRefused(403, token, true, "{\"caveats\": [\"credential:gridsite\"]}").reason().contains("credential:gridsite"));
        assertTrue(ALICE.mayActWithDelegation(), "a client with its own certificate");
    }

    @Test
    void refusedRequests() {
        assertTrue(postRefused(401, GridSubject.ANONYMOUS, true, "{}").reason().startsWith("authentication required"));
        assertEquals("macaroons are issued over HTTPS only", postRefused(403, ALICE, false, "{}").reason());
        GridSubject holder = verified(downloadOnly(), LOCAL);
        assertTrue(postRefused(403, holder, true, "{}").reason().contains("append caveats"));
        assertTrue(postRefused(400, ALICE, true, "not json").reason().contains("not JSON"));
        assertTrue(postRefused(400, ALICE, true, "[]").reason().contains("not a JSON object"));
        assertTrue(postRefused(400, ALICE, true, "{\"caveat\": []}").reason().contains("unknown field 'caveat'"));
        assertTrue(postRefused(400, ALICE, true, "{\"caveats\": \"activity:LIST\"}").reason().contains("list of strings"));
        assertTrue(postRefused(400, ALICE, true, "{\"caveats\": [\"home:/x\"]}").reason().contains("unknown caveat 'home'"));
        assertTrue(postRefused(400, ALICE, true, "{\"caveats\": [\"activity:FLY\"]}").reason().contains("unknown activity"));
        assertTrue(postRefused(400, ALICE, true, "{\"caveats\": [\"ip:somewhere\"]}").reason().contains("CIDR"));
        assertTrue(postRefused(400, ALICE, true, "{\"caveats\": [\"path:../etc\"]}").reason().contains(".."));
        assertTrue(postRefused(400, ALICE, true, "{\"caveats\": [\"id:{}\"]}").reason().contains("the door's to write"));
        assertTrue(postRefused(400, ALICE, true, "{\"caveats\": [\"before:2031-01-01T00:00:00Z\"]}").reason().contains("validity"));
        assertTrue(postRefused(400, ALICE, true, "{\"validity\": \"30 minutes\"}").reason().contains("ISO-8601"));
        assertTrue(postRefused(400, ALICE, true, "{\"validity\": \"-PT1H\"}").reason().contains("positive"));
    }
}
