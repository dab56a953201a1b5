package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.ticket.TicketCodec;
import org.gridcache.common.ticket.TicketKeys;
import org.gridcache.common.ticket.TicketSigningKey;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code gridcache standalone} in front of a real nginx WebDAV origin, driven by curl and wget. */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class StandaloneWebDavOriginTest {
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static Standalone gridcache;
    static String door;
    static Path data;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "wget", "nginx");
        data = Files.createDirectories(tmp.resolve("data"));
        Tools.randomFile(data.resolve("f-1m.bin"), 1 << 20, 1);
        Tools.randomFile(data.resolve("twice.bin"), 3 << 20, 2);
        Tools.randomFile(data.resolve("burst.bin"), 32 << 20, 3);
        Tools.randomFile(data.resolve("range.bin"), 100_000, 4);
        Tools.randomFile(data.resolve("vector.bin"), 200_000, 6);
        Tools.randomFile(data.resolve("sub/inner file.bin"), 12_345, 5);
        Files.writeString(data.resolve("small.txt"), "hello grid\n");
        origin = NginxOrigin.start(tmp.resolve("nginx"), data);
        gridcache = Standalone.start(tmp, origin.url());
        door = gridcache.door();
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
    }

    @Test
    void propfindListsTheOriginDirectory() {
        Tools.Result r = Tools.curl("-X", "PROPFIND", "-H", "Depth: 1", "-w", "\n%{http_code}", door + "/").assertOk();
        assertTrue(r.out().endsWith("207"), r.out());
        assertTrue(r.out().contains("small.txt") && r.out().contains("f-1m.bin") && r.out().contains("sub/"), r.out());
        Tools.Result file = Tools.curl("-X", "PROPFIND", "-H", "Depth: 0", door + "/range.bin").assertOk();
        assertTrue(file.out().contains("100000"), "size of range.bin in " + file.out());
        Tools.Result sub = Tools.curl("-X", "PROPFIND", "-H", "Depth: 1", door + "/sub/").assertOk();
        assertTrue(sub.out().contains("inner%20file.bin"), sub.out());
    }

    @Test
    void getRedirectsToAPoolWithATicket() {
        Tools.Result r = Tools.curl("-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", door + "/small.txt").assertOk();
        String[] parts = r.out().split(" ", 2);
        assertEquals("302", parts[0], r.out());
        assertTrue(parts[1].contains("/small.txt?" + Ticket.QUERY_PARAMETER + "="), parts[1]);
        assertTrue(!parts[1].startsWith(door), "redirected to the pool, not the door: " + parts[1]);
    }

    @Test
    void readsAreByteExactWithCurlAndWget() throws Exception {
        Path byCurl = tmp.resolve("curl-f-1m.bin");
        Tools.curl("-fL", "-o", byCurl.toString(), door + "/f-1m.bin").assertOk();
        assertEquals(Tools.sha256(data.resolve("f-1m.bin")), Tools.sha256(byCurl));
        Path byWget = tmp.resolve("wget-inner.bin");
        Tools.run(Duration.ofSeconds(60), "wget", "-q", "-O", byWget.toString(), door + "/sub/inner%20file.bin").assertOk();
        assertEquals(Tools.sha256(data.resolve("sub/inner file.bin")), Tools.sha256(byWget));
    }

    @Test
    void aSecondReadDoesNotTouchTheOrigin() throws Exception {
        for (int i = 0; i < 2; i++) {
            Path out = tmp.resolve("twice-" + i);
            Tools.Result r = Tools.curl("-fL", "-D", "-", "-o", out.toString(), door + "/twice.bin").assertOk();
            assertEquals(Tools.sha256(data.resolve("twice.bin")), Tools.sha256(out));
            assertTrue(r.out().contains(i == 0 ? "X-Cache: MISS" : "X-Cache: HIT"), r.out());
        }
        assertEquals(1, origin.count("GET", "/twice.bin"), "origin GETs of twice.bin");
    }

    @Test
    void rangeReadReturnsThoseBytes() throws Exception {
        Path out = tmp.resolve("range-part");
        Tools.Result r = Tools.curl("-fL", "-r", "1000-1999", "-w", "%{http_code}", "-o", out.toString(), door + "/range.bin").assertOk();
        assertEquals("206", r.out());
        byte[] all = Files.readAllBytes(data.resolve("range.bin"));
        assertTrue(Arrays.equals(Arrays.copyOfRange(all, 1000, 2000), Files.readAllBytes(out)));
        Tools.Result tail = Tools.curl("-L", "-r", "-10", "-o", out.toString(), "-w", "%{http_code}", door + "/range.bin").assertOk();
        assertEquals("206", tail.out());
        assertTrue(Arrays.equals(Arrays.copyOfRange(all, all.length - 10, all.length), Files.readAllBytes(out)));
        Tools.Result bad = Tools.curl("-L", "-r", "200000-300000", "-o", "/dev/null", "-w", "%{http_code}", door + "/range.bin").assertOk();
        assertEquals("416", bad.out());
    }

    /** A vector read (several ranges, as davix and ROOT send them) of a cached file: 206 multipart/byteranges. */
    @Test
    void severalRangesOfACachedFileAreOneMultipartAnswer() throws Exception {
        String url = door + "/vector.bin";
        Tools.curl("-fL", "-o", "/dev/null", url).assertOk();
        Tools.await("vector.bin to be stored", Duration.ofSeconds(30),
                () -> Tools.curl("-sL", "-D", "-", "-o", "/dev/null", "-r", "0-0", url).out().contains("X-Cache: HIT"));
        Path out = tmp.resolve("vector-parts");
        Tools.Result r = Tools.curl("-fL", "-D", "-", "-r", "100000-100009,0-99,5000-5099", "-o", out.toString(), url).assertOk();
        assertTrue(r.out().contains("HTTP/1.1 206"), r.out());
        String type = r.out().lines().filter(l -> l.toLowerCase().startsWith("content-type:")).reduce((a, b) -> b).orElseThrow();
        assertTrue(type.contains("multipart/byteranges; boundary="), type);
        byte[] all = Files.readAllBytes(data.resolve("vector.bin"));
        byte[] body = Files.readAllBytes(out);
        String text = new String(body, java.nio.charset.StandardCharsets.ISO_8859_1);
        int previous = -1;
        for (int[] range : new int[][] {{0, 99}, {5000, 5099}, {100000, 100009}}) {
            String partHead = "Content-Range: bytes " + range[0] + "-" + range[1] + "/" + all.length + "\r\n\r\n";
            int at = text.indexOf(partHead);
            assertTrue(at > previous, "part " + range[0] + "-" + range[1] + " present, in order");
            int start = at + partHead.length();
            assertTrue(Arrays.equals(Arrays.copyOfRange(all, range[0], range[1] + 1), Arrays.copyOfRange(body, start, start + range[1] - range[0] + 1)),
                    "bytes of " + range[0] + "-" + range[1]);
            previous = at;
        }
        String boundary = type.substring(type.indexOf("boundary=") + "boundary=".length()).trim();
        assertTrue(text.endsWith("\r\n--" + boundary + "--\r\n"), "closing boundary");
    }

    @Test
    void forgedAndExpiredTicketsAreRefused() throws Exception {
        String location = Tools.curl("-o", "/dev/null", "-w", "%{redirect_url}", door + "/small.txt").assertOk().out();
        String token = location.substring(location.indexOf(Ticket.QUERY_PARAMETER + "=") + Ticket.QUERY_PARAMETER.length() + 1);
        String poolUrl = location.substring(0, location.indexOf('?'));
        // forged: flip one character of the signature
        char last = token.charAt(token.length() - 2);
        String forged = token.substring(0, token.length() - 2) + (last == 'A' ? 'B' : 'A') + token.charAt(token.length() - 1);
        Tools.Result f = Tools.curl("-w", "\n%{http_code}", poolUrl + "?" + Ticket.QUERY_PARAMETER + "=" + forged).assertOk();
        assertTrue(f.out().endsWith("403") && f.out().contains("signature"), f.out());
        // expired: signed with the real key, but its lifetime is over
        TicketSigningKey doorKey = TicketSigningKey.load(gridcache.home().resolve("keys/door.jwk"));
        TicketCodec codec = new TicketCodec(doorKey, (issuer, kid) -> TicketKeys.of(issuer, List.of(doorKey)).publicKey(issuer, kid),
                TicketCodec.DEFAULT_MAX_LIFETIME, Clock.systemUTC());
        String claims = new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8);
        assertFalse(claims.contains("127.0.0.1") || claims.contains("http"), "the ticket names no origin: " + claims);
        Ticket valid = codec.verify(token);
        String expired = codec.sign(new Ticket(valid.path(), valid.pool(), valid.operation(),
                Instant.now().getEpochSecond() - 5, valid.subject(), valid.door(), null, valid.size(), valid.mtime()));
        Tools.Result e = Tools.curl("-w", "\n%{http_code}", poolUrl + "?" + Ticket.QUERY_PARAMETER + "=" + expired).assertOk();
        assertTrue(e.out().endsWith("403") && e.out().contains("expired"), e.out());
        // missing, and issued for another path
        Tools.Result m = Tools.curl("-w", "\n%{http_code}", poolUrl).assertOk();
        assertTrue(m.out().endsWith("403") && m.out().contains("missing"), m.out());
        String otherPath = poolUrl.replace("/small.txt", "/f-1m.bin") + "?" + Ticket.QUERY_PARAMETER + "=" + token;
        Tools.Result o = Tools.curl("-w", "\n%{http_code}", otherPath).assertOk();
        assertTrue(o.out().endsWith("403") && o.out().contains("another path"), o.out());
        // a valid ticket may be reused until it expires (range retries, seeking)
        for (int i = 0; i < 2; i++) {
            Tools.Result ok = Tools.curl("-f", location).assertOk();
            assertEquals("hello grid\n", ok.out());
        }
    }

    @Test
    void aMissingFileIs404() {
        Tools.Result r = Tools.curl("-w", "\n%{http_code}", door + "/no-such-file.bin").assertOk();
        assertTrue(r.out().endsWith("404"), r.out());
    }

    @Test
    void doorServicesAreNeverLookedUpInTheOrigin() throws Exception {
        Tools.Result r = Tools.curl("-o", "/dev/null", "-w", "%{http_code}", door + "/.gridcache/nothing-here").assertOk();
        assertEquals("404", r.out());
        assertEquals(0, origin.count("PROPFIND", "/.gridcache/nothing-here") + origin.count("GET", "/.gridcache/nothing-here"));
    }

    @Test
    void twentyConcurrentClientsOnOneNewFileCauseOneOriginGet() throws Exception {
        List<Process> clients = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            clients.add(new ProcessBuilder("curl", "-sSfL", "--max-time", "120", "-o", tmp.resolve("burst-" + i).toString(),
                    door + "/burst.bin").redirectErrorStream(true).redirectOutput(tmp.resolve("burst-" + i + ".log").toFile()).start());
        }
        String expected = Tools.sha256(data.resolve("burst.bin"));
        for (int i = 0; i < 20; i++) {
            assertTrue(clients.get(i).waitFor(150, TimeUnit.SECONDS), "client " + i + " finished");
            assertEquals(0, clients.get(i).exitValue(), Files.readString(tmp.resolve("burst-" + i + ".log")));
            assertEquals(expected, Tools.sha256(tmp.resolve("burst-" + i)), "client " + i + " bytes");
        }
        assertEquals(1, origin.count("GET", "/burst.bin"), "origin GETs of burst.bin");
    }
}
