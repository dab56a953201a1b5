package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * WLCG JWT bearer tokens at an HTTPS door ({@code gridcache standalone} with gridenv's host certificate and {@code
 * --token-issuers}) in front of a writable nginx WebDAV origin: tokens signed here with a key whose JWKS the issuers
 * file names, carried by real clients — curl (header and {@code ?authz=}), davix ({@code --header}), gfal2 (its
 * {@code BEARER_TOKEN} variable) and rclone ({@code --webdav-bearer-token}) — which read through the pool redirect,
 * list and write (curl both through the door and through a pool, davix and gfal2 through a pool as they send {@code
 * Expect}, rclone through the door; the door's log tells which). Then the refusals over HTTPS with curl, each asserted by status and reason line.
 * Third-party copies as the token's subject (curl and gfal2) against a second nginx, the remote: a pull by
 * {@code storage.create}, a push by {@code storage.read}, and their refusals.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class BearerTokensTest {
    static final String ISSUER = "https://tokens.gridcache.test";
    static final List<String> CLIENTS = List.of("curl", "davix", "gfal2", "rclone");
    @TempDir
    static Path tmp;
    static Path pkiParent;
    static Path pki;
    static Path data;
    static NginxOrigin origin;
    /** The other side of third-party copies: its /token/ location wants {@code Authorization: Bearer s3cret}. */
    static NginxOrigin remote;
    static Path remoteData;
    static Standalone gridcache;
    static String door;
    /** The door's audience: standalone publishes its bind address (https://127.0.0.1:PORT), which clients call localhost. */
    static String audience;
    static RSAKey key;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx", "openssl", "grid-proxy-init", "voms-proxy-fake");
        pkiParent = GridEnv.worldReadableDir("gridcache-test-pki");
        pki = GridEnv.pki(pkiParent.resolve("pki"));
        data = Files.createDirectories(tmp.resolve("data"));
        long seed = 300;
        for (String client : CLIENTS) {
            Tools.randomFile(Files.createDirectories(data.resolve("data")).resolve(client + ".bin"), 700_000 + seed, seed++);
            Tools.randomFile(tmp.resolve(client + "-up.bin"), 900_000 + seed, seed++);
        }
        Files.writeString(Files.createDirectories(data.resolve("foo")).resolve("a.txt"), "a\n");
        Files.writeString(Files.createDirectories(data.resolve("foobar")).resolve("b.txt"), "b\n");
        Files.writeString(Files.createDirectories(data.resolve("up")).resolve("existing.txt"), "keep me\n");
        Files.writeString(data.resolve("up/tpc-existing.txt"), "keep me too\n");
        origin = NginxOrigin.startWritable(tmp.resolve("nginx"), data);
        remoteData = Files.createDirectories(tmp.resolve("remote"));
        Files.createDirectories(remoteData.resolve("open"));
        Files.createDirectories(remoteData.resolve("token"));
        Files.createDirectories(remoteData.resolve("bearer"));
        // /bearer/ wants some JWT: what gfal2 sends the remote when it passes its BEARER_TOKEN on (TransferHeaderAuthorization)
        remote = NginxOrigin.startWritable(tmp.resolve("remote-nginx"), remoteData, NginxOrigin.TOKEN_LOCATION
                + "location /bearer/ { if ($http_authorization !~ \"^Bearer ey\") { return 403; } }\n");

        key = new RSAKeyGenerator(2048).keyID("k1").generate();
        Files.writeString(tmp.resolve("jwks.json"), new JWKSet(key).toPublicJWKSet().toString());
        Path issuers = Files.writeString(tmp.resolve("issuers.json"), """
                [{"issuer": "%s", "jwks": "jwks.json", "groups": {"/gridcache/readers": "/gridcache/readers"}}]
                """.formatted(ISSUER));
        // tokens with storage scopes are judged by them alone; a token with only groups by this policy
        Path policy = Files.writeString(tmp.resolve("authz.conf"), "fqan:/gridcache/readers /data list,read\n");
        gridcache = Standalone.startHttps(Files.createDirectories(tmp.resolve("https")), origin.url(), pki,
                "--token-issuers", issuers.toString(), "--authz", policy.toString());
        door = gridcache.door();
        Gridcache.allowTpcTo(gridcache::admin, "127.0.0.1", gridcache::output, 2); // the remote is on loopback
        audience = door.replace("https://localhost:", "https://127.0.0.1:");
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(remote, origin, gridcache);
        if (pkiParent != null) {
            Tools.run(Duration.ofMinutes(1), "rm", "-rf", pkiParent.toString());
        }
    }

    // --- tokens ---

    static JWTClaimsSet.Builder claims(String scope) {
        Instant now = Instant.now();
        JWTClaimsSet.Builder b = new JWTClaimsSet.Builder().issuer(ISSUER).subject("tester").audience(audience)
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(900))).jwtID(String.valueOf(now.toEpochMilli()));
        return scope == null ? b : b.claim("scope", scope);
    }

    static String token(String scope) {
        return token(scope, b -> b, key);
    }

    static String token(String scope, UnaryOperator<JWTClaimsSet.Builder> edit, RSAKey with) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(with.getKeyID()).build(),
                    edit.apply(claims(scope)).build());
            jwt.sign(new RSASSASigner(with));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads everything, creates below /up. */
    static String readWrite() {
        return token("storage.read:/ storage.create:/up");
    }

    static String certificates() {
        return pki.resolve("certificates").toString();
    }

    // --- clients ---

    static Tools.Result curl(String token, String... args) {
        List<String> all = new ArrayList<>(List.of("--capath", certificates()));
        if (token != null) {
            all.addAll(List.of("-H", "Authorization: Bearer " + token));
        }
        all.addAll(List.of(args));
        return Tools.curl(all.toArray(String[]::new));
    }

    static Tools.Result run(String... command) {
        return Tools.run(Duration.ofMinutes(2), command);
    }

    /** Waits for the door's log line of {@code method path} by the token's subject, which ends in {@code outcome}. */
    static void assertDoorLogged(String method, String path, String outcome) {
        Tools.await(method + " " + path + " " + outcome + " in the door's log", Duration.ofSeconds(20), () -> {
            return Tools.readLog(gridcache.home().resolve("logs/standalone.log")).lines().anyMatch(l ->
                    l.contains(method + " " + path + " by token:tester@" + ISSUER) && l.contains(outcome));
        });
    }

    static void assertSameFile(Path expected, Path actual) throws Exception {
        assertTrue(Files.exists(actual), actual + " missing");
        assertEquals(Tools.sha256(expected), Tools.sha256(actual), actual.toString());
    }

    @Test
    void curlReadsThroughThePoolListsAndWritesThroughTheDoorAndThroughAPool() throws Exception {
        String token = readWrite();
        Path got = tmp.resolve("curl-got.bin");
        Tools.Result read = curl(token, "-L", "-D", "-", "-o", got.toString(), door + "/data/curl.bin").assertOk();
        assertTrue(read.out().startsWith("HTTP/1.1 302"), read.out()); // redirected to the pool
        assertSameFile(data.resolve("data/curl.bin"), got);

        Files.delete(got);
        curl(null, "-L", "-f", "-o", got.toString(), door + "/data/curl.bin?authz=" + token).assertOk();
        assertSameFile(data.resolve("data/curl.bin"), got);

        Tools.Result list = curl(token, "-f", "-X", "PROPFIND", "-H", "Depth: 1", door + "/data/").assertOk();
        assertTrue(list.out().contains("curl.bin"), list.out());

        Path up = tmp.resolve("curl-up.bin");
        curl(token, "-f", "-H", "Expect:", "-T", up.toString(), door + "/up/curl-door.bin").assertOk();
        assertSameFile(up, data.resolve("up/curl-door.bin"));
        Tools.Result viaPool = curl(token, "-f", "-L", "-D", "-", "-o", "/dev/null", "-H", "Expect: 100-continue", "-T", up.toString(),
                door + "/up/curl-pool.bin").assertOk();
        assertTrue(viaPool.out().contains("HTTP/1.1 307"), viaPool.out()); // the door sent the upload to a pool
        assertSameFile(up, data.resolve("up/curl-pool.bin"));
    }

    /**
     * Issue 42 item 3: the WLCG JWT compliance suite's curl keywords send {@code Authorization} twice, the same value
     * both times; that is one token (RFC 9110 §5.3). Two different tokens stay one line's 400.
     */
    @Test
    void theSameTokenTwiceIsOneTokenAndTwoDifferentOnesAreRefused() throws Exception {
        String token = readWrite();
        String twice = "Authorization: Bearer " + token;
        Path got = tmp.resolve("twice-got.bin");
        curl(token, "-f", "-L", "-H", twice, "-o", got.toString(), door + "/data/curl.bin").assertOk();
        assertSameFile(data.resolve("data/curl.bin"), got);
        Tools.Result list = curl(token, "-f", "-X", "PROPFIND", "-H", "Depth: 1", "-H", twice, door + "/data/").assertOk();
        assertTrue(list.out().contains("curl.bin"), list.out());
        Path up = Files.writeString(tmp.resolve("twice-up.txt"), "twice\n");
        curl(token, "-f", "-H", "Expect:", "-H", twice, "-T", up.toString(), door + "/up/twice.txt").assertOk();
        assertSameFile(up, data.resolve("up/twice.txt"));

        Tools.Result two = curl(token, "-D", "-", "-H", "Authorization: Bearer " + token("storage.read:/data"),
                door + "/data/curl.bin");
        assertEquals(400, GridEnv.lastStatus(two), two.out());
        assertTrue(two.out().strip().endsWith("Authorization headers with different values"), two.out());
    }

    @Test
    void davixCarriesTheTokenInAHeader() throws Exception {
        Tools.require("davix-get", "davix-ls", "davix-put");
        String header = "Authorization: Bearer " + readWrite();
        Path got = tmp.resolve("davix-got.bin");
        run("davix-get", "--capath", certificates(), "-H", header, door + "/data/davix.bin", got.toString()).assertOk();
        assertSameFile(data.resolve("data/davix.bin"), got);
        Tools.Result list = run("davix-ls", "--capath", certificates(), "-H", header, door + "/data/").assertOk();
        assertTrue(list.out().contains("davix.bin"), list.out());
        Path up = tmp.resolve("davix-up.bin");
        run("davix-put", "--capath", certificates(), "-H", header, up.toString(), door + "/up/davix.bin").assertOk();
        assertSameFile(up, data.resolve("up/davix.bin"));
        assertDoorLogged("PUT", "/up/davix.bin", "-> 307 to pool"); // davix sends Expect: the upload went to the pool
    }

    @Test
    void gfal2TakesTheTokenFromBearerToken() throws Exception {
        Tools.require("gfal-ls", "gfal-copy");
        String[] env = {"env", "GFAL_PYTHONBIN=/usr/bin/python3", "X509_CERT_DIR=" + certificates(), "BEARER_TOKEN=" + readWrite()};
        Path got = tmp.resolve("gfal2-got.bin");
        run(concat(env, "gfal-copy", "-f", door + "/data/gfal2.bin", "file://" + got)).assertOk();
        assertSameFile(data.resolve("data/gfal2.bin"), got);
        Tools.Result list = run(concat(env, "gfal-ls", door + "/data/")).assertOk();
        assertTrue(list.out().contains("gfal2.bin"), list.out());
        Path up = tmp.resolve("gfal2-up.bin");
        run(concat(env, "gfal-copy", "file://" + up, door + "/up/gfal2.bin")).assertOk();
        assertSameFile(up, data.resolve("up/gfal2.bin"));
        assertDoorLogged("PUT", "/up/gfal2.bin", "-> 307 to pool");
    }

    @Test
    void rcloneUsesItsWebdavBearerToken() throws Exception {
        Tools.require("rclone");
        String[] rclone = {"rclone", "--config", "/dev/null", "--webdav-url", door + "/", "--webdav-vendor", "other",
                "--webdav-bearer-token", readWrite(), "--ca-cert", pki.resolve("ca/ca.pem").toString()};
        Path got = tmp.resolve("rclone-got.bin");
        run(concat(rclone, "copyto", ":webdav:data/rclone.bin", got.toString())).assertOk();
        assertSameFile(data.resolve("data/rclone.bin"), got);
        Tools.Result list = run(concat(rclone, "lsf", ":webdav:data")).assertOk();
        assertTrue(list.out().contains("rclone.bin"), list.out());
        Path up = tmp.resolve("rclone-up.bin");
        run(concat(rclone, "copyto", up.toString(), ":webdav:up/rclone.bin")).assertOk();
        assertSameFile(up, data.resolve("up/rclone.bin"));
        assertDoorLogged("PUT", "/up/rclone.bin", "-> 201"); // rclone sends no Expect: the door wrote it
    }

    private static String[] concat(String[] head, String... tail) {
        List<String> all = new ArrayList<>(List.of(head));
        all.addAll(List.of(tail));
        return all.toArray(String[]::new);
    }

    // --- refusals ---

    /** One refusal: what curl sends and the status, reason line and challenge the door answers. */
    record Refusal(String name, int status, String reason, String challenge, String... curl) {
    }

    @Test
    void refusalsHaveTheirStatusReasonAndChallenge() throws Exception {
        Instant now = Instant.now();
        RSAKey other = new RSAKeyGenerator(2048).keyID("k2").generate();
        RSAKey forger = new RSAKeyGenerator(2048).keyID("k1").generate();
        Date expired = Date.from(now.minusSeconds(3600));
        Date later = Date.from(now.plusSeconds(3600));
        String unsigned = new PlainJWT(claims("storage.read:/").build()).serialize();
        String foo = token("storage.read:/foo");
        String create = token("storage.create:/up");
        String groups = token(null, b -> b.claim("wlcg.groups", List.of("/gridcache/readers")), key);
        String file = door + "/data/curl.bin";
        String invalid = "Bearer error=\"invalid_token\"";
        String insufficient = "Bearer error=\"insufficient_scope\"";
        Path up = tmp.resolve("curl-up.bin");
        List<Refusal> table = List.of(
                new Refusal("no token", 401, "authentication required: present an X.509 certificate, a proxy or a bearer token to "
                        + "list /data/curl.bin", null, file),
                new Refusal("expired", 401, "the token expired at " + expired.toInstant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
                        invalid, bearer(token("storage.read:/", b -> b.expirationTime(expired), key)), file),
                new Refusal("not yet valid", 401, "the token is not valid before " + later.toInstant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
                        invalid, bearer(token("storage.read:/", b -> b.notBeforeTime(later), key)), file),
                new Refusal("wrong audience", 401, "the token's audience https://elsewhere.example.org is not this door ("
                        + audience + ")", invalid, bearer(token("storage.read:/", b -> b.audience("https://elsewhere.example.org"), key)), file),
                new Refusal("unknown issuer", 401, "unknown token issuer https://evil.example.org", invalid,
                        bearer(token("storage.read:/", b -> b.issuer("https://evil.example.org"), key)), file),
                new Refusal("unknown kid", 401, "no RS256 key of token issuer " + ISSUER + " has key id (kid) k2", invalid,
                        bearer(token("storage.read:/", b -> b, other)), file),
                new Refusal("bad signature", 401, "bad signature: no key of token issuer " + ISSUER + " verifies it", invalid,
                        bearer(token("storage.read:/", b -> b, forger)), file),
                new Refusal("alg none", 401, "an unsigned token (alg none) is never accepted", invalid, bearer(unsigned), file),
                new Refusal("storage scope without a path", 401, "storage scope storage.read without a path (storage.read:/path)",
                        invalid, bearer(token("storage.read")), file),
                new Refusal("storage.read:/foo on /foobar", 403, "token:tester@" + ISSUER + " may not read metadata /foobar/b.txt"
                        + " (the token's scopes: DOWNLOAD,LIST,READ_METADATA:/foo)", insufficient, bearer(foo), door + "/foobar/b.txt"),
                new Refusal("storage.create overwriting", 403, "token:tester@" + ISSUER + " may not delete /up/existing.txt"
                        + " (the token's scopes: MANAGE,READ_METADATA,UPLOAD:/up)", insufficient, bearer(create), "-H", "Expect:",
                        "-T", up.toString(), door + "/up/existing.txt"),
                new Refusal("storage.create deleting", 403, "token:tester@" + ISSUER + " may not delete /up/existing.txt"
                        + " (the token's scopes: MANAGE,READ_METADATA,UPLOAD:/up)", insufficient, bearer(create), "-X", "DELETE",
                        door + "/up/existing.txt"),
                new Refusal("groups, outside the policy", 403, "token:tester@" + ISSUER + " may not list /foo/a.txt", null,
                        bearer(groups), door + "/foo/a.txt"),
                new Refusal("bad authz parameter", 401, "the authz query parameter is not percent-encoded", invalid,
                        file + "?authz=x.%zz"));
        StringBuilder printed = new StringBuilder(String.format("%n%-32s %s  %s", "case", "status", "reason"));
        List<String> failures = new ArrayList<>();
        for (Refusal r : table) {
            List<String> args = new ArrayList<>(List.of("--capath", certificates(), "-s", "-D", "-", "-o", tmp.resolve("body").toString()));
            args.addAll(List.of(r.curl()));
            Tools.Result reply = Tools.curl(args.toArray(String[]::new));
            String head = reply.out();
            int status = head.length() > 12 ? Integer.parseInt(head.substring(9, 12)) : -1;
            String reason = Files.exists(tmp.resolve("body")) ? Files.readString(tmp.resolve("body")).strip() : "";
            printed.append(String.format("%n%-32s %d     %s", r.name(), status, reason));
            if (status != r.status() || !reason.equals(r.reason())) {
                failures.add(r.name() + ": " + status + " " + reason + " (expected " + r.status() + " " + r.reason() + ")");
            } else if (r.challenge() != null && !head.contains("WWW-Authenticate: " + r.challenge())) {
                failures.add(r.name() + ": no " + r.challenge() + " challenge in\n" + head);
            }
        }
        System.out.println("bearer-token refusals over HTTPS (curl):" + printed);
        assertEquals(List.of(), failures);
        assertEquals("keep me\n", Files.readString(data.resolve("up/existing.txt"))); // neither replaced nor deleted
        // the positive controls: modify may replace what create may not, and the groups' token reads where the policy lets it
        String modify = token("storage.modify:/up");
        curl(modify, "-f", "-H", "Expect:", "-T", up.toString(), door + "/up/existing.txt").assertOk();
        assertSameFile(up, data.resolve("up/existing.txt"));
        curl(groups, "-f", "-L", "-o", "/dev/null", file).assertOk();
    }

    // --- third-party copy as a token's subject ---

    static String remote(String path) {
        return "http://127.0.0.1:" + remote.port() + path;
    }

    /** A token client's COPY, following the door's 307 to the pool, no checksum required (nginx gives no Digest). */
    static Tools.Result copy(String token, String... headersAndUrl) {
        List<String> args = new ArrayList<>(List.of("-sS", "-L", "-D", "-", "-X", "COPY", "-H", "RequireChecksumVerification: false"));
        args.addAll(List.of(headersAndUrl));
        return curl(token, args.toArray(String[]::new)).assertOk();
    }

    static String lastLine(Tools.Result r) {
        List<String> lines = r.out().strip().lines().toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    /** The first status line's code (the door's answer). */
    static int firstStatus(Tools.Result r) {
        String head = r.out();
        return head.startsWith("HTTP/") ? Integer.parseInt(head.substring(9, 12)) : -1;
    }

    @Test
    void aCreateTokenPullsIntoItsDirectoryAndNotOntoAFileNorWithReadScopes() throws Exception {
        Path file = Tools.randomFile(remoteData.resolve("open/pull.bin"), 1_200_000, 61);
        Tools.Result pull = copy(token("storage.create:/up"), "-H", "Credential: none", "-H", "Source: " + remote("/open/pull.bin"),
                door + "/up/tpc-pulled.bin");
        assertTrue(pull.out().startsWith("HTTP/1.1 307"), "the door sends the copy to a pool: " + pull.out());
        assertEquals("success: Created", lastLine(pull), pull.out());
        assertSameFile(file, data.resolve("up/tpc-pulled.bin"));
        assertDoorLogged("COPY", "/up/tpc-pulled.bin", "-> 307 to pool");

        Tools.Result readOnly = copy(token("storage.read:/"), "-H", "Credential: none", "-H", "Source: " + remote("/open/pull.bin"),
                door + "/up/tpc-read-only.bin");
        assertEquals(403, firstStatus(readOnly), readOnly.out());
        assertTrue(readOnly.out().contains("WWW-Authenticate: Bearer error=\"insufficient_scope\""), readOnly.out());
        assertTrue(readOnly.out().contains("may not upload /up/tpc-read-only.bin"), readOnly.out());
        assertTrue(Files.notExists(data.resolve("up/tpc-read-only.bin")), "nothing written");

        Tools.Result replace = copy(token("storage.create:/up"), "-H", "Credential: none", "-H", "Source: " + remote("/open/pull.bin"),
                door + "/up/tpc-existing.txt");
        assertEquals(403, firstStatus(replace), replace.out());
        assertTrue(replace.out().contains("may not delete /up/tpc-existing.txt"), "create may not replace: " + replace.out());
        assertEquals("keep me too\n", Files.readString(data.resolve("up/tpc-existing.txt")));
    }

    /** As FTS and gfal2 send it: no Credential header, which for a token's client means none; asking gridsite is 403. */
    @Test
    void aTokenPullWithoutACredentialHeaderPresentsNone() throws Exception {
        Path file = Tools.randomFile(remoteData.resolve("open/nocred.bin"), 300_000, 62);
        Tools.Result pull = copy(token("storage.create:/up"), "-H", "Source: " + remote("/open/nocred.bin"), door + "/up/tpc-nocred.bin");
        assertEquals("success: Created", lastLine(pull), pull.out());
        assertSameFile(file, data.resolve("up/tpc-nocred.bin"));

        Tools.Result gridsite = copy(token("storage.create:/up"), "-H", "Credential: gridsite", "-H", "Source: " + remote("/open/nocred.bin"),
                door + "/up/tpc-gridsite.bin");
        assertEquals(403, firstStatus(gridsite), "a token has no delegation to present: " + gridsite.out());
        assertTrue(gridsite.out().contains("use Credential: none"), gridsite.out());
        assertTrue(Files.notExists(data.resolve("up/tpc-gridsite.bin")));
    }

    @Test
    void aReadTokenPushesWithTheRemotesTokenAndAnotherPathsTokenIsRefused() throws Exception {
        Tools.Result push = copy(token("storage.read:/data"), "-H", "TransferHeaderAuthorization: Bearer s3cret",
                "-H", "Destination: " + remote("/token/pushed.bin"), door + "/data/curl.bin");
        assertTrue(push.out().startsWith("HTTP/1.1 307"), push.out());
        assertEquals("success: Created", lastLine(push), push.out());
        assertSameFile(data.resolve("data/curl.bin"), remoteData.resolve("token/pushed.bin"));
        assertDoorLogged("COPY", "/data/curl.bin", "push to");

        Tools.Result elsewhere = copy(token("storage.read:/foo"), "-H", "TransferHeaderAuthorization: Bearer s3cret",
                "-H", "Destination: " + remote("/token/refused.bin"), door + "/data/curl.bin");
        assertEquals(403, firstStatus(elsewhere), elsewhere.out());
        assertTrue(elsewhere.out().contains("WWW-Authenticate: Bearer error=\"insufficient_scope\""), elsewhere.out());
        assertTrue(Files.notExists(remoteData.resolve("token/refused.bin")), "nothing at the remote");
        assertFalse(gridcache.output().contains("s3cret"), "the remote's token is never logged");
    }

    /**
     * gfal2 sends no Credential header and passes its {@code BEARER_TOKEN} on to the remote side itself (as
     * {@code TransferHeaderAuthorization}, which the pool sends on as {@code Authorization}): the remote's /bearer/
     * location answers 403 to a request without a JWT.
     */
    @Test
    void gfalCopyWithBearerTokenPullsAndPushes() throws Exception {
        Tools.require("gfal-copy");
        String[] env = {"env", "GFAL_PYTHONBIN=/usr/bin/python3", "X509_CERT_DIR=" + certificates(),
                "BEARER_TOKEN=" + token("storage.read:/data storage.create:/up")};
        Path file = Tools.randomFile(remoteData.resolve("bearer/gfal-pull.bin"), 800_000, 63);
        Tools.Result pull = run(concat(env, "gfal-copy", "-v", "--copy-mode", "pull", remote("/bearer/gfal-pull.bin"), door + "/up/gfal-pulled.bin"));
        assertEquals(0, pull.exit(), pull.out() + pull.err());
        assertSameFile(file, data.resolve("up/gfal-pulled.bin"));
        assertDoorLogged("COPY", "/up/gfal-pulled.bin", "-> 307 to pool");

        Tools.Result push = run(concat(env, "gfal-copy", "-v", "--copy-mode", "push", door + "/data/gfal2.bin", remote("/bearer/gfal-pushed.bin")));
        assertEquals(0, push.exit(), push.out() + push.err());
        assertSameFile(data.resolve("data/gfal2.bin"), remoteData.resolve("bearer/gfal-pushed.bin"));
        assertDoorLogged("COPY", "/data/gfal2.bin", "push to");
    }

    /** curl's arguments for a token in the header. */
    private static String bearer(String token) {
        return "-HAuthorization: Bearer " + token;
    }
}
