package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.nitram509.jmacaroons.MacaroonsBuilder;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39: a bearer credential reaches no further and lives no longer than its grant. {@code gridcache standalone}
 * over HTTPS trusts two token issuers, each with its {@code groups} map: ATLAS' maps {@code /atlas}, a low-trust one
 * maps nothing. The policy gives {@code /atlas} to the VOMS group {@code /atlas} only. A low-trust token claiming
 * {@code /atlas} writes nothing there (row 6), and a door given two issuers without maps does not start. A 90-second
 * token mints a macaroon that dies with it (row 5). Transfer records and the door's log say how each reader
 * authenticated: the token's issuer and jti, the macaroon's identifier (row 11), never the credential.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class CredentialReachTest {
    static final String ATLAS = "https://atlas-auth.gridcache.test";
    static final String LOW = "https://low-trust.gridcache.test";
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    static Path tmp;
    static Path pkiParent;
    static Path pki;
    static Path data;
    static NginxOrigin origin;
    static Standalone gridcache;
    static String door;
    static String audience;
    static RSAKey atlasKey;
    static RSAKey lowKey;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx", "openssl", "grid-proxy-init", "voms-proxy-fake");
        pkiParent = GridEnv.worldReadableDir("gridcache-test-pki");
        pki = GridEnv.pki(pkiParent.resolve("pki"));
        data = Files.createDirectories(tmp.resolve("data"));
        Tools.randomFile(Files.createDirectories(data.resolve("atlas")).resolve("a.bin"), 600_000, 391);
        origin = NginxOrigin.startWritable(tmp.resolve("nginx"), data);
        atlasKey = new RSAKeyGenerator(2048).keyID("atlas").generate();
        lowKey = new RSAKeyGenerator(2048).keyID("low").generate();
        Files.writeString(tmp.resolve("atlas.jwks"), new JWKSet(atlasKey).toPublicJWKSet().toString());
        Files.writeString(tmp.resolve("low.jwks"), new JWKSet(lowKey).toPublicJWKSet().toString());
        Path issuers = Files.writeString(tmp.resolve("issuers.json"), """
                [{"issuer": "%s", "jwks": "atlas.jwks", "groups": {"/atlas": "/atlas"}},
                 {"issuer": "%s", "jwks": "low.jwks", "groups": {}}]
                """.formatted(ATLAS, LOW));
        Path policy = Files.writeString(tmp.resolve("authz.conf"), "fqan:/atlas /atlas list,read,write\n");
        gridcache = Standalone.startHttps(Files.createDirectories(tmp.resolve("https")), origin.url(), pki,
                "--token-issuers", issuers.toString(), "--authz", policy.toString());
        door = gridcache.door();
        audience = door.replace("https://localhost:", "https://127.0.0.1:");
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
        if (pkiParent != null) {
            Tools.run(Duration.ofMinutes(1), "rm", "-rf", pkiParent.toString());
        }
    }

    /** A token of {@code issuer} with only groups (no storage scopes: the policy decides), valid until {@code exp}. */
    static String token(String issuer, RSAKey key, String jti, Instant exp, List<String> groups) {
        return BearerTokensTest.token(null, b -> b.issuer(issuer).audience(audience).jwtID(jti).expirationTime(Date.from(exp))
                .claim("wlcg.groups", groups), key);
    }

    static String atlasToken(String jti, Instant exp) {
        return token(ATLAS, atlasKey, jti, exp, List.of("/atlas"));
    }

    static Tools.Result curl(String token, String... args) {
        List<String> all = new java.util.ArrayList<>(List.of("--capath", pki.resolve("certificates").toString(), "-D", "-",
                "-H", "Authorization: Bearer " + token));
        all.addAll(List.of(args));
        return Tools.curl(all.toArray(String[]::new));
    }

    /** Waits for a line of the pool's transfer records for {@code path} that contains {@code authn}. */
    static void assertTransferRecord(String path, String authn) {
        Path transfers = gridcache.home().resolve("logs/transfers.jsonl");
        Tools.await("a transfer record of " + path + " with " + authn, Duration.ofSeconds(30), () -> Tools.readLog(transfers).lines()
                .anyMatch(l -> l.contains("\"path\":\"" + path + "\"") && l.contains("\"authn\":\"" + authn + "\"")));
    }

    @Test
    void aLowTrustIssuersGroupsAreNotTheVosAndTwoIssuersWithoutMapsDoNotStart() throws Exception {
        Path up = Files.writeString(tmp.resolve("up.txt"), "claimed\n");
        String low = token(LOW, lowKey, "low-1", Instant.now().plusSeconds(600), List.of("/atlas"));
        Tools.Result refused = curl(low, "-H", "Expect:", "-T", up.toString(), door + "/atlas/low.txt");
        assertEquals(403, GridEnv.lastStatus(refused), refused.out());
        assertFalse(Files.exists(data.resolve("atlas/low.txt")), "nothing written");
        Tools.Result atlas = curl(atlasToken("atlas-1", Instant.now().plusSeconds(600)), "-H", "Expect:", "-T", up.toString(),
                door + "/atlas/atlas.txt");
        assertEquals(201, GridEnv.lastStatus(atlas), atlas.out());

        Path unmapped = Files.writeString(tmp.resolve("unmapped.json"), """
                [{"issuer": "%s", "jwks": "atlas.jwks"}, {"issuer": "%s", "jwks": "low.jwks"}]
                """.formatted(ATLAS, LOW));
        Path dir = Files.createDirectories(tmp.resolve("unmapped"));
        List<String> args = List.of("standalone", "--home", dir.resolve("home").toString(), "--origin", origin.url(),
                "--port", String.valueOf(Tools.freePort()), "--zk-port", String.valueOf(Tools.freePort()),
                "--host-cert", pki.resolve("host/cert.pem").toString(), "--host-key", pki.resolve("host/key.pem").toString(),
                "--ca-dir", pki.resolve("certificates").toString(), "--vomsdir", pki.resolve("vomsdir").toString(),
                "--token-issuers", unmapped.toString());
        try (Gridcache process = Gridcache.start(dir.resolve("out"), args.toArray(String[]::new))) {
            Tools.await("the door to refuse to start", Duration.ofMinutes(2), () -> !process.isAlive());
            assertTrue(process.output().contains("issuer " + ATLAS + ": with more than one issuer each needs a \"groups\" map"),
                    process.output());
            assertFalse(process.output().contains("is up"), process.output());
        }
    }

    @Test
    void aMacaroonMintedWithANinetySecondTokenDiesWithIt() throws Exception {
        Instant exp = Instant.now().plusSeconds(90).truncatedTo(ChronoUnit.SECONDS);
        Path answer = tmp.resolve("macaroon.json");
        Tools.Result r = curl(atlasToken("short-1", exp), "-X", "POST", "-H", "Content-Type: application/macaroon-request",
                "--data-binary", "{\"validity\": \"P7D\"}", "-o", answer.toString(), door + "/atlas");
        assertEquals(200, GridEnv.lastStatus(r), r.out());
        assertTrue(r.out().contains("Macaroon-Validity-Capped: until " + exp + " (the expiry of the credential it was minted with)"),
                r.out());
        String m = JSON.readTree(Files.readString(answer)).get("macaroon").asText();
        List<String> caveats = Arrays.stream(MacaroonsBuilder.deserialize(m).caveatPackets).map(c -> c.getValueAsText()).toList();
        assertTrue(caveats.contains("before:" + exp), caveats.toString());
    }

    @Test
    void transferRecordsAndLogLinesSayHowEachReaderAuthenticated() throws Exception {
        String token = atlasToken("audit-jti-7", Instant.now().plusSeconds(600));
        Tools.Result viaToken = curl(token, "-L", "-o", tmp.resolve("t.bin").toString(), door + "/atlas/a.bin");
        assertEquals(200, GridEnv.lastStatus(viaToken), viaToken.out());
        assertTransferRecord("/atlas/a.bin", "token " + ATLAS + " jti:audit-jti-7");

        Path answer = tmp.resolve("audit-macaroon.json");
        Tools.Result minted = curl(token, "-X", "POST", "-H", "Content-Type: application/macaroon-request",
                "--data-binary", "{\"caveats\": [\"activity:DOWNLOAD\"]}", "-o", answer.toString(), door + "/atlas");
        assertEquals(200, GridEnv.lastStatus(minted), minted.out());
        String m = JSON.readTree(Files.readString(answer)).get("macaroon").asText();
        String id = MacaroonsBuilder.deserialize(m).identifier;
        Tools.Result viaMacaroon = curl(m, "-L", "-o", tmp.resolve("m.bin").toString(), door + "/atlas/a.bin");
        assertEquals(200, GridEnv.lastStatus(viaMacaroon), viaMacaroon.out());
        assertTransferRecord("/atlas/a.bin", "macaroon " + id);

        // issue 42 item 4: a VOMS proxy's VO is in the pool's record, as it is in the ticket
        Tools.Result viaProxy = GridEnv.curlAs(pki, "alice-atlas", "-L", "-o", tmp.resolve("p.bin").toString(), door + "/atlas/a.bin");
        assertEquals(200, GridEnv.lastStatus(viaProxy), viaProxy.out());
        Path transfers = gridcache.home().resolve("logs/transfers.jsonl");
        Tools.await("a pool's record of /atlas/a.bin by alice with vo atlas", Duration.ofSeconds(30), () -> Tools.readLog(transfers)
                .lines().anyMatch(l -> l.contains("\"node\":\"pool\"") && l.contains("\"path\":\"/atlas/a.bin\"")
                        && l.contains("\"vo\":\"atlas\"") && l.contains("\"authn\":\"x509\"")));

        Tools.Result refused = curl(m, "-X", "DELETE", door + "/atlas/a.bin");
        assertEquals(403, GridEnv.lastStatus(refused), refused.out());
        String log = Tools.readLog(gridcache.home().resolve("logs/standalone.log"));
        assertTrue(log.lines().anyMatch(l -> l.contains("DELETE /atlas/a.bin by token:tester@" + ATLAS) && l.contains("via macaroon " + id)),
                log);
        String records = Tools.readLog(gridcache.home().resolve("logs/transfers.jsonl"));
        assertFalse(log.contains(token) || log.contains(m) || records.contains(token) || records.contains(m), "never the credential");
    }
}
