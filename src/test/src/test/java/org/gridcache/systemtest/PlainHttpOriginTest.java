package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An origin that is a plain HTTP file server (nginx without WebDAV, with autoindex): files are statted with HEAD and
 * cached, directories listed from the HTML index; a large file's concurrent clients, a slow one and a range among
 * them, get it whole from one fill.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PlainHttpOriginTest {
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static Standalone gridcache;
    static String door;
    static Path data;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("fincore");
        data = Files.createDirectories(tmp.resolve("data"));
        Tools.randomFile(data.resolve("dir/plain.bin"), 2 << 20, 41);
        origin = NginxOrigin.startPlain(tmp.resolve("nginx"), data);
        gridcache = Standalone.start(tmp, origin.url());
        door = gridcache.door();
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
    }

    @Test
    void filesAreReadAndCachedDirectoriesAreListedFromTheIndex() throws Exception {
        for (int i = 0; i < 2; i++) {
            Path out = tmp.resolve("plain-" + i);
            Tools.curl("-fL", "-o", out.toString(), door + "/dir/plain.bin").assertOk();
            assertEquals(Tools.sha256(data.resolve("dir/plain.bin")), Tools.sha256(out));
        }
        assertEquals(1, origin.count("GET", "/dir/plain.bin"));
        Tools.Result head = Tools.curl("-I", door + "/dir/plain.bin").assertOk();
        assertTrue(head.out().toLowerCase().contains("content-length: 2097152"), head.out());
        Tools.Result list = Tools.curl("-X", "PROPFIND", "-H", "Depth: 1", "-w", "\n%{http_code}", door + "/dir/").assertOk();
        assertTrue(list.out().endsWith("207") && list.out().contains("plain.bin"), list.out());
        Tools.Result html = Tools.curl("-w", "\n%{http_code}", door + "/dir/").assertOk();
        assertTrue(html.out().endsWith("200") && html.out().contains(">plain.bin</a>"), html.out());
    }

    /**
     * Issue 42 item 1: an origin mounted at a prefix ({@code origins add atlas --prefix /atlas}, the README's example) is
     * a collection there, though the plain HTTP server answers its URL with a 200 HTML index: a PROPFIND lists its
     * files, a browser's GET gets the door's listing, the root's listing shows it as a collection, and no pool ever
     * caches the index as a file {@code /atlas}.
     */
    @Test
    void anOriginMountedAtAPrefixIsACollectionThere() throws Exception {
        gridcache.admin("origins", "add", "atlas", "--prefix", "/atlas", "--url", origin.url() + "dir").assertOk();
        try {
            Tools.await("the door to see the mount", Duration.ofSeconds(30),
                    () -> Tools.curl("-o", "/dev/null", "-w", "%{http_code}", "-X", "PROPFIND", "-H", "Depth: 0", door + "/atlas/")
                            .out().equals("207"));
            Tools.Result list = Tools.curl("-X", "PROPFIND", "-H", "Depth: 1", "-w", "\n%{http_code}", door + "/atlas/").assertOk();
            assertTrue(list.out().endsWith("207") && list.out().contains("plain.bin"), list.out());
            assertTrue(list.out().contains("collection"), list.out());
            Tools.Result html = Tools.curl("-w", "\n%{http_code}", door + "/atlas/").assertOk();
            assertTrue(html.out().endsWith("200") && html.out().contains(">plain.bin</a>"), html.out());
            Tools.Result root = Tools.curl("-X", "PROPFIND", "-H", "Depth: 1", door + "/").assertOk();
            String atlas = root.out().substring(root.out().indexOf("/atlas"));
            atlas = atlas.substring(0, atlas.indexOf("response>"));
            assertTrue(atlas.contains("collection"), root.out());
            Path out = tmp.resolve("atlas-plain.bin");
            Tools.curl("-fL", "-o", out.toString(), door + "/atlas/plain.bin").assertOk();
            assertEquals(Tools.sha256(data.resolve("dir/plain.bin")), Tools.sha256(out));
        } finally {
            gridcache.admin("origins", "remove", "atlas").assertOk();
        }
    }

    /**
     * Clients that join a large fill, one slow and one asking for a range while it runs, all get their bytes whole from
     * one origin request; a hit afterwards reads the stored copy. {@code pool.direct-writes} (fills past the page cache)
     * was removed: the CLI refuses it.
     */
    @Test
    void everyClientOfALargeFillGetsItWhole() throws Exception {
        Tools.Result removed = gridcache.admin("config", "set", "pool.direct-writes", "8M");
        assertTrue(removed.exit() != 0 && (removed.out() + removed.err()).contains("was removed"), removed.toString());
        long size = 24L << 20;
        Path joined = Tools.randomFile(data.resolve("joined.bin"), size, 43);
        long from = 10_000_000;
        List<CompletableFuture<Tools.Result>> clients = new java.util.ArrayList<>(List.of(
                CompletableFuture.supplyAsync(() -> Tools.curl("-fL", "--limit-rate", "8M", "-o",
                        tmp.resolve("joined-slow").toString(), door + "/joined.bin")),
                CompletableFuture.supplyAsync(() -> Tools.curl("-fL", "-o", tmp.resolve("joined-a").toString(), door + "/joined.bin")),
                CompletableFuture.supplyAsync(() -> Tools.curl("-fL", "-o", tmp.resolve("joined-b").toString(), door + "/joined.bin"))));
        // a range of a file being filled joins the fill (one of a file neither stored nor being filled is a block read):
        // it starts once the slow client has its first bytes, when the fill runs (or is stored: then it is a hit)
        Tools.await("the slow client's first bytes", Duration.ofSeconds(60),
                () -> tmp.resolve("joined-slow").toFile().length() > 0);
        clients.add(CompletableFuture.supplyAsync(() -> Tools.curl("-fL", "-r", from + "-", "-o",
                tmp.resolve("joined-range").toString(), door + "/joined.bin")));
        for (CompletableFuture<Tools.Result> client : clients) {
            client.get(120, TimeUnit.SECONDS).assertOk();
        }
        String whole = Tools.sha256(joined);
        for (String name : new String[] {"joined-a", "joined-slow", "joined-b"}) {
            assertEquals(whole, Tools.sha256(tmp.resolve(name)), name);
        }
        byte[] tail = Arrays.copyOfRange(Files.readAllBytes(joined), (int) from, (int) size);
        assertTrue(Arrays.equals(tail, Files.readAllBytes(tmp.resolve("joined-range"))), "the range, byte for byte");
        assertEquals(1, origin.count("GET", "/joined.bin"), "one fill for the four clients");
        Path hit = tmp.resolve("joined-hit");
        Tools.curl("-fL", "-o", hit.toString(), door + "/joined.bin").assertOk();
        assertEquals(whole, Tools.sha256(hit), "a hit reads the stored copy");
    }
}
