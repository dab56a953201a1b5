package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * VO-protected data, as at a grid site: an Apache + mod_gridsite origin whose {@code .gacl} admits only the VOMS group
 * {@code /atlas} to {@code /vo/atlas} and only {@code /cms} to {@code /vo/cms}, mounted {@code --credential user}. The
 * door lists and stats as the user (the delegation of the session's DN and VOMS attributes), the pool reads as the
 * user; the origin decides. The door's policy lets every authenticated user list and read, and write below
 * {@code /vo/atlas/up} (whose {@code .gacl} lets {@code /atlas} write): every refusal here is the origin's, or the
 * door's request to delegate. Writes go to the origin as the user too.
 *
 * <p>The PKI, the origin, zk, one pool and the door are started once for the class. Each test sets up the
 * delegations it needs itself. Alice's {@code /atlas} and {@code /cms} proxies are gridenv's {@code alice-atlas} and
 * {@code alice-cms}; Bob ({@code bob-atlas}) delegates only to be refused a write by the origin (the {@code .gacl} of
 * {@code /vo/atlas/up} denies his DN the write its {@code /atlas} entry grants), and takes his delegation back.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class VoProtectedOriginTest {
    static final String HOST_DN = "/DC=org/DC=example/OU=hosts/CN=localhost";
    @TempDir
    static Path tmp;
    static Path pki;
    static Path pkiParent;
    static Path data;
    static GridEnv.Origin origin;
    static Gridcache zk;
    static Gridcache pool;
    static Gridcache door;
    static String doorUrl;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "openssl", "grid-proxy-init", "voms-proxy-fake", "apache2");
        pkiParent = GridEnv.worldReadableDir("gridcache-vo-pki");
        pki = GridEnv.pki(pkiParent.resolve("pki"));
        data = GridEnv.worldReadableDir("gridcache-vo-origin");
        for (String vo : List.of("atlas", "cms")) {
            Path dir = Files.createDirectories(data.resolve("vo/" + vo));
            Files.writeString(dir.resolve(".gacl"), """
                    <?xml version="1.0"?>
                    <gacl version="0.0.1">
                    <entry><voms><fqan>/%s</fqan></voms><allow><read/><list/></allow></entry>
                    </gacl>
                    """.formatted(vo));
        }
        Path up = Files.createDirectories(data.resolve("vo/atlas/up"));
        Files.writeString(up.resolve(".gacl"), """
                <?xml version="1.0"?>
                <gacl version="0.0.1">
                <entry><voms><fqan>/atlas</fqan></voms><allow><read/><list/><write/></allow></entry>
                <entry><person><dn>/DC=org/DC=example/CN=Bob</dn></person><deny><write/></deny></entry>
                </gacl>
                """);
        Tools.randomFile(data.resolve("vo/atlas/data.bin"), 2_000_000, 71);
        Tools.randomFile(Files.createDirectories(data.resolve("vo/atlas/only")).resolve("vo.bin"), 10_000, 76);
        Tools.randomFile(data.resolve("vo/atlas/second.bin"), 100_000, 72);
        Tools.randomFile(data.resolve("vo/cms/c.bin"), 50_000, 73);
        Tools.run(Duration.ofMinutes(1), "chmod", "-R", "a+rX", data.toString()).assertOk();
        Tools.run(Duration.ofMinutes(1), "chmod", "a+rwx", up.toString()).assertOk(); // Apache's workers write there
        origin = GridEnv.Origin.start(pki, data);

        int zkPort = Tools.freePort();
        String zkConnect = "127.0.0.1:" + zkPort;
        zk = Gridcache.start(tmp.resolve("zk.out"), "zk", "--home", tmp.resolve("zk").toString(), "--port", String.valueOf(zkPort))
                .awaitOutput("is up");
        Gridcache.admin("origins", "add", "vo", "--prefix", "/vo", "--url", origin.url() + "/vo", "--credential", "user",
                "--zk", zkConnect).assertOk();
        Path policy = tmp.resolve("authz.conf");
        // /vo/atlas/only: the door's own policy lets only /atlas read there; everyone may list it
        Files.writeString(policy, "fqan:/atlas /vo/atlas/only list,read\nauthenticated /vo/atlas/only list\n"
                + "authenticated /vo/atlas/up list,read,write\nauthenticated / list,read\n");
        Path conf = tmp.resolve("gridcache.properties");
        Path logs = tmp.resolve("logs");
        Files.writeString(conf, "zk=" + zkConnect
                + "\nhost-cert=" + pki.resolve("host/cert.pem") + "\nhost-key=" + pki.resolve("host/key.pem")
                + "\nca-dir=" + pki.resolve("certificates") + "\nvomsdir=" + pki.resolve("vomsdir") + "\n");
        pool = Gridcache.start(tmp.resolve("pool.out"), "pool", "--config", conf.toString(), "--log-dir", logs.toString(), "--name", "p1",
                "--store", tmp.resolve("store").toString(), "--capacity", "1G", "--port", String.valueOf(Tools.freePort()))
                .awaitOutput("is up");
        int doorPort = Tools.freePort();
        doorUrl = "https://localhost:" + doorPort;
        door = Gridcache.start(tmp.resolve("door.out"), "door", "--config", conf.toString(), "--log-dir", logs.toString(),
                "--port", String.valueOf(doorPort), "--public-url", doorUrl, "--authz", policy.toString(), "--pool-identity", HOST_DN)
                .awaitOutput("is up");
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, zk, pool, door);
        for (Path dir : new Path[] {data, pkiParent}) {
            if (dir != null) {
                Tools.run(Duration.ofMinutes(1), "rm", "-rf", dir.toString());
            }
        }
    }

    static Tools.Result curlAs(String proxy, String... args) {
        return GridEnv.curlAs(pki, proxy, args);
    }

    static int status(Tools.Result r) {
        return GridEnv.lastStatus(r);
    }

    /**
     * Fixture, idempotent: the holder of {@code proxy} has a delegation of it, with {@code gridcache delegate}'s default
     * id (derived from DN and VOMS attributes: Alice's {@code /atlas} and {@code /cms} delegations live side by side).
     */
    static void delegated(String proxy) {
        GridEnv.delegated(pki, doorUrl, proxy);
    }

    /** Fixture, idempotent: the delegation {@link #delegated} makes from {@code proxy} is not there. */
    static void notDelegated(String proxy) {
        Gridcache.admin("delegate", "--destroy", "--proxy", pki.resolve("proxies/" + proxy + ".pem").toString(), "--capath",
                pki.resolve("certificates").toString(), doorUrl); // 404 when there was none: fine
        assertEquals(1, Gridcache.admin("delegate", "--info", "--proxy", pki.resolve("proxies/" + proxy + ".pem").toString(),
                "--capath", pki.resolve("certificates").toString(), doorUrl).exit(), "no delegation of " + proxy);
    }

    static Tools.Result propfind(String proxy, String path) {
        return curlAs(proxy, "-X", "PROPFIND", "-H", "Depth: 1", doorUrl + path);
    }

    @Test
    void aliceWithHerAtlasDelegationListsAndReadsByteExact() throws Exception {
        delegated("alice-atlas");
        Tools.Result dav = propfind("alice-atlas", "/vo/atlas/");
        assertEquals(207, status(dav), dav.out());
        assertTrue(dav.out().contains("data.bin") && dav.out().contains("second.bin"), dav.out());
        assertTrue(dav.out().contains("<d:getcontentlength>2000000</d:getcontentlength>")
                || dav.out().toLowerCase().contains("getcontentlength>2000000<"), "sizes from the origin's index: " + dav.out());
        Tools.Result html = curlAs("alice-atlas", "-H", "Accept: text/html", doorUrl + "/vo/atlas/");
        assertEquals(200, status(html), html.out());
        assertTrue(html.out().contains(">data.bin</a>"), html.out());

        Path out = tmp.resolve("data.out");
        Tools.Result read = curlAs("alice-atlas", "-L", "-o", out.toString(), doorUrl + "/vo/atlas/data.bin");
        assertEquals(200, status(read), read.out());
        assertEquals(Tools.sha256(data.resolve("vo/atlas/data.bin")), Tools.sha256(out), "byte-exact");
        // the .gacl admits only /atlas: a 200 to Alice's delegated proxy is one that carried her /atlas attributes
        assertTrue(origin.accessLog().lines().anyMatch(l -> l.contains("\"GET /vo/atlas/ HTTP/1.1\" 200 ")
                && l.contains("dn:/DC=org/DC=example/CN=Alice/CN=")), "the door listed as Alice, with a proxy of hers:\n" + origin.accessLog());
    }

    /**
     * Alice's {@code /cms} session: without a delegation of its own it is asked to delegate (her {@code /atlas}
     * delegation is not used, though it exists and the door has her {@code /atlas} listing cached); with one, the
     * origin refuses it {@code /vo/atlas} (403 with its word) and shows it {@code /vo/cms}, which it refuses her
     * {@code /atlas} session: each session sees what the origin lists to it, cached or not.
     */
    @Test
    void aCmsSessionNeverActsWithTheAtlasDelegationAndSeesOnlyWhatTheOriginListsToIt() throws Exception {
        delegated("alice-atlas");
        notDelegated("alice-cms");
        assertEquals(207, status(propfind("alice-atlas", "/vo/atlas/")), "Alice's /atlas listing is cached");

        Tools.Result asked = propfind("alice-cms", "/vo/atlas/");
        assertEquals(401, status(asked), asked.out());
        assertTrue(asked.out().contains("X-Delegate-To: " + doorUrl + "/.gridcache/delegation"), asked.out());
        assertTrue(asked.out().contains("VOMS attributes of this session (/cms"), asked.out());
        assertFalse(asked.out().contains("data.bin"), "no name from the cached /atlas listing: " + asked.out());
        assertEquals(401, status(curlAs("alice-cms", doorUrl + "/vo/atlas/data.bin")), "no ticket with the /atlas delegation");

        delegated("alice-cms");
        Tools.Result refused = propfind("alice-cms", "/vo/atlas/");
        assertEquals(403, status(refused), refused.out());
        assertTrue(refused.out().contains("the origin refuses /DC=org/DC=example/CN=Alice access to /vo/atlas"), refused.out());
        assertFalse(refused.out().contains("data.bin"), refused.out());
        Tools.Result html = curlAs("alice-cms", "-H", "Accept: text/html", doorUrl + "/vo/atlas/");
        assertEquals(403, status(html), html.out());
        assertFalse(html.out().contains("data.bin"), html.out());
        Tools.Result read = curlAs("alice-cms", "-L", doorUrl + "/vo/atlas/second.bin");
        assertEquals(403, status(read), read.out());

        Tools.Result cms = propfind("alice-cms", "/vo/cms/");
        assertEquals(207, status(cms), cms.out());
        assertTrue(cms.out().contains("c.bin"), cms.out());
        Tools.Result both = curlAs("alice-atlas", doorUrl + "/.gridcache/delegation");
        assertEquals(2, both.out().split("\"delegationId\"").length - 1, "Alice's two delegations, side by side: " + both.out());
        assertTrue(both.out().contains("/cms") && both.out().contains("/atlas"), both.out());
        Path out = tmp.resolve("c.out");
        assertEquals(200, status(curlAs("alice-cms", "-L", "-o", out.toString(), doorUrl + "/vo/cms/c.bin")));
        assertEquals(Tools.sha256(data.resolve("vo/cms/c.bin")), Tools.sha256(out));
        Tools.Result atlasOnCms = propfind("alice-atlas", "/vo/cms/");
        assertEquals(403, status(atlasOnCms), atlasOnCms.out());
        assertFalse(atlasOnCms.out().contains("c.bin"), "not the /cms session's cached listing: " + atlasOnCms.out());
        assertFalse(origin.accessLog().lines().anyMatch(l -> l.contains("/vo/atlas/second.bin HTTP/1.1\" 200 ")),
                "only the /cms session asked for second.bin, and the origin never granted it");
    }

    @Test
    void aliceWritesAsHerselfAndTheOriginRefusesHerCmsSessionWithItsReason() throws Exception {
        delegated("alice-atlas");
        Path file = Tools.randomFile(tmp.resolve("alice-up.bin"), 1_000_000, 74);
        // without Expect (curl sends it for a large body by itself): the door proxies this PUT
        Tools.Result put = curlAs("alice-atlas", "-H", "Expect:", "-T", file.toString(), doorUrl + "/vo/atlas/up/alice.bin");
        assertEquals(201, status(put), put.out() + put.err());
        assertEquals(Tools.sha256(file), Tools.sha256(data.resolve("vo/atlas/up/alice.bin")), "byte-exact at the origin");
        assertTrue(origin.accessLog().lines().anyMatch(l -> l.contains("\"PUT /vo/atlas/up/alice.bin HTTP/1.1\" 20")
                && l.contains("Alice")), "the origin saw Alice's delegation put it:\n" + origin.accessLog());

        delegated("alice-cms");
        Tools.Result refused = curlAs("alice-cms", "-H", "Expect:", "-T", file.toString(), doorUrl + "/vo/atlas/up/cms.bin");
        assertEquals(403, status(refused), refused.out());
        assertTrue(refused.out().contains("the origin refuses"), refused.out());
        assertFalse(Files.exists(data.resolve("vo/atlas/up/cms.bin")));
    }

    /**
     * A PUT with {@code Expect: 100-continue} goes to the pool (307), which asks the door for Alice's credential and
     * PUTs to mod_gridsite as her; the copy it keeps is then a hit. Bob, whom the origin's {@code .gacl} denies the
     * write, gets the origin's 403 and its reason through the pool, and nothing is written.
     */
    @Test
    void uploadsThroughAPoolGoToTheOriginAsTheUserAndBobIsRefusedWithTheOriginsReason() throws Exception {
        delegated("alice-atlas");
        Path file = Tools.randomFile(tmp.resolve("alice-pool.bin"), 3_000_000, 75);
        Tools.Result put = curlAs("alice-atlas", "-T", file.toString(), "-H", "Expect: 100-continue", "-L",
                doorUrl + "/vo/atlas/up/pool.bin");
        assertTrue(put.out().contains("HTTP/1.1 307"), "the door sends the body to a pool: " + put.out());
        int status = status(put);
        assertTrue(status >= 200 && status < 300, put.out() + put.err());
        assertEquals(Tools.sha256(file), Tools.sha256(data.resolve("vo/atlas/up/pool.bin")), "byte-exact at the origin");
        assertTrue(origin.accessLog().lines().anyMatch(l -> l.contains("\"PUT /vo/atlas/up/pool.bin HTTP/1.1\" 20")
                && l.contains("Alice")), "the pool put it with Alice's credential:\n" + origin.accessLog());
        assertTrue(pool.output().contains("PUT /vo/atlas/up/pool.bin by "), pool.output());
        Path back = tmp.resolve("alice-pool.back");
        Tools.Result get = curlAs("alice-atlas", "-L", "-o", back.toString(), doorUrl + "/vo/atlas/up/pool.bin");
        assertTrue(get.out().contains("X-Cache: HIT"), get.out());
        assertEquals(Tools.sha256(file), Tools.sha256(back));

        delegated("bob-atlas");
        try {
            Tools.Result refused = curlAs("bob-atlas", "-T", file.toString(), "-H", "Expect: 100-continue", "-L",
                    doorUrl + "/vo/atlas/up/bob.bin");
            assertTrue(refused.out().contains("HTTP/1.1 307"), refused.out());
            assertEquals(403, status(refused), refused.out());
            assertTrue(refused.out().contains("the origin refuses /DC=org/DC=example/CN=Bob PUT /vo/atlas/up/bob.bin (origin vo, 403)")
                    && refused.out().contains("You don't have permission"), "the origin's reason: " + refused.out());
            assertFalse(Files.exists(data.resolve("vo/atlas/up/bob.bin")));
        } finally {
            GridEnv.withoutDelegation(pki, doorUrl, "bob-atlas");
        }
    }

    /**
     * Issue 39 row 12: the door's policy refuses Alice's {@code /cms} session the read of {@code /vo/atlas/only}: 403
     * with the policy's reason, before asking the origin anything, never a request to delegate that would not help.
     */
    @Test
    void aSessionThePolicyRefusesIsToldSoNotAskedToDelegate() throws Exception {
        notDelegated("alice-cms");
        Tools.Result refused = curlAs("alice-cms", doorUrl + "/vo/atlas/only/vo.bin");
        assertEquals(403, status(refused), refused.out());
        assertTrue(refused.out().contains("may not read /vo/atlas/only/vo.bin"), refused.out());
        assertFalse(refused.out().contains("X-Delegate-To"), refused.out());
        assertFalse(origin.accessLog().contains("/vo/atlas/only/vo.bin"), "the origin was not asked: " + origin.accessLog());
        delegated("alice-atlas");
        assertEquals(302, status(curlAs("alice-atlas", doorUrl + "/vo/atlas/only/vo.bin")), "the /atlas session reads it");
    }

    @Test
    void bobWithoutADelegationIsAskedToDelegateAndABrowserIsToldHow() {
        GridEnv.withoutDelegation(pki, doorUrl, "bob-atlas");
        Tools.Result dav = propfind("bob-atlas", "/vo/atlas/");
        assertEquals(401, status(dav), dav.out());
        assertTrue(dav.out().contains("X-Delegate-To: " + doorUrl + "/.gridcache/delegation"), dav.out());
        Tools.Result get = curlAs("bob-atlas", doorUrl + "/vo/atlas/data.bin");
        assertEquals(401, status(get), get.out());
        assertTrue(get.out().contains("X-Delegate-To: "), get.out());
        assertFalse(get.out().contains("Location:"), "no ticket: " + get.out());

        Tools.Result browser = curlAs("bob-atlas", "-H", "Accept: text/html,application/xhtml+xml", doorUrl + "/vo/atlas/");
        assertEquals(401, status(browser), browser.out());
        assertTrue(browser.out().contains("Content-Type: text/html"), browser.out());
        assertTrue(browser.out().contains("gridcache delegate --proxy"), browser.out());
        assertTrue(browser.out().contains("X-Delegate-To: "), "the header too, for clients that delegate: " + browser.out());
    }
}
