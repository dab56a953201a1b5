package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An origin mounted {@code --credential token}: an nginx WebDAV origin that admits only the bearer tokens it was
 * configured with, behind an HTTPS {@code gridcache standalone} (one host credential, so the door's credential
 * endpoint admits its pool) that accepts tokens of the test's issuer ({@code --token-issuers}). What the origin sees
 * is in its {@code who.log}: method, path, status, which token ({@code t1}, {@code t3} or {@code none}) and the
 * user agent ({@code gridcache-door/…} or {@code gridcache-pool}), so each assertion names who presented what.
 *
 * <p>Three tokens of one issuer and one subject, each with the same scopes, so only the origin tells them apart: T1,
 * which the origin admits for everything; T2, which it refuses for everything; T3, which it lets list (PROPFIND, the
 * door's stat) but not read or write (GET, HEAD, PUT): the door therefore redirects T3's read, and only the pool's own
 * permission HEAD, as T3, can refuse a file that the pool already holds from T1's read; and T3's writes reach the
 * origin, through the door or a pool, to be refused there.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class TokenOriginTest {
    static final String ISSUER = "https://tokens.gridcache.test";
    static final String SCOPES = "storage.read:/ storage.create:/tok/up";
    /** The subject of all three tokens, as the door and the pools name it. */
    static final String TESTER = "token:tester@" + ISSUER;
    @TempDir
    static Path tmp;
    static Path pkiParent;
    static Path pki;
    static Path data;
    static Path nginxDir;
    static NginxOrigin origin;
    static Standalone gridcache;
    static String door;
    static RSAKey key;
    static String t1;
    static String t2;
    static String t3;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx", "openssl", "grid-proxy-init", "voms-proxy-fake");
        pkiParent = GridEnv.worldReadableDir("gridcache-tokorigin-pki");
        pki = GridEnv.pki(pkiParent.resolve("pki"));
        data = Files.createDirectories(tmp.resolve("data"));
        Tools.randomFile(data.resolve("data/first.bin"), 1_500_000, 131);
        Tools.randomFile(data.resolve("data/shared.bin"), 800_000, 132);
        Tools.randomFile(data.resolve("data/scoped.bin"), 10_000, 133);
        Files.createDirectories(data.resolve("up"));
        Tools.randomFile(tmp.resolve("up.bin"), 1_200_000, 134);

        key = new RSAKeyGenerator(2048).keyID("k1").generate();
        Files.writeString(tmp.resolve("jwks.json"), new JWKSet(key).toPublicJWKSet().toString());
        Path issuers = Files.writeString(tmp.resolve("issuers.json"), """
                [{"issuer": "%s", "jwks": "jwks.json"}]
                """.formatted(ISSUER));
        // X.509 users may list and read by policy: on the token mount, only the mount's want of a token refuses them
        Path policy = Files.writeString(tmp.resolve("authz.conf"), "authenticated / list,read\n");
        // the default mount (/) is an empty local directory: the token origin is mounted below, at /tok
        Path local = Files.createDirectories(tmp.resolve("local"));
        gridcache = Standalone.startHttps(Files.createDirectories(tmp.resolve("https")), local.toString(), pki,
                "--token-issuers", issuers.toString(), "--authz", policy.toString());
        door = gridcache.door();
        // standalone publishes its bind address (https://127.0.0.1:PORT) as the audience; clients call it localhost
        String audience = door.replace("https://localhost:", "https://127.0.0.1:");
        t1 = token(audience, "t1", SCOPES);
        t2 = token(audience, "t2", SCOPES);
        t3 = token(audience, "t3", SCOPES);

        nginxDir = tmp.resolve("nginx");
        origin = new NginxOrigin(nginxDir, data, "0", true, """
                dav_methods PUT DELETE MKCOL COPY MOVE;
                dav_access user:rw group:r all:r;
                client_max_body_size 0;
                access_log {dir}/access.log origin;
                access_log {dir}/who.log who;
                set $who none;
                if ($http_authorization = "Bearer %s") { set $who t1; }
                if ($http_authorization = "Bearer %s") { set $who t3; }
                if ($who = none) { return 403; }
                set $asked "$who $request_method";
                if ($asked ~ "^t3 (GET|HEAD|PUT)$") { return 403; }
                """.formatted(t1, t3), "log_format who '$request_method $uri $status $who $http_user_agent';");
        origin.start();
        gridcache.admin("origins", "add", "tok", "--prefix", "/tok", "--url", origin.url(), "--credential", "token").assertOk();
        Tools.await("the door to serve the token mount", Duration.ofSeconds(30),
                () -> status(curl(t1, "-X", "PROPFIND", "-H", "Depth: 0", door + "/tok/data/")) == 207);
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
        if (pkiParent != null) {
            Tools.run(Duration.ofMinutes(1), "rm", "-rf", pkiParent.toString());
        }
    }

    static String token(String audience, String id, String scope) {
        Instant now = Instant.now();
        JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(ISSUER).subject("tester").audience(audience)
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(900))).jwtID(id).claim("scope", scope).build();
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
            jwt.sign(new RSASSASigner(key));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** curl with {@code token} (null: none) in the header, trusting gridenv's CA, printing the head(s) ({@code -D -}). */
    static Tools.Result curl(String token, String... args) {
        List<String> all = new ArrayList<>(List.of("--capath", pki.resolve("certificates").toString(), "-D", "-"));
        if (token != null) {
            all.addAll(List.of("-H", "Authorization: Bearer " + token));
        }
        all.addAll(List.of(args));
        return Tools.curl(all.toArray(String[]::new));
    }

    static int status(Tools.Result r) {
        return GridEnv.lastStatus(r);
    }

    /** The origin's requests, as {@code METHOD URI STATUS WHO AGENT} lines. */
    static List<String> seen() throws IOException {
        Path log = nginxDir.resolve("who.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    /** How many requests {@code METHOD URI STATUS WHO} the origin logged from {@code agent} (a prefix of the user agent). */
    static long seen(String request, String agent) throws IOException {
        return seen().stream().filter(l -> l.startsWith(request + " " + agent)).count();
    }

    /** Fixture, idempotent: the pool holds {@code path} (of the mount), read with T1 through the redirect. */
    static void cachedByT1(String path) {
        Tools.Result read = curl(t1, "-L", "-o", "/dev/null", door + "/tok" + path);
        assertEquals(200, status(read), read.out() + read.err());
    }

    static void assertSameFile(Path expected, Path actual) throws IOException {
        assertTrue(Files.exists(actual), actual + " missing");
        assertEquals(Tools.sha256(expected), Tools.sha256(actual), actual.toString());
    }

    @Test
    void t1ListsAndReadsByteExactThroughThePoolAndTheSecondReadIsAHit() throws Exception {
        Tools.Result dav = curl(t1, "-X", "PROPFIND", "-H", "Depth: 1", door + "/tok/data/");
        assertEquals(207, status(dav), dav.out());
        assertTrue(dav.out().contains("first.bin") && dav.out().contains("shared.bin"), dav.out());
        Tools.Result html = curl(t1, "-H", "Accept: text/html", door + "/tok/data/");
        assertEquals(200, status(html), html.out());
        assertTrue(html.out().contains(">first.bin</a>"), html.out());
        assertTrue(seen("PROPFIND /data/ 207 t1", "gridcache-door/") >= 1, String.join("\n", seen())); // the door presented T1

        Path got = tmp.resolve("first.got");
        Tools.Result read = curl(t1, "-L", "-o", got.toString(), door + "/tok/data/first.bin");
        assertEquals(200, status(read), read.out());
        assertTrue(read.out().startsWith("HTTP/1.1 302"), read.out()); // redirected to the pool
        assertSameFile(data.resolve("data/first.bin"), got);
        // the pool got T1 from the door's credential endpoint and presented it: its permission HEAD, then its fetch
        assertEquals(1, seen("HEAD /data/first.bin 200 t1", "gridcache-pool"), String.join("\n", seen()));
        assertEquals(1, seen("GET /data/first.bin 200 t1", "gridcache-pool"), String.join("\n", seen()));

        Files.delete(got);
        Tools.Result again = curl(t1, "-L", "-o", got.toString(), door + "/tok/data/first.bin");
        assertEquals(200, status(again), again.out());
        assertSameFile(data.resolve("data/first.bin"), got);
        assertEquals(1, origin.count("GET", "/data/first.bin"), "the second read is a hit");
    }

    @Test
    void t1WritesThroughAPoolAndThroughTheDoor() throws Exception {
        Path up = tmp.resolve("up.bin");
        Tools.Result viaPool = curl(t1, "-L", "-o", "/dev/null", "-H", "Expect: 100-continue", "-T", up.toString(),
                door + "/tok/up/via-pool.bin");
        assertEquals(201, status(viaPool), viaPool.out());
        assertTrue(viaPool.out().contains("HTTP/1.1 307"), viaPool.out()); // the door sent the upload to a pool
        assertSameFile(up, data.resolve("up/via-pool.bin"));
        assertEquals(1, seen("PUT /up/via-pool.bin 201 t1", "gridcache-pool"), String.join("\n", seen()));

        Tools.Result viaDoor = curl(t1, "-o", "/dev/null", "-H", "Expect:", "-T", up.toString(), door + "/tok/up/via-door.bin");
        assertEquals(201, status(viaDoor), viaDoor.out());
        assertTrue(!viaDoor.out().contains("HTTP/1.1 307"), viaDoor.out()); // the door wrote it itself
        assertSameFile(up, data.resolve("up/via-door.bin"));
        assertEquals(1, seen("PUT /up/via-door.bin 201 t1", "gridcache-door/"), String.join("\n", seen()));
    }

    @Test
    void aTokenTheOriginRefusesGetsTheOrigins403ForAListingAndACachedFile() throws Exception {
        cachedByT1("/data/shared.bin");
        long fetched = origin.count("GET", "/data/shared.bin");
        Path body = tmp.resolve("refused.body");

        Tools.Result list = curl(t2, "-o", body.toString(), "-X", "PROPFIND", "-H", "Depth: 1", door + "/tok/data/");
        assertEquals(403, status(list), list.out());
        assertEquals("the origin refuses " + TESTER + " access to /tok/data (origin tok, 403)", Files.readString(body).strip());
        Tools.Result read = curl(t2, "-L", "-o", body.toString(), door + "/tok/data/shared.bin");
        assertEquals(403, status(read), read.out());
        assertTrue(!read.out().contains("HTTP/1.1 302"), read.out()); // the door's stat as T2 was refused: no ticket
        assertEquals("the origin refuses " + TESTER + " access to /tok/data/shared.bin (origin tok, 403)", Files.readString(body).strip());

        // T3 may list, so the door redirects its read; the pool holds the file, yet asks the origin as T3
        Tools.Result dav = curl(t3, "-X", "PROPFIND", "-H", "Depth: 1", door + "/tok/data/");
        assertEquals(207, status(dav), dav.out());
        Tools.Result viaPool = curl(t3, "-L", "-o", body.toString(), door + "/tok/data/shared.bin");
        assertTrue(viaPool.out().startsWith("HTTP/1.1 302"), viaPool.out());
        assertEquals(403, status(viaPool), viaPool.out());
        assertEquals("the origin refuses " + TESTER + " access to /tok/data/shared.bin", Files.readString(body).strip());
        assertEquals(1, seen("HEAD /data/shared.bin 403 t3", "gridcache-pool"), String.join("\n", seen()));
        assertEquals(fetched, origin.count("GET", "/data/shared.bin"), "nothing fetched for T3");
        cachedByT1("/data/shared.bin"); // T1 is still served
    }

    /** T3 may list the collection, so the door goes on to write (itself, or through a pool): the origin refuses T3's PUT. */
    @Test
    void aWriteTheOriginRefusesTheTokenLeavesNothing() throws Exception {
        Path up = tmp.resolve("up.bin");
        Path body = tmp.resolve("refused-put.body");
        Tools.Result viaDoor = curl(t3, "-o", body.toString(), "-H", "Expect:", "-T", up.toString(), door + "/tok/up/t3-door.bin");
        assertEquals(403, status(viaDoor), viaDoor.out());
        assertEquals("the origin refuses " + TESTER + " PUT /tok/up/t3-door.bin (origin tok, 403)", Files.readString(body).strip());
        assertEquals(1, seen("PUT /up/t3-door.bin 403 t3", "gridcache-door/"), String.join("\n", seen()));

        Tools.Result viaPool = curl(t3, "-L", "-o", body.toString(), "-H", "Expect: 100-continue", "-T", up.toString(),
                door + "/tok/up/t3-pool.bin");
        assertTrue(viaPool.out().contains("HTTP/1.1 307"), viaPool.out());
        assertEquals(403, status(viaPool), viaPool.out());
        assertEquals(1, seen("PUT /up/t3-pool.bin 403 t3", "gridcache-pool"), String.join("\n", seen()));
        assertTrue(Files.readString(body).startsWith("403 Forbidden"), Files.readString(body)); // the origin's own words
        assertTrue(!Files.exists(data.resolve("up/t3-door.bin")) && !Files.exists(data.resolve("up/t3-pool.bin")), "nothing written");
    }

    @Test
    void anX509ClientOnTheTokenMountIsToldItNeedsABearerToken() throws Exception {
        Path body = tmp.resolve("x509.body");
        long before = seen().size();
        for (String[] request : List.of(new String[] {"-X", "PROPFIND", "-H", "Depth: 1", door + "/tok/data/"},
                new String[] {"-L", door + "/tok/data/first.bin"})) {
            List<String> args = new ArrayList<>(List.of("-o", body.toString()));
            args.addAll(List.of(request));
            Tools.Result r = GridEnv.curlAs(pki, "alice", args.toArray(String[]::new));
            assertEquals(401, status(r), r.out());
            assertTrue(r.out().contains("WWW-Authenticate: Bearer"), r.out());
            assertTrue(Files.readString(body).startsWith("this origin needs a bearer token"), Files.readString(body));
        }
        assertEquals(before, seen().size(), "nothing reached the origin");
    }

    @Test
    void aTokenWhoseScopesDoNotCoverThePathIsRefusedAtTheDoor() throws Exception {
        String elsewhere = token(door.replace("https://localhost:", "https://127.0.0.1:"), "t-elsewhere", "storage.read:/other");
        Path body = tmp.resolve("scope.body");
        Tools.Result r = curl(elsewhere, "-L", "-o", body.toString(), door + "/tok/data/scoped.bin");
        assertEquals(403, status(r), r.out());
        assertTrue(r.out().contains("WWW-Authenticate: Bearer error=\"insufficient_scope\""), r.out());
        assertTrue(Files.readString(body).contains("may not"), Files.readString(body));
        assertEquals(0, seen().stream().filter(l -> l.contains("/data/scoped.bin")).count(), "nothing reached the origin");
    }
}
