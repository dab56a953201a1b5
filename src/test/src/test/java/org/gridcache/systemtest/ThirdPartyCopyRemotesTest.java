package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a third-party copy may go (issue 39, rows 1 and 7). {@code gridcache standalone} over HTTPS; a site's "internal"
 * HTTP service on 127.0.0.2 that must never see a request, and a remote storage on 127.0.0.1, the only loopback
 * address {@code tpc.allowed-hosts} lists. The pool's JVM resolves {@code internal.test} to 127.0.0.2 and {@code
 * remote.test} to 127.0.0.1 (a hosts file of its own): a name the door cannot judge, the pool refuses when it
 * resolves it, before connecting, at the first hop or at a redirect. Once the site lists 127.0.0.2 the same copies
 * work. And two copies of different identities never share a connection to the remote (an XRootD-like remote keeps
 * the identity a connection authenticated first).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ThirdPartyCopyRemotesTest {
    static final String REFUSED = "failure: internal.test (127.0.0.2) is in the loopback range, which tpc.allowed-hosts does not list";
    @TempDir
    static Path tmp;
    static Path pkiParent;
    static Path pki;
    static Path data;
    static NginxOrigin origin;
    static RecordingHttpServer internal;
    static RecordingHttpServer remote;
    static Standalone gridcache;
    static String door;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx", "openssl", "grid-proxy-init", "voms-proxy-fake");
        pkiParent = GridEnv.worldReadableDir("gridcache-test-pki");
        pki = GridEnv.pki(pkiParent.resolve("pki"));
        data = Files.createDirectories(tmp.resolve("data"));
        Tools.randomFile(data.resolve("mine.bin"), 200_000, 71);
        origin = NginxOrigin.startWritable(tmp.resolve("nginx"), data);
        internal = new RecordingHttpServer("127.0.0.2");
        remote = new RecordingHttpServer("127.0.0.1")
                .redirect("/to-internal.bin", "http://internal.test:" + internal.port() + "/secret.bin")
                .redirect("/put-to-internal.bin", "http://internal.test:" + internal.port() + "/drop.bin");
        // the JVM's own host name too: a node asks for it at start
        Path hosts = Files.writeString(tmp.resolve("hosts"), "127.0.0.1 localhost remote.test "
                + java.net.InetAddress.getLocalHost().getHostName() + "\n127.0.0.2 internal.test\n");
        Path policy = Files.writeString(tmp.resolve("authz.conf"), "authenticated / list,read,write\n");
        gridcache = Standalone.startHttps(Map.of("GRIDCACHE_JAVA_OPTS", "-Djdk.net.hosts.file=" + hosts),
                Files.createDirectories(tmp.resolve("gc")), origin.url(), pki, "--authz", policy.toString());
        door = gridcache.door();
        // the site's remote storage runs on loopback here: listed explicitly, as a site would list an internal storage
        Gridcache.allowTpcTo(gridcache::admin, "127.0.0.1", gridcache::output, 2);
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(internal, remote, origin, gridcache);
        if (pkiParent != null) {
            Tools.run(Duration.ofMinutes(1), "rm", "-rf", pkiParent.toString());
        }
    }

    /** Alice's COPY (her proxy, Credential: none) of {@code target} with {@code headers}, following the door's 307. */
    private static Tools.Result copy(String target, String... headers) {
        List<String> args = new ArrayList<>(List.of("-sS", "-L", "-w", "\n%{http_code}", "-X", "COPY", "-H", "Credential: none",
                "-H", "RequireChecksumVerification: false"));
        for (String header : headers) {
            args.addAll(List.of("-H", header));
        }
        args.add(target);
        return GridEnv.curlAs(pki, "alice", args.toArray(String[]::new)).assertOk();
    }

    private static String internalUrl(String path) {
        return "http://internal.test:" + internal.port() + path;
    }

    private static String remoteUrl(String path) {
        return "http://remote.test:" + remote.port() + path;
    }

    /** The perf-marker stream's last line (the status code curl appends removed). */
    private static String outcome(Tools.Result r) {
        List<String> lines = r.out().lines().filter(l -> !l.isBlank()).toList();
        return lines.size() < 2 ? "" : lines.get(lines.size() - 2);
    }

    private static String status(Tools.Result r) {
        List<String> lines = r.out().strip().lines().toList();
        return lines.get(lines.size() - 1);
    }

    @Test
    void theDoorRefusesAnAddressItSeesAndAnAnonymousCopy() {
        int before = internal.seen().size();
        Tools.Result literal = copy(door + "/lit.bin", "Source: http://127.0.0.2:" + internal.port() + "/secret.bin");
        assertEquals("403", status(literal), literal.out());
        assertTrue(literal.out().contains("Source refused: 127.0.0.2 is in the loopback range, which tpc.allowed-hosts does not list"),
                literal.out());
        Tools.Result metadata = copy(door + "/meta.bin", "Source: http://169.254.169.254/latest/meta-data/iam");
        assertTrue(status(metadata).equals("403") && metadata.out().contains("169.254.169.254 is in the cloud metadata range"),
                metadata.out());
        Tools.Result mapped = copy(door + "/mine.bin", "Destination: http://[::ffff:127.0.0.2]:" + internal.port() + "/drop.bin");
        assertTrue(status(mapped).equals("403") && mapped.out().contains("Destination refused: 127.0.0.2 is in the loopback range"),
                mapped.out());

        for (String header : new String[] {"Source: " + remoteUrl("/a.bin"), "Destination: " + remoteUrl("/a.bin")}) {
            Tools.Result anonymous = Tools.curl("-sS", "-w", "\n%{http_code}", "--capath", pki.resolve("certificates").toString(),
                    "-X", "COPY", "-H", "Credential: none", "-H", header, door + "/mine.bin").assertOk();
            assertEquals("401", status(anonymous), anonymous.out());
            assertTrue(anonymous.out().contains("authentication required: a third-party copy needs"), anonymous.out());
        }
        assertEquals(before, internal.seen().size(), "the internal service saw nothing: " + internal.seen());
        assertFalse(Files.exists(data.resolve("lit.bin")) || Files.exists(data.resolve("meta.bin")), "nothing written");
    }

    @Test
    void thePoolRefusesANameOrARedirectThatResolvesInsideAndTheSameCopiesWorkOnceListed() throws Exception {
        int before = internal.seen().size();
        long logged = refusalsLogged();
        Tools.Result pull = copy(door + "/pulled.bin", "Source: " + internalUrl("/secret.bin"));
        assertEquals(REFUSED, outcome(pull), pull.out());
        Tools.Result push = copy(door + "/mine.bin", "Destination: " + internalUrl("/drop.bin"));
        assertEquals(REFUSED, outcome(push), push.out());
        Tools.Result redirected = copy(door + "/redirected.bin", "Source: " + remoteUrl("/to-internal.bin"));
        assertEquals(REFUSED, outcome(redirected), redirected.out());
        Tools.Result pushRedirected = copy(door + "/mine.bin", "Destination: " + remoteUrl("/put-to-internal.bin"));
        assertEquals(REFUSED, outcome(pushRedirected), pushRedirected.out());
        assertEquals(before, internal.seen().size(), "the internal service saw nothing: " + internal.seen());
        assertFalse(Files.exists(data.resolve("pulled.bin")) || Files.exists(data.resolve("redirected.bin")), "nothing written");
        Tools.await("the pool to log the refusals", Duration.ofSeconds(10), () -> refusalsLogged() >= logged + 4);
        assertEquals(logged + 4, refusalsLogged(), "each refusal logged once");

        Gridcache.allowTpcTo(gridcache::admin, "127.0.0.1,127.0.0.2", gridcache::output, 2);
        try {
            assertEquals("success: Created", outcome(copy(door + "/pulled.bin", "Source: " + internalUrl("/secret.bin"))));
            assertArrayEquals(RecordingHttpServer.BODY, Files.readAllBytes(data.resolve("pulled.bin")));
            assertEquals("success: Created", outcome(copy(door + "/mine.bin", "Destination: " + internalUrl("/drop.bin"))));
            assertEquals("success: Created", outcome(copy(door + "/redirected.bin", "Source: " + remoteUrl("/to-internal.bin"))));
            assertArrayEquals(RecordingHttpServer.BODY, Files.readAllBytes(data.resolve("redirected.bin")));
            assertEquals("success: Created", outcome(copy(door + "/mine.bin", "Destination: " + remoteUrl("/put-to-internal.bin"))));
            assertTrue(internal.seen().stream().anyMatch(s -> s.method().equals("PUT") && s.path().equals("/drop.bin")),
                    "the listed host got the push: " + internal.seen());
        } finally {
            Gridcache.allowTpcTo(gridcache::admin, "127.0.0.1", gridcache::output, 2);
        }
    }

    private static long refusalsLogged() {
        return gridcache.output().lines().filter(l -> l.contains(REFUSED.substring("failure: ".length()))).count();
    }

    /** Row 7: copies of different identities (a token for the remote, another, none) never share a TCP connection. */
    @Test
    void copiesOfDifferentIdentitiesNeverShareAConnection() {
        String[][] copies = {
                {"TransferHeaderAuthorization: Bearer alice-token"},
                {},
                {"TransferHeaderAuthorization: Bearer bob-token"},
                {},
                {"TransferHeaderAuthorization: Bearer alice-token"},
        };
        int before = remote.seen().size();
        for (int i = 0; i < copies.length; i++) {
            String[] headers = new String[copies[i].length + 1];
            headers[0] = "Source: " + remoteUrl("/shared" + i + ".bin");
            System.arraycopy(copies[i], 0, headers, 1, copies[i].length);
            Tools.Result r = copy(door + "/shared" + i + ".bin", headers);
            assertEquals("success: Created", outcome(r), r.out());
        }
        List<RecordingHttpServer.Seen> seen = remote.seen().subList(before, remote.seen().size());
        assertEquals(copies.length, seen.size(), seen.toString());
        Map<Integer, Set<String>> identitiesPerConnection = new HashMap<>();
        for (RecordingHttpServer.Seen s : seen) {
            identitiesPerConnection.computeIfAbsent(s.clientPort(), p -> new HashSet<>()).add(String.valueOf(s.authorization()));
        }
        identitiesPerConnection.forEach((port, identities) -> assertEquals(1, identities.size(),
                "the connection from port " + port + " carried " + identities + ": " + seen));
    }
}
